/**
 * `/search` page objects on the real-page corpus (../shared/corpus/serp/bing, duckduckgo), figures pinned: the Bing
 * reference match, every DuckDuckGo organic result, the blocks each page shows, pagination facts, verdicts, and the
 * honest-result checks on real pages. Skipped, with a message, when the corpus is absent.
 */
import { describe, expect, it } from '@jest/globals';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseBingSearchPage } from '#serp/bing/bing-provider.js';
import { bingReferenceCases, corpusRoot, DUCKDUCKGO_PINNED_COUNTS, readPage, VERDICT_CASES } from '#bench/serp/conformance/corpus.js';
import { corpusPresent } from '#test/support/requires.js';
import { scoreReferenceCase } from '#bench/serp/conformance/reference-score.js';
import { parseDuckDuckGoSearchPage } from '#serp/duckduckgo/duckduckgo-provider.js';
import { isRepeatedPage, looksUnrelated, repeatedPageReason } from '#serp/web/honest-results.js';
import { bingReferenceFigures } from '#bench/serp/conformance/search-figures.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const root = corpusPresent(path.resolve(repoRoot, '../shared/corpus/serp'), '/search corpus figures') ? corpusRoot(repoRoot) : null;
const describeCorpus = root ? describe : describe.skip;
const corpus = root ?? '';
const bing = (rel: string) => parseBingSearchPage(readPage(path.join(corpus, 'bing', rel)), { page: 1 });
const ddg = (rel: string) => parseDuckDuckGoSearchPage(readPage(path.join(corpus, 'duckduckgo', rel)), { page: 1 });

/** Per Bing page: results, related queries, people-also-ask, knowledge-panel title, offset shown. */
const BING_PINNED: Record<string, [number, number, number, string | null, number]> = {
  'NikolaiT-GoogleScraper/html/bing__page_number_selector__bing_5.html.gz': [10, 8, 0, null, 40],
  'NikolaiT-GoogleScraper/html/bing__csv_tests__8d42d88f9360553c.html.gz': [10, 0, 0, null, 10],
  'NikolaiT-se-scraper/html/test_keyword_page1.html.gz': [6, 8, 0, null, 0],
  'NikolaiT-se-scraper/html/test_keyword_page2.html.gz': [10, 8, 0, null, 6],
  'NikolaiT-se-scraper/html/test_keyword_page3.html.gz': [10, 8, 0, null, 16],
  'bisohns-search-engine-parser/html/bing__bing-Hello-synopsis__fbc376e.html.gz': [9, 8, 4, 'Hello!', 0],
  'bisohns-search-engine-parser/html/bing__bing-synopsis__3e39d1a.html.gz': [10, 5, 0, 'Preaching to the Choir', 0],
  'bisohns-search-engine-parser/html/bing__bing-synopsis__40fb138.html.gz': [10, 0, 0, null, 0],
  'zlurad-serp-parser/nojs-2021/html/bing-nojs.html.gz': [10, 0, 0, 'Bing', 0],
  'zlurad-serp-parser/nojs-2021/html/bing50-nojs.html.gz': [32, 0, 0, 'Bing', 0],
  'zlurad-serp-parser/nojs-2021/html/coffee-nojs.html.gz': [4, 8, 4, 'Coffee', 0],
  'zlurad-serp-parser/nojs-2021/html/domain-nojs.html.gz': [4, 8, 0, 'Domain Group', 0],
  'zlurad-serp-parser/nojs-2021/html/hotels-nojs.html.gz': [4, 0, 4, 'Hotels Nyc', 0],
  'zlurad-serp-parser/nojs-2021/html/matrix-nojs.html.gz': [5, 8, 0, 'The Matrix', 0],
};

/** The query as the page's own search box shows it. */
const queryOf = (html: string) => /<input[^>]*name="q"[^>]*value="([^"]*)"/i.exec(html)?.[1];

