import { describe, expect, it } from '@jest/globals';
import { bodyOf, parseHtml, textContent, type Element } from '../dom.js';
import { removeCallsToAction } from './cta-links.js';
import { formatPage } from '../index.js';

const run = (body: string): string => {
  const root = bodyOf(parseHtml(`<html><body>${body}</body></html>`)) as Element;
  removeCallsToAction(root);
  return textContent(root).replace(/\s+/g, ' ').trim();
};

describe('removeCallsToAction', () => {
  it('drops a short link standing alone in its block', () => {
    expect(run('<div class="cta"><p>Backups every night.</p><div><a href="/backup">Learn more</a></div></div>')).toBe('Backups every night.');
  });
  it('keeps a link inside a sentence, a list entry and a link wrapping a card', () => {
    const out = run('<p>Read <a href="/a">the guide</a> first.</p><ul><li><a href="/b">Pricing</a></li></ul><div><a href="/c"><p>Card title</p></a></div>');
    expect(out).toContain('the guide');
    expect(out).toContain('Pricing');
    expect(out).toContain('Card title');
  });
  it('reads a link wrapped in inline elements by its block: a lone button in a span goes, a contents entry stays', () => {
    expect(run('<p>Plans for every team.</p><div><span class="btn"><a href="/p">See plans</a></span></div>')).toBe('Plans for every team.');
    // A DocBook table of contents: every entry a link in a span in a <dt>, short titles as well as long ones.
    const toc = run(
      '<dl class="toc"><dt><span class="sect1"><a href="/a">3. Conventions</a></span></dt><dt><span class="sect1"><a href="/b">5. Bug Reporting Guidelines</a></span></dt></dl>',
    );
    expect(toc).toBe('3. Conventions5. Bug Reporting Guidelines');
  });
});

describe('a widened service page', () => {
  it('reads without the buttons that close its sections', () => {
    const band = (s: number): string =>
      `<section class="band"><h2>Band ${s}</h2><p>Band ${s} explains what the service does for a team, in a sentence or two of plain words.</p><div class="actions"><a href="/s/${s}">Start now</a></div></section>`;
    const html = `<html><head><title>Service</title></head><body><main><div class="hero"><p>Short intro</p></div>${[1, 2, 3, 4, 5].map(band).join('')}</main></body></html>`;
    const out = formatPage(html, { url: 'https://service.example/', formats: { raw_html: false, enhanced_html: false, markdown: false, page_text: true } });
    expect(out.metadata).toMatchObject({ pageType: 'service' });
    expect(out.page_text).toContain('Band 5 explains');
    expect(out.page_text).not.toContain('Start now');
  });
});
