import { describe, expect, it } from '@jest/globals';
import { bodyOf, parseHtml } from '../dom.js';
import { extractMainContent } from './main-content.js';
import { profileOf } from '../profile.js';
import { renderText } from '../text.js';

/** The main content of `html` as selected and pruned. */
function content(html: string): string {
  const nodes = extractMainContent(bodyOf(parseHtml(html)), profileOf('article'));
  return nodes ? renderText(nodes) : '';
}

const para = (i: number): string =>
  `<p>Paragraph ${i} explains how the writers work with each client, in plain words, with detail, care, and a few commas to read like prose.</p>`;
/** A row of a plan comparison whose label links to a pop-up saying what the feature is. */
const row = (feature: string, cells: string[]): string =>
  `<tr><td><a href="#popup-${feature.length}">${feature}</a></td>${cells.map((c) => `<td>${c}</td>`).join('')}</tr>`;
const table =
  `<table><tr><td></td><td>Basic</td><td>Plus</td><td>Premium</td></tr>` +
  row('Money-back guarantee', ['Yes', 'Yes', 'Yes']) +
  row('Interview coaching session', ['-', 'Yes', 'Yes']) +
  row('Cover letter and thank-you letter', ['-', '-', 'Yes']) +
  row('Direct line to your writer', ['-', 'Yes', 'Yes']) +
  `<tr><td></td><td><a href="/order/1">Order now</a></td><td><a href="/order/2">Order now</a></td><td><a href="/order/3">Order now</a></td></tr></table>`;

describe('a data table inside a wrapper (pruning)', () => {
  it("keeps the section that wraps a plan comparison table whose row labels are links", () => {
    const html = `<html><body><div class="page"><h1>Resume writing packages</h1>${[1, 2, 3, 4].map(para).join('')}
      <section class="plans"><div class="plans__inner">${table}</div></section>${para(5)}</div>
      <div class="more"><a href="/a">Blog</a> <a href="/b">Careers at the firm</a></div></body></html>`;
    const text = content(html);
    expect(text).toContain('Interview coaching session');
    expect(text).toContain('Cover letter and thank-you letter');
    expect(text).toContain('Paragraph 5 explains');
  });
});
