import { describe, expect, it } from '@jest/globals';
import { findFirst, parseHtml } from '../dom.js';
import { isFeatureItem } from './feature-items.js';
import { formatPage } from '../index.js';

const TEXT = { raw_html: false, enhanced_html: false, markdown: false, page_text: true };
const li = (html: string): NonNullable<ReturnType<typeof findFirst>> => {
  const found = findFirst(parseHtml(`<ul>${html}</ul>`), (e) => e.name === 'li');
  if (!found) throw new Error('no li');
  return found;
};

describe('isFeatureItem', () => {
  it('holds for an item with its own heading and a line of plain text', () => {
    expect(isFeatureItem(li('<li><h3>Backups</h3><p>Get peace of mind with your data kept offline</p></li>'))).toBe(true);
  });
  it('fails for an item without a heading', () => {
    expect(isFeatureItem(li('<li>Backups: get peace of mind with your data kept offline</li>'))).toBe(false);
  });
  it('fails for a teaser whose heading and text are links', () => {
    expect(isFeatureItem(li('<li><h3><a href="/a">A story about backups and data</a></h3><a href="/a">Read more</a></li>'))).toBe(false);
  });
});

describe('a service page whose sections are grids of feature cards', () => {
  // No <main>, no metadata: bands of feature cards written as list items; the pick is the largest band.
  const card = (b: number, i: number): string =>
    `<li class="feature"><h3>Feature ${b}-${i}</h3><p>Feature ${b}-${i} keeps every project on track for the whole team</p></li>`;
  const band = (b: number, cards: number): string =>
    `<div class="band"><div class="inner"><h2>Band ${b} of the tour</h2><ul class="features">${Array.from({ length: cards }, (_, i) => card(b, i)).join('')}</ul></div></div>`;
  const html = `<html><head><title>Planner</title></head><body><div class="hero"><h1>Planner</h1></div>${band(1, 6)}${band(2, 6)}${band(3, 9)}</body></html>`;

  it('widens to all the bands', () => {
    const out = formatPage(html, { url: 'https://planner.example/', formats: TEXT });
    expect(out.metadata).toMatchObject({ pageType: 'service' });
    expect(out.page_text).toContain('Feature 3-8 keeps every project');
    expect(out.page_text).toContain('Feature 1-0 keeps every project');
  });
});
