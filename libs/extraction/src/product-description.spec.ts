// A product's description from its JSON-LD, added when the page hides it (see product-description.ts).
import { describe, expect, it } from '@jest/globals';
import { formatPage, type FormatOptions } from './index.js';

const ALL = { raw_html: false, enhanced_html: false, markdown: true, page_text: true };
const opts = (url: string): FormatOptions => ({ url, formats: ALL });
const para = (n: number): string =>
  Array.from({ length: n }, (_, i) => `<p>Paragraph ${i} of the page, with enough words, commas, and sentences to read like real prose. It keeps going for a while.</p>`).join('');
const page = (body: string, head = '<title>T</title>'): string => `<!doctype html><html><head>${head}</head><body>${body}</body></html>`;

describe('a product description from the structured data', () => {
  it('is added when the page hides it', () => {
    const ld = JSON.stringify({
      '@context': 'https://schema.org',
      '@type': 'Product',
      name: 'Trail Mug',
      description: '<h4>MADE FOR THE TRAIL.</h4><p>Hand-thrown stoneware that keeps coffee hot for an hour, glazed in small batches and fired twice for a finish that survives the dishwasher.</p>',
      offers: { '@type': 'Offer', price: '24.00', priceCurrency: 'USD' },
    });
    const visible = `<main><h1>Trail Mug</h1><span class="price">$24.00</span><button>Add to cart</button><p>Ships in two days from our workshop in Vermont, packed in recycled paper.</p></main>`;
    const html = page(`${visible}<div class="tab-panel" hidden><p>Loading…</p></div>`, `<title>Trail Mug</title><script type="application/ld+json">${ld}</script>`);
    const out = formatPage(html, opts('https://shop.example/products/trail-mug'));
    expect(out.metadata).toMatchObject({ pageType: 'product' });
    expect(out.page_text).toContain('Hand-thrown stoneware that keeps coffee hot');
    expect(out.page_text).toContain('MADE FOR THE TRAIL.');
    expect(out.markdown).toContain('Hand-thrown stoneware');
    expect(out.page_text).not.toContain('<p>');
  });

  it('is not repeated when the page shows it', () => {
    const description = 'Hand-thrown stoneware that keeps coffee hot for an hour, glazed in small batches and fired twice for a finish that survives the dishwasher.';
    const ld = JSON.stringify({ '@type': 'Product', name: 'Trail Mug', description });
    const html = page(`<main><h1>Trail Mug</h1><span class="price">$24.00</span><button>Add to cart</button><p>${description}</p></main>`, `<title>Trail Mug</title><script type="application/ld+json">${ld}</script>`);
    const out = formatPage(html, opts('https://shop.example/products/trail-mug'));
    expect(out.page_text?.split('Hand-thrown stoneware').length).toBe(2);
  });

  it('is decoded when the shop wrote it URL-encoded', () => {
    const description = 'An elegant sofa with a curved frame, deep seats and a linen cover that comes off for washing.|Made to order.';
    const ld = `<script type="application/ld+json">{"@type":"Product","name":"Atelier sofa","description":"${encodeURIComponent(description)}"}</script>`;
    const html = page(`<div class="pdp"><h1>Atelier sofa</h1>${para(1)}<span class="price">$2,400</span><button>Add to cart</button></div>`, `<title>Atelier sofa</title>${ld}`);
    const text = formatPage(html, opts('https://shop.example/product/atelier-sofa')).page_text ?? '';
    expect(text).toContain('An elegant sofa with a curved frame, deep seats');
    expect(text).not.toContain('%20');
  });
});
