/**
 * Specification conformance, `GET /search` (spec §4.1, §2.1, §8, §9): each parameter absent, at its default, at each
 * value the spec names and empty, against the real gateway and workers with a Bing-markup upstream on 127.0.0.1
 * whose results point at a fixture site.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { bingPage } from '#bench/support/bing-fixture.js';
import { ARTICLE, startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { key, startHarness, type Harness } from '../support/harness.js';
import { startRecordingProxy, type RecordingProxy } from '../support/recording-proxy.js';
import { expectEach, expectError, expectShape } from './support/shape.js';
import { COST, PAGE_CONTENT, SEARCH_PAGE, SEARCH_PARAMS, SEARCH_RESPONSE, SEARCH_RESULT } from './support/spec.js';

let trawl: Harness;
let engine: FixtureServer;
let site: FixtureServer;
let proxy: RecordingProxy;
let apiKey: string;
let accountId: string;

async function search(query: string) {
  const before = (await trawl.admin.report(accountId)).account.balance;
  const res = await trawl.get(`/search?${query}`, key(apiKey));
  const after = (await trawl.admin.report(accountId)).account.balance;
  return { ...res, charged: before - after };
}

/** Every §2.1 rule a successful answer follows; `pages` credits are 10 per page fetched. */
function expectSearchAnswer(res: { status: number; body: any; charged: number }, pages = 1) {
  expect(res.status).toBe(200);
  expectShape(res.body, SEARCH_RESPONSE);
  expect(Object.keys(res.body.pages)).toEqual(Array.from({ length: pages }, (_, i) => String(i + 1)));
  expect(res.body.pages_fetched).toBe(pages);
  for (const [n, page] of Object.entries(res.body.pages)) {
    expectShape(page, SEARCH_PAGE, `pages.${n}`);
    expectEach((page as any).search_results, SEARCH_RESULT, `pages.${n}.search_results`);
    if ((page as any).related_queries) expect((page as any).related_queries.every((q: unknown) => typeof q === 'string')).toBe(true);
    if ((page as any).page_content) expectShape((page as any).page_content, PAGE_CONTENT, `pages.${n}.page_content`);
  }
  expect(res.body.credits).toBe(res.charged);
}

beforeAll(async () => {
  site = await startFixtureServer({ '/article': (_req, res) => void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(ARTICLE) });
  engine = await startFixtureServer({
    '/search': (req, res) => {
      const params = new URL(req.url!, 'http://x').searchParams;
      const page = Math.floor((Number(params.get('first') ?? 1) - 1) / 10) + 1;
      const results = Array.from({ length: 3 }, (_, i) => ({ title: `Trawling ${page}.${i}`, link: `${site.url}/article?r=${page}.${i}`, snippet: 'Trawling is a method of fishing.' }));
      const body = bingPage({ query: params.get('q') ?? '', offset: (page - 1) * 10, hasNext: page < 3, blocks: true, results });
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body);
    },
  });
  proxy = await startRecordingProxy();
  trawl = await startHarness({ SEARCH_ENGINE: 'bing', BING_BASE_URL: engine.url, PROXIES: `de=${proxy.url},gb=${proxy.url},us=${proxy.url}` });
  ({ apiKey, accountId } = await trawl.createAccount('pro'));
});

afterAll(async () => {
  await trawl?.close();
  await engine?.close();
  await site?.close();
  await proxy?.close();
});

describe('/search with only its required parameter (§4.1)', () => {
  it('answers 200 with §2.1 fields, one page, 10 credits; no page_content by default (§9: enhanced_html and markdown default to false)', async () => {
    const res = await search('query=deep+sea+trawling');
    expectSearchAnswer(res);
    expect(res.body.query).toBe('deep sea trawling');
    expect(res.body.pages['1']).not.toHaveProperty('page_content');
    expect(res.body.pages['1'].related_queries.length).toBeGreaterThan(0);
    expect(res.charged).toBe(COST.searchPage);
  });

  it('missing query is a 400 in the §7 error shape, charged nothing', async () => {
    const res = await search('');
    expectError(res, 400);
    expect(res.body.error.message).toMatch(/query/);
    expect(res.charged).toBe(0);
  });

  it('count, sent by the spec\'s sample requests, is accepted', async () => {
    expectSearchAnswer(await search('query=trawling&count=10'));
  });
});

