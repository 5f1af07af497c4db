import { describe, expect, it } from '@jest/globals';
import { formatPage } from '../index.js';

const sentence = (i: number): string => `Sentence ${i} describes the product in plain words, with commas, detail, and care.`;
const prose = (n: number): string => Array.from({ length: n }, (_, i) => `<p>${sentence(i)} ${sentence(i + 100)} ${sentence(i + 200)}</p>`).join('');

describe('an article-declared page whose pick is a sliver of the page', () => {
  it('widens to the <main> region: a hub page with an intro and many entries', () => {
    const entries = `<ul>${Array.from({ length: 100 }, (_, i) => `<li><a href="/e/${i}">Entry number ${i} of the hub</a> <span>note ${i}</span></li>`).join('')}</ul>`;
    const ld = '<script type="application/ld+json">{"@type":"Article","datePublished":"2025-01-01"}</script>';
    const html = `<html><head><title>Hub</title>${ld}</head><body><main><div class="intro">${prose(1)}</div><div class="list">${entries}</div></main></body></html>`;
    const out = formatPage(html, { url: 'https://site.example/hub', formats: { raw_html: false, enhanced_html: false, markdown: false, page_text: true } });
    expect(out.page_text).toContain('Sentence 0 describes');
    expect(out.page_text).toContain('Entry number 99 of the hub');
  });
});

describe('a service page whose offers are a list', () => {
  it('widens to the list of offers in its declared <main> region', () => {
    const offers = `<ul>${Array.from({ length: 24 }, (_, i) => `<li><strong>Offer ${i}</strong> covers planning, delivery and support for teams of ${i + 2}</li>`).join('')}</ul>`;
    const html = `<html><head><title>Services</title></head><body><main><div class="intro">${prose(1)}</div><div class="offers">${offers}</div></main></body></html>`;
    const out = formatPage(html, { url: 'https://site.example/services', formats: { raw_html: false, enhanced_html: false, markdown: false, page_text: true } });
    expect(out.metadata).toMatchObject({ pageType: 'service' });
    expect(out.page_text).toContain('Offer 23 covers planning');
  });
});

describe('a service page with a declared <main> region', () => {
  const TEXT = { raw_html: false, enhanced_html: false, markdown: false, page_text: true };
  const card = (i: number): string => `<div class="tile"><h3>Feature ${i}</h3><span>Feature ${i} ships with setup help and support for teams</span></div>`;
  const hero = `<div class="hero"><div class="hero-copy"><p>${sentence(1)} ${sentence(2)} ${sentence(3)}</p></div></div>`;
  const html = (main: string): string => `<html><head><title>Platform</title></head><body><header><a href="/">Home</a></header>${main}<div class="site-end"><p>${sentence(9)}</p></div></body></html>`;

  it('widens to the region when the pick is a blurb beside its sections', () => {
    const sections = Array.from({ length: 2 }, (_, s) => `<section class="band"><h2>Band ${s}</h2><div class="grid">${[0, 1, 2].map((i) => card(s * 3 + i)).join('')}</div></section>`).join('');
    const out = formatPage(html(`<main>${hero}${sections}</main>`), { url: 'https://platform.example/', formats: TEXT });
    expect(out.metadata).toMatchObject({ pageType: 'service' });
    expect(out.page_text).toContain('Sentence 1 describes');
    expect(out.page_text).toContain('Feature 5 ships with setup help');
  });

  it('widens a listing the same way', () => {
    const sections = Array.from({ length: 2 }, (_, s) => `<section class="band"><h2>Band ${s}</h2><div class="grid">${[0, 1, 2].map((i) => card(s * 3 + i)).join('')}</div></section>`).join('');
    const ld = '<script type="application/ld+json">{"@type":"CollectionPage"}</script>';
    const out = formatPage(html(`<main>${hero}${sections}</main>`).replace('</title>', `</title>${ld}`), { url: 'https://platform.example/features', formats: TEXT });
    expect(out.metadata).toMatchObject({ pageType: 'listing' });
    expect(out.page_text).toContain('Feature 5 ships with setup help');
  });
});

