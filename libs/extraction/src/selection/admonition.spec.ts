import { describe, expect, it } from '@jest/globals';
import { formatPage } from '../index.js';

const TEXT = { raw_html: false, enhanced_html: false, markdown: false, page_text: true };
const paragraphs = Array.from({ length: 8 }, (_, i) => `<p>Step ${i} of the guide installs the tool, checks its version, and explains what it changed on disk.</p>`).join('');

describe('a note set in the body of a docs page', () => {
  it('is kept however many links it holds', () => {
    const note = `<div class="box box-tip"><strong>Tip</strong> The <a href="/pkg/tool">tool</a> package also ships <a href="/man/check">check(8)</a> and <a href="/man/fix">fix(8)</a>; see <a href="/wiki/extras">extras</a>.</div>`;
    const html = `<html><head><title>Tool</title></head><body><div id="content"><h1>Tool</h1>${paragraphs}${note}${paragraphs}</div></body></html>`;
    const out = formatPage(html, { url: 'https://wiki.example/Tool', formats: TEXT });
    expect(out.page_text).toContain('package also ships check(8)');
  });

  it('leaves a block of links without a note word to pruning', () => {
    const links = `<div class="box"><strong>More</strong> The <a href="/pkg/tool">tool</a> package also ships <a href="/man/check">check(8)</a> and <a href="/man/fix">fix(8)</a>; see <a href="/wiki/extras">extras</a>.</div>`;
    const html = `<html><head><title>Tool</title></head><body><div id="content"><h1>Tool</h1>${paragraphs}${links}${paragraphs}</div></body></html>`;
    const out = formatPage(html, { url: 'https://wiki.example/Tool', formats: TEXT });
    expect(out.page_text).not.toContain('package also ships check(8)');
  });
});
