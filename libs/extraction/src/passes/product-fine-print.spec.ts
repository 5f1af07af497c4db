import { describe, expect, it } from '@jest/globals';
import { formatPage } from '../index.js';

const TEXT = { raw_html: false, enhanced_html: false, markdown: false, page_text: true };
const sentence = (i: number, what: string): string => `${what} sentence ${i}, written with commas, detail, and enough words to read as prose.`;
const block = (n: number, what: string): string => Array.from({ length: n }, (_, i) => `<p>${sentence(i, what)} ${sentence(i + 50, what)}</p>`).join('');
const ld = (type: string): string => `<script type="application/ld+json">{"@context":"https://schema.org","@type":"${type}","name":"Trail lamp"}</script>`;
const notes = '<ol><li>¹ Battery life measured under lab conditions at the lowest setting; results vary with use.</li><li>² Trail is a trademark of Lamp Co. Availability varies by region.</li></ol>';

describe('the small print of a product page', () => {
  it('is left out of the product content', () => {
    const html =
      `<html><head><title>Trail lamp</title>${ld('Product')}</head><body><main><h1>Trail lamp</h1><span class="price">$49</span><button>Add to cart</button>` +
      `<div class="product-description">${block(4, 'Description')}<div class="pdp-disclaimer">${notes}</div></div></main></body></html>`;
    const out = formatPage(html, { url: 'https://shop.example/product/trail-lamp', formats: TEXT }).page_text ?? '';
    expect(out).toContain('Description sentence 3');
    expect(out).not.toContain('lab conditions');
  });

  it('stays on an article, where a disclaimer is the writer’s note', () => {
    const html = `<html><head><title>T</title>${ld('Article')}</head><body><article>${block(6, 'Writer')}<div class="disclaimer"><p>${sentence(1, 'Disclosure')}</p></div></article></body></html>`;
    const out = formatPage(html, { url: 'https://mag.example/2025/01/02/trail-lamps', formats: TEXT }).page_text ?? '';
    expect(out).toContain('Disclosure sentence 1');
  });
});
