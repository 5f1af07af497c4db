import { describe, expect, it } from '@jest/globals';
import { bodyOf, parseHtml, textContent } from './dom.js';
import { cleanDocument } from './clean/clean.js';
import { formatPage } from './index.js';

const body = `<main>${Array.from({ length: 6 }, (_, i) => `<p>Paragraph ${i} of the page says what the service does, for whom, and at what price.</p>`).join('')}</main>`;
const cleaned = (html: string): string => {
  const doc = parseHtml(`<html><head><title>T</title></head><body>${html}</body></html>`);
  cleanDocument(doc, { url: 'https://site.example/', aggressive: true });
  return textContent(bodyOf(doc)).replace(/\s+/g, ' ').trim();
};

describe('a block named like chrome that holds the page heading', () => {
  it('is kept when its text has few links: the hero', () => {
    const out = cleaned(`<div class="hero-banner"><h1>Cloud backups for small firms</h1><p>Every file, every night, restored in minutes</p></div>${body}`);
    expect(out).toContain('Cloud backups for small firms');
    expect(out).toContain('restored in minutes');
  });
  it('is dropped when it is links around a heading: the site header', () => {
    const out = cleaned(`<div class="banner"><h1><a href="/">Brand</a></h1><a href="/a">Products and services</a> <a href="/b">Pricing plans</a></div>${body}`);
    expect(out).not.toContain('Pricing plans');
  });
});

describe('the block right before the article that holds the page heading', () => {
  it('is taken with the article, however long its lead: the title block of a reference page', () => {
    const code = Array.from({ length: 40 }, (_, i) => `const value${i} = widget.call("option-${i}");`).join('\n');
    const lead = `<p>The Widget API lets a page ask the service for widgets, change them, and remove them.</p>\n<p>It replaces the older gadget calls.</p><pre><code>${code}</code></pre>`;
    const sections = Array.from({ length: 30 }, (_, s) =>
      `<section><h2>Topic ${s}</h2>${Array.from({ length: 4 }, (_, i) => `<p>Topic ${s} paragraph ${i} walks through a call, its options, its errors, and its result.</p>`).join('')}</section>`,
    ).join('');
    const html = `<html><head><title>Widget API</title></head><body><main><div class="page-top"><h1>Widget API</h1><section>${lead}</section></div><div class="page-body">${sections}</div></main></body></html>`;
    const out = formatPage(html, { url: 'https://docs.example/widget', formats: { raw_html: false, enhanced_html: false, markdown: false, page_text: true } });
    expect(out.page_text).toContain('Topic 29 paragraph 3');
    expect(out.page_text).toContain('lets a page ask the service');
  });
});
