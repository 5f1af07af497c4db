import { describe, expect, it } from '@jest/globals';
import { classifyPage, pageSignals } from './page-type.js';
import { parseHtml } from '../dom.js';

const sentence = (i: number): string => `Sentence ${i} explains how the platform builds an app, with commas, detail, and care.`;
const typeOf = (ld: string, url: string): string => {
  const html = `<html><head><script type="application/ld+json">${ld}</script></head><body><h1>Overview</h1>${[1, 2, 3].map((i) => `<p>${sentence(i)} ${sentence(i + 10)}</p>`).join('')}</body></html>`;
  return classifyPage(pageSignals(parseHtml(html), url));
};

describe('an Article declared on a documentation site', () => {
  it('is documentation when it carries no publication date', () => {
    expect(typeOf('{"@type":"Article","headline":"Overview"}', 'https://developer.platform.example/get-started/overview')).toBe('documentation');
  });
  it('stays an article when it is dated (a docs site\'s blog post)', () => {
    expect(typeOf('{"@type":"Article","headline":"Overview","datePublished":"2025-01-01"}', 'https://developer.platform.example/get-started/overview')).toBe('article');
  });
});