describe('a service page spread over sections under their own headings', () => {
  const TEXT = { raw_html: false, enhanced_html: false, markdown: false, page_text: true };
  // No <main>, no metadata: the pick is the longest section, a bit over a third of the page.
  const band = (s: number, paragraphs: number): string =>
    `<div class="section"><div class="container"><h2>Band ${s} heading</h2>${Array.from({ length: paragraphs }, (_, i) => `<p>Band ${s} paragraph ${i}: ${sentence(s * 10 + i)}</p>`).join('')}</div></div>`;
  const page = (rest: string): string =>
    `<html><head><title>Platform</title></head><body><div class="wrap"><div class="section"><div class="container"><h2>Why us</h2><div class="copy">${prose(4)}</div></div></div>${rest}</div></body></html>`;

  it('widens to the sections beside the pick', () => {
    const out = formatPage(page([1, 2, 3].map((s) => band(s, 4)).join('')), { url: 'https://platform.example/', formats: TEXT });
    expect(out.metadata).toMatchObject({ pageType: 'service' });
    expect(out.page_text).toContain('Sentence 0 describes');
    expect(out.page_text).toContain('Band 3 paragraph 3');
  });

  it('keeps the pick when what is beside it is links', () => {
    const links = [1, 2, 3].map((s) => `<div class="more"><h3>More ${s}</h3><ul>${Array.from({ length: 10 }, (_, i) => `<li><a href="/m/${s}/${i}">Further reading number ${i} of group ${s} here</a></li>`).join('')}</ul></div>`).join('');
    const out = formatPage(page(links), { url: 'https://platform.example/', formats: TEXT });
    expect(out.page_text).toContain('Sentence 0 describes');
    expect(out.page_text).not.toContain('Further reading number 9 of group 3');
  });
});

describe('a listing whose pick is its featured entry', () => {
  it('widens to the page when the pick holds less than half of it', () => {
    const TEXT = { raw_html: false, enhanced_html: false, markdown: false, page_text: true };
    const ld = '<script type="application/ld+json">{"@type":"CollectionPage"}</script>';
    const cards = Array.from({ length: 30 }, (_, i) => `<article class="card"><h3><a href="/story/${i}">Story number ${i} of the section feed</a></h3><span>Region ${i}</span></article>`).join('');
    const html = `<html><head><title>Economy</title>${ld}</head><body><div class="featured">${prose(5)}</div><div class="feed">${cards}</div></body></html>`;
    const out = formatPage(html, { url: 'https://news.example/economy/', formats: TEXT });
    expect(out.metadata).toMatchObject({ pageType: 'listing' });
    expect(out.page_text).toContain('Sentence 0 describes');
    expect(out.page_text).toContain('Story number 29 of the section feed');
  });
});

describe('a product page whose pick is the description its JSON-LD declares', () => {
  it('keeps the pick: the buy box and notes around it in <main> are not the product text', () => {
    const description = [0, 1, 2].map((i) => `${sentence(i)} ${sentence(i + 100)} ${sentence(i + 200)}`).join('\n\n');
    const ld = `<script type="application/ld+json">${JSON.stringify({ '@type': 'Product', name: 'Trail Mug', description })}</script>`;
    const notes = `<ul class="perks">${Array.from({ length: 16 }, (_, i) => `<li>Perk ${i}: free returns in thirty days</li>`).join('')}</ul>`;
    const html = `<html><head><title>Trail Mug</title>${ld}</head><body><main><h1>Trail Mug</h1><div class="buy"><span class="price">$24.00</span><button>Add to cart</button>${notes}</div><div class="description">${prose(3)}</div></main></body></html>`;
    const out = formatPage(html, { url: 'https://shop.example/products/trail-mug', formats: { raw_html: false, enhanced_html: false, markdown: false, page_text: true } });
    expect(out.metadata).toMatchObject({ pageType: 'product' });
    expect(out.page_text).toContain('Sentence 202 describes');
    expect(out.page_text).not.toContain('Perk 7');
  });
});

describe('a documentation page with a declared <main> region', () => {
  it('widens to the region when the pick leaves out a section of it: a reference table under its own heading', () => {
    const rows = Array.from({ length: 8 }, (_, i) => `<tr><td>option_${i}</td><td>string</td><td>sets part ${i}</td></tr>`).join('');
    const html = `<html><head><title>Resource block</title></head><body><nav><a href="/docs/a">Docs A</a></nav><main><div class="docs-body">${prose(8)}</div><section><h2>Arguments</h2><table>${rows}</table></section></main></body></html>`;
    const out = formatPage(html, { url: 'https://docs.example/resource', pageType: 'documentation', formats: { raw_html: false, enhanced_html: false, markdown: false, page_text: true } });
    expect(out.page_text).toContain('Sentence 7 describes');
    expect(out.page_text).toContain('option_7');
  });
});
