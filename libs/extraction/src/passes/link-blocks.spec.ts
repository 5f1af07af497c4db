// Blocks of links left in a widened product page (see link-blocks.ts).
import { describe, expect, it } from '@jest/globals';
import { formatPage } from '../index.js';
import { page, pageOptions, prose } from '#test/support/pages.js';

describe('link blocks on a widened product page', () => {
  it('widen to the product details but drop rails of links to other products', () => {
    const rail = `<div class="carousel">${Array.from({ length: 8 }, (_, i) => `<div class="tile"><a href="/p/${i}">Other product number ${i} in stock</a></div>`).join('')}</div>`;
    const details = ['Materials', 'Care', 'Sizing', 'Shipping', 'Returns', 'Warranty'].map((t) => `<div class="panel"><h3>${t}</h3><p>${t} details for this kettle: stainless steel, 1.7 litres, boils in three minutes.</p></div>`).join('');
    const html = page(`<div class="pdp"><h1>Kettle</h1><div class="desc">${prose(2)}</div></div>${rail}<div class="tabs">${details}</div>`);
    const text = formatPage(html, { ...pageOptions('https://site.example/products/kettle'), pageType: 'product' }).page_text ?? '';
    expect(text).toContain('Warranty details for this kettle');
    expect(text).not.toContain('Other product number 3');
  });
});
