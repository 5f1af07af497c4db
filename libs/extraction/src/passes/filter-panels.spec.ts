import { describe, expect, it } from '@jest/globals';
import { formatPage } from '../index.js';
import { bodyOf, parseHtml, type Element } from '../dom.js';
import { removeFilterPanels } from './filter-panels.js';
import { renderText } from '../text.js';

const TEXT = { raw_html: false, enhanced_html: false, markdown: false, page_text: true };
const tiles = (n: number): string =>
  Array.from({ length: n }, (_, i) => `<div class="tile"><a href="/p/${i}">Trail shoe model ${i}, cushioned and light</a><span class="amount">$${i + 80}.00</span></div>`).join('');
const panel = `<div class="facets-container"><h3>Brand</h3><div>Acme (125) Borealis (101) Contour (87)</div><h3>Price range</h3><div>$50 to $75 (25) $75 to $100 (36)</div></div>`;

describe('filter panels of a category', () => {
  it('are dropped when the category widens to its grid', () => {
    const html = `<html><head><title>Trail shoes</title></head><body><main><h1>Trail shoes</h1><p>Shoes for rough ground.</p>${panel}<div class="grid">${tiles(24)}</div></main></body></html>`;
    const out = formatPage(html, { url: 'https://shop.example/c/trail-shoes', formats: TEXT, pageType: 'collection' }).page_text ?? '';
    expect(out).toContain('Trail shoe model 10');
    expect(out).not.toContain('Borealis (101)');
  });

  it('are kept when the block so named holds most of the selection', () => {
    const root = bodyOf(parseHtml(`<html><body><div class="results-with-filters">${tiles(6)}</div></body></html>`)) as Element;
    removeFilterPanels([root.children[0] as Element]);
    expect(renderText(root)).toContain('Trail shoe model 5');
  });
});
