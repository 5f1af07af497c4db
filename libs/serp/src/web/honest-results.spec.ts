import { describe, expect, it } from '@jest/globals';
import type { SearchPage, WebSearchResult } from '../types.js';
import { isRepeatedPage, looksUnrelated, queryTerms, repeatedPageReason, searchTokens } from './honest-results.js';

const result = (link: string, title = 'A page', snippet = ''): WebSearchResult => ({ title, link, date: null, snippet, source: '' });
const page = (links: string[]): SearchPage => ({ total_results: '', search_results: links.map((l) => result(l)), related_queries: [] });
const tenLinks = (from: number) => Array.from({ length: 10 }, (_, i) => `https://site${from + i}.example/p`);

describe('isRepeatedPage', () => {
  it('flags a page that says it starts earlier than the offset asked for (Bing "1-10 of" on first=11)', () => {
    expect(repeatedPageReason(undefined, { page: page(tenLinks(0)), pagination: { offset: 0 } }, 10)).toBe('offset');
    expect(isRepeatedPage(page(tenLinks(0)), { page: page(tenLinks(10)), pagination: { offset: 10 } }, 10)).toBe(false);
    // Bing's page 2 after a short page 1 starts at 7, not 11: less than half a page early is not a repeat.
    expect(isRepeatedPage(undefined, { page: page(tenLinks(10)), pagination: { offset: 6 } }, 10)).toBe(false);
  });

  it('flags a page whose links are >= 80 % those of the previous page, whatever its offset says', () => {
    const prev = page(tenLinks(0));
    const eightSame = [...tenLinks(0).slice(0, 8), ...tenLinks(50).slice(0, 2)];
    const sevenSame = [...tenLinks(0).slice(0, 7), ...tenLinks(50).slice(0, 3)];
    expect(repeatedPageReason(prev, { page: page(eightSame), pagination: { offset: null } }, 10)).toBe('same_links');
    expect(isRepeatedPage(prev, { page: page(sevenSame), pagination: { offset: null } }, 10)).toBe(false);
    // Links compared after normalisation (scheme, www, trailing slash).
    expect(isRepeatedPage(prev, { page: page(tenLinks(0).map((l) => l.replace('https://', 'http://www.') + '/')) }, 10)).toBe(true);
  });

  it('never flags page 1, or a page without results or predecessor', () => {
    expect(isRepeatedPage(undefined, { page: page(tenLinks(0)), pagination: { offset: 0 } }, 0)).toBe(false);
    expect(isRepeatedPage(page(tenLinks(0)), { pagination: { offset: null } }, 10)).toBe(false);
  });
});

describe('looksUnrelated', () => {
  const results = (...rs: WebSearchResult[]) => ({ search_results: rs });

  it('is true only when none of the top results shares a term with the query', () => {
    const cached = results(result('https://news.example/a', 'Weather tomorrow', 'Rain in the north'), result('https://shop.example/', 'Shoes sale'));
    expect(looksUnrelated('kubernetes operator tutorial', cached)).toBe(true);
    expect(looksUnrelated('kubernetes operator tutorial', results(...cached.search_results, result('https://x.example/', 'Operators explained')))).toBe(false);
  });

  it('matches terms in links and plural / compound forms, ignoring case and accents', () => {
    expect(looksUnrelated('coffee shop', results(result('https://www.coffeeshops.example/', 'Welcome')))).toBe(false);
    expect(looksUnrelated('Café Zürich', results(result('https://a.example/', 'Best cafe in zurich')))).toBe(false);
  });

  it('ignores stop words: "the" shared alone does not make a page related', () => {
    expect(looksUnrelated('the matrix', results(result('https://a.example/', 'The weather', 'the rain')))).toBe(true);
    // A query made only of stop words keeps them, and is judged on them.
    expect(looksUnrelated('the who', results(result('https://a.example/', 'The Who - band')))).toBe(false);
  });

  it('tokenises scripts without spaces into bigrams', () => {
    expect(searchTokens('東京の天気')).toEqual(expect.arrayContaining(['東京', '天気']));
    expect(looksUnrelated('東京 天気', results(result('https://tenki.example/', '東京の天気予報')))).toBe(false);
    expect(looksUnrelated('東京 天気', results(result('https://a.example/', '大阪のホテル')))).toBe(true);
    expect(looksUnrelated('москва', results(result('https://a.example/', 'Погода в Москве')))).toBe(false);
    // A query in a script no result uses is a translation case, not judged.
    expect(looksUnrelated('東京 天気', results(result('https://a.example/', 'Tokyo weather')))).toBe(false);
    expect(looksUnrelated('42 7', results(result('https://a.example/', 'Shoes')))).toBe(true);
  });

  it('is conservative: no verdict without query terms or results, and only the top results are read', () => {
    expect(queryTerms('!!! ???')).toEqual([]);
    expect(looksUnrelated('!!!', results(result('https://a.example/', 'x')))).toBe(false);
    expect(looksUnrelated('rust', results())).toBe(false);
    const unrelated = Array.from({ length: 10 }, (_, i) => result(`https://u${i}.example/`, 'Shoes'));
    expect(looksUnrelated('rust', results(...unrelated, result('https://rust.example/', 'Rust')))).toBe(true);
  });
});
