/**
 * The Firecrawl-compatible API through the real client, `@mendable/firecrawl-js` (v2 client and its v1 class),
 * against the real gateway and workers on loopback: scrape with formats and options, a page answering 404, crawl and
 * batch waiters across several `next` pages, start/status/cancel, map, search with scrapeOptions, credit usage, and
 * every refusal reaching the client as its SdkError with nothing charged.
 */
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import Firecrawl, { FirecrawlAppV1, SdkError } from '@mendable/firecrawl-js';
import { bingPage } from '#bench/support/bing-fixture.js';
import { startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { key, startHarness, type Harness } from '../support/harness.js';
import { pollUntil } from '../support/poll.js';
import { startSite, TREE_PAGES } from './site.js';

jest.setTimeout(180_000);

let trawl: Harness;
let site: FixtureServer;
let bing: FixtureServer;
let apiKey: string;
let accountId: string;
let client: Firecrawl;

beforeAll(async () => {
  site = await startSite();
  bing = await startFixtureServer({
    '/search': (req, res) => {
      const q = new URL(req.url!, 'http://x').searchParams.get('q') ?? '';
      const results = [
        { title: 'Trawling explained', link: `${site.url}/article`, snippet: 'Trawling is a method of fishing.' },
        { title: 'A scoped page', link: `${site.url}/scoped`, snippet: 'Scoped words.' },
        { title: 'Echo', link: `${site.url}/echo`, snippet: 'Echoes.' },
      ];
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(bingPage({ query: q, offset: 0, hasNext: false, results }));
    },
  });
  trawl = await startHarness({ SEARCH_ENGINE: 'bing', BING_BASE_URL: bing.url, CRAWL_HOST_MIN_GAP_MS: '0', CRAWL_HOST_MAX_INFLIGHT: '8' });
  const account = await trawl.createAccount();
  apiKey = account.apiKey;
  accountId = account.accountId;
  client = new Firecrawl({ apiKey, apiUrl: trawl.baseUrl });
});

afterAll(async () => {
  await trawl?.close();
  await site?.close();
  await bing?.close();
});

const balance = async () => (await trawl.admin.report(accountId)).account.balance;

describe('scrape', () => {
  it('returns markdown, cleaned html, raw html, links and images with the page metadata; 1 credit over plain HTTP', async () => {
    const before = await balance();
    const doc = await client.scrape(`${site.url}/scoped`, { formats: ['markdown', 'html', 'rawHtml', 'links', 'images'] });
    expect(doc.markdown).toContain('first paragraph of a scoped article');
    expect(doc.markdown).not.toContain('Sidebar words');
    expect(doc.html).toContain('Scoped article');
    expect(doc.rawHtml).toContain('<aside id="side">');
    expect(doc.links).toEqual(expect.arrayContaining([`${site.url}/pricing`]));
    expect(doc.images).toEqual([`${site.url}/img/figure.png`]);
    expect(doc.metadata).toMatchObject({ title: 'Scoped page', sourceURL: `${site.url}/scoped`, url: `${site.url}/scoped`, statusCode: 200, creditsUsed: 1, proxyUsed: 'basic', engine: 'http' });
    expect(await balance()).toBe(before - 1);
  });

  it('honours onlyMainContent, includeTags and excludeTags', async () => {
    const whole = await client.scrape(`${site.url}/scoped`, { formats: ['markdown'], onlyMainContent: false });
    expect(whole.markdown).toContain('Sidebar words');
    expect(whole.markdown).toContain('Pricing');
    const included = await client.scrape(`${site.url}/scoped`, { formats: ['markdown'], includeTags: ['#side'] });
    expect(included.markdown).toContain('Sidebar words');
    expect(included.markdown).not.toContain('first paragraph');
    const excluded = await client.scrape(`${site.url}/scoped`, { formats: ['markdown'], excludeTags: ['.promo'] });
    expect(excluded.markdown).toContain('second paragraph');
    expect(excluded.markdown).not.toContain('newsletter');
  });

  it('sends the headers asked for, and a mobile browser\'s user agent with mobile', async () => {
    const doc = await client.scrape(`${site.url}/echo`, { formats: ['markdown'], headers: { 'x-token': 'sesame' }, mobile: true });
    expect(doc.markdown).toContain('token=sesame');
    expect(doc.markdown).toMatch(/agent=.*Mobile/);
  });

  it('highlights: the passages of the page about the query, in its own words, at no extra charge', async () => {
    const before = await balance();
    const doc = await client.scrape(`${site.url}/guide`, { formats: [{ type: 'highlights', query: 'mooring fee for a berth in the harbour' }] });
    expect(doc.highlights).toMatch(/^Most small harbours charge a mooring fee by the night/);
    expect(doc.highlights).not.toContain('shipping forecast'); // no query term in it
    expect(doc).not.toHaveProperty('markdown');
    expect(doc.metadata?.creditsUsed).toBe(1);
    expect(await balance()).toBe(before - 1);
    const both = await client.scrape(`${site.url}/guide`, { formats: ['markdown', { type: 'highlights', query: 'gale warning wind' }] });
    expect(both.highlights).toMatch(/^Crews watch the shipping forecast/);
    expect(both.markdown).toContain('mesh size');
  });

  it('a page answering 404 is a document with statusCode 404', async () => {
    const doc = await client.scrape(`${site.url}/missing`, { formats: ['markdown'] });
    expect(doc.metadata?.statusCode).toBe(404);
    expect(doc.markdown).toContain('does not exist');
  });

  it('a screenshot is rendered (waitFor honoured) and handed back as a link to the PNG; 10 credits', async () => {
    const before = await balance();
    const started = Date.now();
    const doc = await client.scrape(`${site.url}/article`, { formats: ['markdown', { type: 'screenshot', fullPage: true }], waitFor: 700 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(700);
    expect(doc.metadata).toMatchObject({ engine: 'chromium', creditsUsed: 10 });
    expect(doc.screenshot).toMatch(new RegExp(`^${trawl.baseUrl}/`));
    const png = await fetch(doc.screenshot!);
    expect(png.status).toBe(200);
    expect(Buffer.from(await png.arrayBuffer()).subarray(1, 4).toString()).toBe('PNG');
    expect(await balance()).toBe(before - 10);
  });
});

describe('crawl and batch scrape', () => {
  it('the crawl waiter gathers every page across several next pages, the same pages the native API stored', async () => {
    const before = await balance();
    const job = await client.crawl(`${site.url}/tree/`, { sitemap: 'skip', pollInterval: 1, timeout: 120 });
    expect(job.status).toBe('completed');
    expect(job.data).toHaveLength(TREE_PAGES);
    expect(new Set(job.data.map((d) => d.metadata?.sourceURL)).size).toBe(TREE_PAGES);
    expect(job.data.every((d) => typeof d.markdown === 'string' && d.metadata?.statusCode === 200)).toBe(true);
    expect(job.creditsUsed).toBe(TREE_PAGES);
    expect(await balance()).toBe(before - TREE_PAGES);
    // The status pages link on with absolute URLs; the last omits next.
    const first = await trawl.get(`/v2/crawl/${job.id}`, { authorization: `Bearer ${apiKey}` });
    expect(first.body.data).toHaveLength(100);
    expect(first.body.next).toBe(`${trawl.baseUrl}/v2/crawl/${job.id}?skip=100`);
    const last = await trawl.get(`/v2/crawl/${job.id}?skip=200`, key(apiKey));
    expect(last.body.data).toHaveLength(TREE_PAGES - 200);
    expect(last.body).not.toHaveProperty('next');
    // Cancelling it now answers as Firecrawl does (200, cancelled); the crawl stays completed with its pages.
    expect(await client.cancelCrawl(job.id)).toBe(true);
    const after = await client.getCrawlStatus(job.id, { autoPaginate: false });
    expect(after).toMatchObject({ status: 'completed', completed: TREE_PAGES });
    expect(await balance()).toBe(before - TREE_PAGES);
  });

  it('starts, reads and cancels a crawl; the errors and active list answer', async () => {
    const started = await client.startCrawl(`${site.url}/tree/`, { sitemap: 'skip', limit: 50, maxConcurrency: 1 });
    expect(started.url).toBe(`${trawl.baseUrl}/v2/crawl/${started.id}`);
    const active = await client.getActiveCrawls();
    expect(active.crawls.map((c) => c.id)).toContain(started.id);
    expect(await client.cancelCrawl(started.id)).toBe(true);
    const status = await pollUntil(async () => {
      const s = await client.getCrawlStatus(started.id);
      return s.status === 'cancelled' ? s : null;
    }, 'the crawl to read as cancelled', 30_000, 100);
    expect(status.data.length).toBeLessThan(50);
    const errors = await client.getCrawlErrors(started.id);
    expect(errors).toEqual({ errors: expect.any(Array), robotsBlocked: expect.any(Array) });
  });

  it('the batch waiter scrapes every URL, invalid ones left out and listed', async () => {
    const urls = [`${site.url}/article`, `${site.url}/scoped`, 'not a url'];
    const started = await client.startBatchScrape(urls, { options: { formats: ['markdown', 'links'] } });
    expect(started.invalidURLs).toEqual(['not a url']);
    const job = await pollUntil(async () => {
      const s = await client.getBatchScrapeStatus(started.id);
      return s.status === 'completed' ? s : null;
    }, 'the batch to complete', 60_000, 200);
    expect(job.status).toBe('completed');
    expect(job.data.map((d) => d.metadata?.sourceURL).sort()).toEqual([`${site.url}/article`, `${site.url}/scoped`]);
    expect(job.data.every((d) => Array.isArray(d.links))).toBe(true);
    const waited = await client.batchScrape([`${site.url}/echo`], { options: { formats: ['markdown'] }, pollInterval: 1, timeout: 60 });
    expect(waited.data[0].markdown).toContain('Echo');
  });
});

describe('map, search, credit usage', () => {
  it('maps a site\'s links', async () => {
    const mapped = await client.map(`${site.url}/tree/`, { sitemap: 'skip', limit: 20 });
    expect(mapped.links.length).toBe(20);
    expect(mapped.links.every((l) => l.url.startsWith(`${site.url}/tree/`))).toBe(true);
  });

  it('searches the web and scrapes the results with scrapeOptions; creditsUsed counts both', async () => {
    const before = await balance();
    const plain = await client.search('trawling', { limit: 2 });
    expect(plain.web?.map((r) => ('url' in r ? r.url : undefined))).toEqual([`${site.url}/article`, `${site.url}/scoped`]);
    const scraped = await client.search('trawling', { limit: 2, scrapeOptions: { formats: ['markdown'] } });
    const first = scraped.web?.[0] as { markdown?: string; title?: string };
    expect(first.markdown).toContain('Trawling is a method of fishing');
    // Two searches of one result page (10 each) and two results scraped (1 each).
    expect(await balance()).toBe(before - 22);
    const highlighted = await client.search('trawling', { limit: 1, scrapeOptions: { formats: [{ type: 'highlights', query: 'the depth at which trawls operate' }] } });
    expect((highlighted.web?.[0] as { highlights?: string }).highlights).toMatch(/classified by the depth at which they operate/);
  });

  it('reports the credits left in the period', async () => {
    const usage = await client.getCreditUsage();
    expect(usage.remainingCredits).toBe(await balance());
    expect(usage.planCredits).toBe(10_000);
    expect(new Date(usage.billingPeriodEnd!).getTime()).toBeGreaterThan(Date.now());
  });
});

describe('refusals reach the client as its SdkError, nothing charged', () => {
  const refusal = async (work: () => Promise<unknown>) => {
    const error = await work().then(() => null, (e: unknown) => e);
    expect(error).toBeInstanceOf(SdkError);
    return error as SdkError;
  };

  it('400 for options this server does not offer, naming them', async () => {
    const before = await balance();
    const llm = await refusal(() => client.scrape(`${site.url}/article`, { formats: ['summary'] }));
    expect(llm).toMatchObject({ status: 400, code: 'BAD_REQUEST' });
    expect(llm.message).toMatch(/^format summary needs an LLM, and this server has none configured \(LLM_BASE_URL/);
    const json = await refusal(() => client.scrape(`${site.url}/article`, { formats: [{ type: 'json', prompt: 'The topic' }] }));
    expect(json).toMatchObject({ status: 400, code: 'BAD_REQUEST' });
    expect(json.message).toMatch(/^format json needs an LLM.*LLM_BASE_URL/);
    const v1 = new FirecrawlAppV1({ apiKey, apiUrl: trawl.baseUrl });
    await expect(v1.scrapeUrl(`${site.url}/article`, { formats: ['json'], jsonOptions: { prompt: 'The topic' } })).rejects.toThrow(/format json needs an LLM.*LLM_BASE_URL/);
    const unknown = await refusal(() => client.scrape(`${site.url}/article`, { formats: ['markdown'], bogusOption: 1 } as never));
    expect(unknown.message).toMatch(/bogusOption/);
    const actions = await refusal(() => client.scrape(`${site.url}/article`, { actions: [{ type: 'hover' } as never] }));
    expect(actions.message).toMatch(/^actions\.0\.type: "hover" is not an action/);
    const bare = await refusal(() => client.scrape(`${site.url}/article`, { formats: ['highlights' as never] }));
    expect(bare.message).toBe('formats.0: format highlights needs the object { type: "highlights", query }');
    const highlights = await refusal(() => client.startCrawl(`${site.url}/tree/`, { scrapeOptions: { formats: [{ type: 'highlights', query: 'tree' }] } }));
    expect(highlights.message).toMatch(/^scrapeOptions\.formats\.0: format highlights is offered by scrape and search only/);
    const crawl = await refusal(() => client.startCrawl(`${site.url}/tree/`, { includePaths: ['(?=x)'] }));
    expect(crawl.status).toBe(400);
    expect(crawl.message).toMatch(/^includePaths/);
    expect(await balance()).toBe(before);
  });

  it('401 for a wrong key, 404 for a job that is not there', async () => {
    const stranger = new Firecrawl({ apiKey: 'trawl_wrong', apiUrl: trawl.baseUrl });
    expect(await refusal(() => stranger.scrape(`${site.url}/article`))).toMatchObject({ status: 401 });
    const missing = await refusal(() => client.getCrawlStatus('00000000-0000-4000-8000-000000000000'));
    expect(missing.status).toBe(404);
    expect(missing.code).toBe('NOT_FOUND');
  });

  it('a page that cannot be fetched fails the scrape, uncharged', async () => {
    const before = await balance();
    const error = await refusal(() => client.scrape('http://127.0.0.1:1/nothing-listens'));
    expect(error.status).toBeGreaterThanOrEqual(400);
    expect(await balance()).toBe(before);
  });
});

describe('the v1 class', () => {
  it('scrapes, crawls through its waiter and maps', async () => {
    const v1 = new FirecrawlAppV1({ apiKey, apiUrl: trawl.baseUrl });
    const scraped = await v1.scrapeUrl(`${site.url}/article`, { formats: ['markdown'] });
    expect(scraped).toMatchObject({ success: true });
    expect((scraped as { markdown: string }).markdown).toContain('Trawling is a method of fishing');
    const crawled = await v1.crawlUrl(`${site.url}/tree/`, { limit: 120, ignoreSitemap: true }, 1);
    expect(crawled).toMatchObject({ success: true, status: 'completed' });
    expect((crawled as { data: unknown[] }).data).toHaveLength(120);
    const mapped = await v1.mapUrl(`${site.url}/tree/`, { limit: 5, ignoreSitemap: true });
    expect((mapped as { links: string[] }).links).toHaveLength(5);
    expect(typeof (mapped as { links: string[] }).links[0]).toBe('string');
  });
});
