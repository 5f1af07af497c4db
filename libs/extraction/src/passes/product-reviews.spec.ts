import { describe, expect, it } from '@jest/globals';
import { bodyOf, parseHtml, textContent } from '../dom.js';
import { formatPage } from '../index.js';
import { removeProductReviews } from './product-reviews.js';

const TEXT = { raw_html: false, enhanced_html: false, markdown: false, page_text: true };
const sentence = (i: number, what: string): string => `${what} sentence ${i}, written with commas, detail, and enough words to read as prose.`;
const block = (n: number, what: string): string => Array.from({ length: n }, (_, i) => `<p>${sentence(i, what)} ${sentence(i + 50, what)}</p>`).join('');
const ld = (type: string): string => `<script type="application/ld+json">{"@context":"https://schema.org","@type":"${type}","name":"Trail pack"}</script>`;
const page = (type: string): string =>
  `<html><head><title>Trail pack</title>${ld(type)}</head><body><main><h1>Trail pack</h1><div class="product-description">${block(3, 'Description')}<span class="price">$99</span><button>Add to cart</button></div>` +
  `<section id="reviews-section"><h2>Customer reviews</h2>${Array.from({ length: 6 }, (_, i) => `<div class="bv-content-review">${block(1, `Review ${i}`)}</div>`).join('')}</section></main></body></html>`;

describe('customer reviews on a product page', () => {
  it('are left out of the product content', () => {
    const out = formatPage(page('Product'), { url: 'https://shop.example/product/trail-pack', formats: TEXT }).page_text ?? '';
    expect(out).toContain('Description sentence 2');
    expect(out).not.toContain('Review 3 sentence');
  });

  it('are left out when a widget that does not name them prints them as dated cards', () => {
    const card = (i: number): string => `<div class="w-card"><a href="https://maps.example/u/${i}">Reviewer ${i}</a><div class="w-when">${i + 2} months ago</div><div class="w-body">Reviewer ${i} loved the pack and the service.</div></div>`;
    const doc = parseHtml(`<body><div class="product-description">${block(3, 'Description')}</div><div class="w-cards">${[1, 2, 3, 4].map(card).join('')}</div></body>`);
    removeProductReviews([bodyOf(doc)]);
    const text = textContent(bodyOf(doc));
    expect(text).toContain('Description sentence 2');
    expect(text).not.toContain('loved the pack');
  });

  it('stay on an article, where "review" names the article itself', () => {
    const html = `<html><head><title>T</title>${ld('Review')}</head><body><article class="review">${block(6, 'Critic')}</article></body></html>`;
    const out = formatPage(html, { url: 'https://mag.example/2025/01/02/trail-pack-review', formats: TEXT }).page_text ?? '';
    expect(out).toContain('Critic sentence 5');
  });
});

describe('customer reviews on a shop category page', () => {
  const tile = (i: number): string =>
    `<li class="tile"><a href="/p/mat-${i}"><img src="/m${i}.jpg" alt=""><h3>Floor mat ${i}</h3></a><span class="price">$${40 + i}.00</span>` +
    `<div class="tile-rating">${i + 3} reviews</div><div class="tile-reviews"><p>Quoted buyer ${i} found the mat thick, quiet and easy to clean.</p></div></li>`;
  const html = `<html><head><title>Floor mats</title></head><body><main><h1>Floor mats</h1><ul class="grid">${Array.from({ length: 8 }, (_, i) => tile(i)).join('')}</ul>` +
    `<section class="reviews-section"><h2>What buyers say</h2>${Array.from({ length: 3 }, (_, i) => `<div class="review"><b>Buyer ${i}</b><p>Shop review ${i}: great mats.</p></div>`).join('')}</section></main></body></html>`;
  const out = formatPage(html, { url: 'https://shop.example/c/floor-mats', formats: TEXT, pageType: 'collection' }).page_text ?? '';

  it('are left out beside the grid', () => {
    expect(out).toContain('Floor mat 7');
    expect(out).not.toContain('Shop review 2');
  });

  it('leave a tile its review quote, not its rating line', () => {
    expect(out).toContain('Quoted buyer 5 found the mat');
    expect(out).not.toContain('8 reviews');
  });
});