describeCorpus('/search page objects on the corpus', () => {
  it('Bing: every reference organic result (title + link, in order), 59 of 59; with snippets too', () => {
    const f = bingReferenceFigures(corpus);
    expect(f.total).toBe(59);
    expect(f.titleLink).toBe(59);
    expect(f.withSnippet).toBe(59);
    expect(f.titleLink / f.total).toBeGreaterThanOrEqual(0.98);
    for (const c of bingReferenceCases(corpus)) expect({ name: c.name, refAds: scoreReferenceCase(c, 'bing')?.refAds ?? 0 }).toEqual({ name: c.name, refAds: 0 });
  });

  it('Bing: results, related searches, people-also-ask, panel and offset per page (pinned); no ad links', () => {
    for (const [rel, [n, related, qa, sidebar, offset]] of Object.entries(BING_PINNED)) {
      const { verdict, page, pagination } = bing(rel);
      expect({ rel, kind: verdict.kind, n: page?.search_results.length, related: page?.related_queries.length, qa: page?.questions_answers?.length ?? 0,
        sidebar: page?.sidebar?.title ?? null, offset: pagination.offset, next: pagination.hasNext })
        .toEqual({ rel, kind: 'ok', n, related, qa, sidebar, offset, next: true });
      expect(page?.search_results.every((r) => r.title && /^https?:\/\//.test(r.link) && !/bing\.com\/aclick/.test(r.link) && r.source)).toBe(true);
      expect(page?.total_results).toMatch(/\d/);
    }
    const coffee = bing('zlurad-serp-parser/nojs-2021/html/coffee-nojs.html.gz').page;
    expect(coffee?.questions_answers?.[0]).toEqual(expect.objectContaining({ question: 'What is coffee coffee?', link: 'https://en.wikipedia.org/wiki/coffee_(drink)' }));
    expect(coffee?.sidebar).toEqual(expect.objectContaining({ type: 'Drink', link: 'http://en.wikipedia.org/wiki/Coffee', source: 'Wikipedia' }));
  });

  it('Bing: the local pack as sidebar.local_results, names and ratings as in the reference parse', () => {
    const ref = JSON.parse(readPage(path.join(corpus, 'bing/zlurad-serp-parser/nojs-2021/reference-parse/hotels-nojs.serp-parser-HEAD-70dafd8.json'))) as {
      hotels: { hotels: Array<{ name: string; rating: number }> };
    };
    const local = bing('zlurad-serp-parser/nojs-2021/html/hotels-nojs.html.gz').page?.sidebar?.local_results ?? [];
    expect(local.map((p) => [p.title, Number(p.rating)])).toEqual(ref.hotels.hotels.map((h) => [h.name, h.rating]));
    expect(local[0].address).toBe('226 W 52nd St, New York, NY 10019');
  });

  it('DuckDuckGo: every page with all its organic results (hand-counted), blocks and pagination', () => {
    let results = 0;
    for (const [rel, count] of Object.entries(DUCKDUCKGO_PINNED_COUNTS)) {
      const { verdict, page, pagination } = ddg(rel);
      expect({ rel, kind: verdict.kind, count: page?.search_results.length, offset: pagination.offset, next: pagination.hasNext })
        .toEqual({ rel, kind: 'ok', count, offset: 0, next: true });
      expect(page?.search_results.every((r) => r.title && /^https?:\/\//.test(r.link) && !/duckduckgo\.com\/y\.js/.test(r.link))).toBe(true);
      results += count;
    }
    expect(results).toBe(242);
    expect(ddg('NikolaiT-GoogleScraper/html/duckduckgo__csv_tests__2a30ac724331dbfd.html.gz').page?.direct_answer)
      .toEqual(expect.objectContaining({ snippet: 'Some Words', source: 'MetroLyrics', link: 'http://www.metrolyrics.com/some-words-lyrics-brian-eno' }));
    expect(ddg('NikolaiT-se-scraper/html/test_keyword_page1.html.gz').page?.sidebar)
      .toEqual(expect.objectContaining({ title: 'npm-test', type: 'NPM CLI', link: 'https://docs.npmjs.com/cli/test' }));
    expect(ddg('bisohns-search-engine-parser/html/duckduckgo__duckduckgo-Hello-synopsis__fbc376e.html.gz').pagination.nextParams)
      .toEqual(expect.objectContaining({ q: 'Hello', s: '28', dc: '29', kl: 'wt-wt' }));
  });

  it('no-results and block pages keep their verdict through parseSearchPage', () => {
    for (const c of VERDICT_CASES.filter((v) => v.engine !== 'google')) {
      const html = readPage(path.join(corpus, c.file));
      const { verdict } = c.engine === 'bing' ? parseBingSearchPage(html, { page: 1 }) : parseDuckDuckGoSearchPage(html, { page: 1 });
      expect({ file: c.file, kind: verdict.kind }).toEqual({ file: c.file, kind: c.expect });
    }
  });

  it('honest results: no real page looks unrelated to its own query; Bing\'s substitute page for gibberish does', () => {
    const pages = [
      ...Object.keys(BING_PINNED).map((rel) => ({ html: readPage(path.join(corpus, 'bing', rel)), parse: parseBingSearchPage })),
      ...Object.keys(DUCKDUCKGO_PINNED_COUNTS).map((rel) => ({ html: readPage(path.join(corpus, 'duckduckgo', rel)), parse: parseDuckDuckGoSearchPage })),
    ];
    let judged = 0;
    for (const p of pages) {
      const q = queryOf(p.html);
      const page = p.parse(p.html, { page: 1 }).page;
      if (!q || !page) continue;
      judged++;
      expect({ q, unrelated: looksUnrelated(q, page) }).toEqual({ q, unrelated: false });
    }
    expect(judged).toBeGreaterThanOrEqual(16);
    const gibberish = bing('NikolaiT-GoogleScraper/html/bing__no_results__878f87bae36d3ff5.html.gz');
    expect(looksUnrelated('asdfasdfa7654567654345654343sdfasd', gibberish.page ?? { search_results: [] })).toBe(true);
    // Another query's page is unrelated to "kubernetes operator".
    expect(looksUnrelated('kubernetes operator', bing('zlurad-serp-parser/nojs-2021/html/coffee-nojs.html.gz').page ?? { search_results: [] })).toBe(true);
  });

  it('honest results: page 2 is page 2 (offset shown = asked), page 1 served for page 2 is a repeat', () => {
    const p1 = bing('NikolaiT-se-scraper/html/test_keyword_page1.html.gz');
    const p2 = bing('NikolaiT-se-scraper/html/test_keyword_page2.html.gz');
    expect(isRepeatedPage(p1.page, p2, 6)).toBe(false);
    expect(repeatedPageReason(p1.page, p1, 10)).toBe('offset');
    expect(repeatedPageReason(p1.page, { page: p1.page, pagination: { offset: null } }, 10)).toBe('same_links');
  });
});
