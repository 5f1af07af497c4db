import { describe, expect, it } from '@jest/globals';
import { formatPage } from '../index.js';

const TEXT = { raw_html: false, enhanced_html: false, markdown: false, page_text: true };
const sentence = (i: number): string => `Step ${i} installs the package and wires it into the build, with care.`;

describe('a documentation page whose sidebar outweighs the page', () => {
  // The sidebar lists every page of the manual: more text than the page, so cleaning keeps it.
  const links = Array.from({ length: 120 }, (_, i) => `<li><a href="/docs/topic-${i}">Utility topic number ${i}</a></li>`).join('');
  const html = `<html><head><title>Installation</title></head><body><div class="layout"><div class="side"><nav><ul>${links}</ul></nav></div><div class="page"><h1>Installation</h1><p>${sentence(1)} ${sentence(2)}</p><pre>npm install thing</pre><p>${sentence(3)}</p></div></div></body></html>`;

  it('drops the sidebar from the widened page', () => {
    const out = formatPage(html, { url: 'https://lib.example/docs/installation', formats: TEXT });
    expect(out.metadata).toMatchObject({ pageType: 'documentation' });
    expect(out.page_text).toContain('Step 3 installs the package');
    expect(out.page_text).not.toContain('Utility topic number 7');
  });
});
