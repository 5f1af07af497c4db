/**
 * Firecrawl's search `sources` through `@mendable/firecrawl-js` and raw, against the real gateway on loopback: web
 * results from the web search (a Bing fixture), news and images from the search engine's verticals (a Google fixture
 * serving captured `tbm=nws` and `tbm=isch` pages from ../shared/corpus), 10 credits a source as `/search` and
 * `/serp-search` charge; a client's own source is ignored, a list of none known is a 400 naming `sources`, and a
 * vertical that fails leaves the others' results with a warning.
 */
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import Firecrawl, { SdkError } from '@mendable/firecrawl-js';
import { bingPage } from '#bench/support/bing-fixture.js';
import { CORPUS_DIR } from '../support/env.js';
import { startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { startHarness, type Harness } from '../support/harness.js';
import { tableResolver } from '../support/offline.js';
import { corpusPresent } from '../support/requires.js';
import { startSite } from './site.js';

jest.setTimeout(120_000);

const NEWS = `${CORPUS_DIR}/serp/google/bisohns-search-engine-parser/html/googlenews__googlenews-synopsis__3e39d1a.html.gz`;
const IMAGES = `${CORPUS_DIR}/serp/google/abenassi-Google-Search-API/html/test_search_images.html.gz`;
const hasCorpus = corpusPresent(NEWS, 'Firecrawl search sources') && corpusPresent(IMAGES, 'Firecrawl search sources');
const CJR = 'https://www.cjr.org/business_of_news/to-save-itself-journalism-will-need-to-stop-preaching-to-the-choir.php';
const page = (file: string) => gunzipSync(readFileSync(file)).toString('utf8');

let trawl: Harness;
let bing: FixtureServer;
let google: FixtureServer;
let site: FixtureServer;
let apiKey: string;
let accountId: string;
let client: Firecrawl;
const verticals: string[] = [];
/** The query parameters of every request each engine fixture received. */
const asked: { bing: URLSearchParams[]; google: URLSearchParams[] } = { bing: [], google: [] };
/** The workers' DNS: it knows no name, so a public host a result names (cjr.org, apple.com) could never be fetched. */
const dns = tableResolver({});

(hasCorpus ? describe : describe.skip)('POST /v2/search sources', () => {
  beforeAll(async () => {
    site = await startSite();
    // The first news article, moved onto the loopback site for the scrape test (tests never reach the internet).
    const pages = { nws: page(NEWS).replace(CJR, `${site.url}/article`), isch: page(IMAGES) };
    bing = await startFixtureServer({
      '/search': (req, res) => {
        asked.bing.push(new URL(req.url!, 'http://x').searchParams);
        const q = new URL(req.url!, 'http://x').searchParams.get('q') ?? '';
        const results = [1, 2, 3].map((i) => ({ title: `Web result ${i} on ${q}`, link: `https://web.example/${i}`, snippet: `Snippet ${i} on ${q}.` }));
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(bingPage({ query: q, offset: 0, hasNext: false, results }));
      },
    });
    google = await startFixtureServer({
      '/search': (req, res) => {
        const params = new URL(req.url!, 'http://x').searchParams;
        const tbm = params.get('tbm') ?? '';
        verticals.push(tbm);
        asked.google.push(params);
        if (params.get('q') === 'news down') return void res.writeHead(503, { 'content-type': 'text/html' }).end('<html><body>Unavailable</body></html>');
        if (tbm !== 'nws' && tbm !== 'isch') return void res.writeHead(404).end();
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(pages[tbm]);
      },
    });
    trawl = await startHarness({ SEARCH_ENGINE: 'bing', BING_BASE_URL: bing.url, GOOGLE_BASE_URL: google.url, GOOGLE_TRANSPORT: 'http', SERP_PROXY_ATTEMPTS: '1' }, { resolve: dns });
    const account = await trawl.createAccount();
    apiKey = account.apiKey;
    accountId = account.accountId;
    client = new Firecrawl({ apiKey, apiUrl: trawl.baseUrl });
  });

  afterAll(async () => {
    await trawl?.close();
    await bing?.close();
    await google?.close();
    await site?.close();
  });

  const balance = async () => (await trawl.admin.report(accountId)).account.balance;
  const post = (body: unknown) =>
    fetch(`${trawl.baseUrl}/v2/search`, { method: 'POST', headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' }, body: JSON.stringify(body) }).then(
      async (r) => ({ status: r.status, body: (await r.json()) as any }),
    );

  it('answers web, news and images through the SDK, each in Firecrawl\'s fields; 10 credits a source', async () => {
    const before = await balance();
    const found = await client.search('preaching the choir', { sources: ['web', 'news', 'images'], limit: 4 });
    expect(found.web).toHaveLength(3);
    expect(found.web?.[0]).toEqual({ url: 'https://web.example/1', title: 'Web result 1 on preaching the choir', description: 'Snippet 1 on preaching the choir.', position: 1 });
    expect(found.news).toHaveLength(4);
    expect(found.news?.[0]).toMatchObject({
      title: 'To save itself, journalism will need to stop preaching to the choir',
      url: `${site.url}/article`,
      date: '10 hours ago', source: 'Columbia Journalism Review', position: 1,
    });
    expect(found.news?.map((n) => (n as { position: number }).position)).toEqual([1, 2, 3, 4]);
    for (const n of found.news ?? []) expect((n as { snippet: string }).snippet.length).toBeGreaterThan(10);
    expect(found.images).toHaveLength(4);
    expect(found.images?.[0]).toMatchObject({ url: 'https://www.apple.com/es/', imageWidth: 1200, imageHeight: 1200, position: 1 });
    for (const image of found.images ?? []) expect((image as { imageUrl: string }).imageUrl).toMatch(/^https?:\/\//);
    expect(verticals.slice(-2)).toEqual(['nws', 'isch']);
    expect(await balance()).toBe(before - 30);
  });

  it('answers only the sources asked for, ignoring a client\'s own (firecrawl-mcp\'s alexandria)', async () => {
    const before = await balance();
    const news = await post({ query: 'preaching the choir', sources: [{ type: 'news' }, 'alexandria'], limit: 2 });
    expect(news.status).toBe(200);
    expect(Object.keys(news.body.data)).toEqual(['news']);
    expect(news.body.data.news).toHaveLength(2);
    expect(news.body.creditsUsed).toBe(10);
    expect(await balance()).toBe(before - 10);
  });

  it('refuses a list naming no source it knows with a 400 naming sources, charging nothing', async () => {
    const before = await balance();
    const refused = await post({ query: 'x', sources: ['alexandria'] });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ success: false, code: 'BAD_REQUEST', error: "sources: must name at least one of web, news, images (a source of a client's own is ignored)" });
    const viaSdk = await client.search('x', { sources: ['alexandria'] }).catch((e: unknown) => e);
    expect(viaSdk).toBeInstanceOf(SdkError);
    expect((viaSdk as SdkError).status).toBe(400);
    expect(await balance()).toBe(before);
  });

  it('names the Firecrawl field in a refusal of its value (country, not the engine parameter it becomes), charging nothing', async () => {
    const before = await balance();
    for (const sources of [['web'], ['news']]) {
      const refused = await post({ query: 'x', country: 'not a country', sources });
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({ success: false, code: 'BAD_REQUEST', error: expect.stringMatching(/^country: /) });
      expect(refused.body.details).toEqual([expect.objectContaining({ path: ['country'] })]);
    }
    expect(await balance()).toBe(before);
  });

  it('honours tbs (freshness) and location (its country) on every source, through the SDK', async () => {
    const found = await client.search('fresh catch', { sources: ['web', 'news'], limit: 2, tbs: 'qdr:w', location: 'San Francisco,California,United States' });
    expect(found.web).toHaveLength(2);
    expect(found.news).toHaveLength(2);
    // Bing's past-week filter and the United States market; Google's vertical the same filter and country.
    const web = asked.bing[asked.bing.length - 1];
    expect(web.get('q')).toBe('fresh catch');
    expect(web.get('filters')).toBe('ex1:"ez2"');
    expect(web.get('cc')).toBe('US');
    const news = asked.google[asked.google.length - 1];
    expect(Object.fromEntries(news)).toMatchObject({ q: 'fresh catch', tbm: 'nws', tbs: 'qdr:w', gl: 'us' });
    // country wins over location; a country's name is read without its accents and punctuation.
    await client.search('fresh catch', { sources: ['web'], location: 'Germany', country: 'fr' });
    expect(asked.bing[asked.bing.length - 1].get('cc')).toBe('FR');
    await client.search('fresh catch', { sources: ['web'], location: "Abidjan,Côte d'Ivoire" });
    expect(asked.bing[asked.bing.length - 1].get('cc')).toBe('CI');
    expect(asked.bing[asked.bing.length - 1].get('filters')).toBeNull();
  });

  it('refuses a date range or a location naming no country with a 400 naming the field, charging nothing', async () => {
    const before = await balance();
    const range = await post({ query: 'x', tbs: 'cdr:1,cd_min:1/1/2024,cd_max:2/1/2024' });
    expect(range.status).toBe(400);
    expect(range.body).toMatchObject({ success: false, code: 'BAD_REQUEST', error: 'tbs must be one of qdr:h, qdr:d, qdr:w, qdr:m, qdr:y' });
    const nowhere = await post({ query: 'x', location: 'Atlantis' });
    expect(nowhere.status).toBe(400);
    expect(nowhere.body.error).toMatch(/^location must end with a country named in English/);
    expect(await balance()).toBe(before);
  });

  it('keeps the web results when the news vertical fails, saying so in warning; the failed search costs nothing', async () => {
    const before = await balance();
    const answer = await post({ query: 'news down', sources: ['web', 'news'] });
    expect(answer.status).toBe(200);
    expect(answer.body.data.web).toHaveLength(3);
    expect(answer.body.data.news).toEqual([]);
    expect(answer.body.warning).toMatch(/^news results could not be fetched/);
    expect(answer.body.creditsUsed).toBe(10);
    expect(await balance()).toBe(before - 10);
    // The one source asked for failing is the search's error.
    const alone = await post({ query: 'news down', sources: ['news'] });
    expect(alone.status).toBeGreaterThanOrEqual(500);
    expect(alone.body.success).toBe(false);
    expect(await balance()).toBe(before - 10);
  });

  it('scrapes the news articles with scrapeOptions, keeping their news fields; 1 credit a page over plain HTTP', async () => {
    const before = await balance();
    const found = await client.search('preaching the choir', { sources: ['news'], limit: 1, scrapeOptions: { formats: ['markdown'] } });
    expect(found.web).toBeUndefined();
    const article = found.news?.[0] as { url: string; title: string; source: string; markdown?: string; metadata?: { sourceURL?: string; statusCode?: number } };
    expect(article).toMatchObject({ url: `${site.url}/article`, source: 'Columbia Journalism Review', position: 1 });
    expect(article.markdown).toContain('Trawling');
    expect(article.metadata).toMatchObject({ sourceURL: `${site.url}/article`, statusCode: 200 });
    expect(await balance()).toBe(before - 11);
  });

  it('runs scrapeOptions.actions on each scraped result (a rendered page\'s 10 credits); screenshot actions are refused', async () => {
    const before = await balance();
    const found = await client.search('preaching the choir', { sources: ['news'], limit: 1, scrapeOptions: { formats: ['markdown'], actions: [{ type: 'executeJavascript', script: 'return document.title' }] } });
    const article = found.news?.[0] as { url: string; actions?: { javascriptReturns: Array<{ type: string; value: unknown }> }; metadata?: { creditsUsed?: number } };
    expect(article.url).toBe(`${site.url}/article`);
    expect(article.actions?.javascriptReturns).toEqual([{ type: 'string', value: expect.stringMatching(/\S/) }]);
    expect(await balance()).toBe(before - 20);
    const refused = await post({ query: 'x', sources: ['news'], scrapeOptions: { formats: ['markdown'], actions: [{ type: 'screenshot' }] } });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatch(/^scrapeOptions\.actions\.0\.type: screenshot and pdf actions are offered by scrape only/);
    expect(await balance()).toBe(before - 20);
  });

  it('never looked up a public host that a result names: only the loopback article was scraped', () => {
    expect(dns.asked).toEqual([]);
  });
});