describe('/search max_pages (integer, default 1): 10 credits per result page fetched', () => {
  it.each([
    ['absent', '', 1],
    ['at its default (1)', '&max_pages=1', 1],
    ['empty (means the default)', '&max_pages=', 1],
    ['2', '&max_pages=2', 2],
  ])('%s (%s): %i page(s)', async (_what, extra, pages) => {
    const res = await search(`query=trawling${extra}`);
    expectSearchAnswer(res, pages);
    expect(res.charged).toBe(pages * COST.searchPage);
  });
});

describe.each(SEARCH_PARAMS.filter((row) => row.type === 'string' && row.values && row.name !== 'geolocation'))('/search $name', (row) => {
  const values = [...(row.values ?? []), ...(row.default ? [''] : [])];
  it.each(values)(`${row.name}=%s: 200, §2.1 fields, 10 credits`, async (value) => {
    const res = await search(`query=trawling&${row.name}=${value}`);
    expectSearchAnswer(res);
    expect(res.charged).toBe(COST.searchPage);
  });
});

describe('/search geolocation', () => {
  it.each(['de', 'GB'])('a country code (%s): 200 through a proxy of that country', async (code) => {
    const carried = proxy.carried.length;
    const res = await search(`query=trawling&geolocation=${code}`);
    expectSearchAnswer(res);
    expect(proxy.carried.length).toBeGreaterThan(carried);
  });

  it('random ("gives randomized geolocation"): 200, 10 credits', async () => {
    const res = await search('query=trawling&geolocation=random');
    expectSearchAnswer(res);
    expect(res.charged).toBe(COST.searchPage);
  });
  // On a fresh install (no proxies at all) random works too: test/geolocation-fresh-install.e2e.spec.ts.
});

/** The enrichment toggles (default true): Trawl's blocks for them are named after the toggles (docs/api.md). */
const TOGGLES = SEARCH_PARAMS.filter((row) => row.type === 'boolean' && row.default === 'true').map((row) => row.name);

describe.each(TOGGLES)('/search %s (boolean, default true)', (toggle) => {
  it.each([
    ['absent', '', true],
    ['at its default (true)', `&${toggle}=true`, true],
    ['empty (means the default)', `&${toggle}=`, true],
    ['false: that enrichment is disabled (§4.1 rule 3)', `&${toggle}=false`, false],
  ])('%s', async (_what, extra, present) => {
    const res = await search(`query=trawling${extra}`);
    expectSearchAnswer(res);
    if (present) expect(res.body.pages['1']).toHaveProperty(toggle);
    else expect(res.body.pages['1']).not.toHaveProperty(toggle);
  });
});

describe('/search content formats (boolean, default false; §4.1 rule 2)', () => {
  it.each([
    ['enhanced_html', 'enhanced_html'],
    ['markdown', 'page_markdown'],
  ])('%s=true gives page_content.%s (a string)', async (flag, field) => {
    const res = await search(`query=trawling&${flag}=true`);
    expectSearchAnswer(res);
    expect(typeof res.body.pages['1'].page_content[field]).toBe('string');
  });

  it.each(['raw_html', 'page_text', 'enhanced_html', 'markdown'])('%s at its default, false or empty: no page_content', async (flag) => {
    for (const value of ['false', '']) {
      const res = await search(`query=trawling&${flag}=${value}`);
      expectSearchAnswer(res);
      expect(res.body.pages['1']).not.toHaveProperty('page_content');
    }
  });

  it('auto_crawling=true crawls each result; credits as charged (10 per page plus the crawls)', async () => {
    const res = await search('query=trawling&auto_crawling=true&markdown=true');
    expectSearchAnswer(res);
    expect(res.body.credits).toBeGreaterThanOrEqual(COST.searchPage);
    for (const result of res.body.pages['1'].search_results) expect(typeof result.page_content.page_markdown).toBe('string');
  });

  it('auto_crawling at its default, false or empty: results without page_content, 10 credits', async () => {
    for (const value of ['false', '']) {
      const res = await search(`query=trawling&markdown=true&auto_crawling=${value}`);
      expectSearchAnswer(res);
      for (const result of res.body.pages['1'].search_results) expect(result).not.toHaveProperty('page_content');
      expect(res.charged).toBe(COST.searchPage);
    }
  });
});
