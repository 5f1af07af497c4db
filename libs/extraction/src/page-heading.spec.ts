import { describe, expect, it } from '@jest/globals';
import { bodyOf, parseHtml, textContent } from './dom.js';
import { cleanDocument } from './clean.js';

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
