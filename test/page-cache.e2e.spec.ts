/**
 * The page cache of `/crawl` (`max_age`), end to end: a stored page answers the same options without a fetch (the
 * fixture counts its requests), at 1 credit reserved and settled through the ledger; age, options and accounts keep
 * entries apart; the shared scope serves every account; the byte bound evicts the least recently used.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import Firecrawl from '@mendable/firecrawl-js';
import { ARTICLE, startFixtureServer, type FixtureServer } from './support/fixture-server.js';
import { key, startHarness, type Harness } from './support/harness.js';
import { pollUntil } from './support/poll.js';

let trawl: Harness;
let shared: Harness;
let site: FixtureServer;
/** Distinct paths per test, so each starts with an empty cache and its own fixture count. */
let n = 0;
const path = (name: string) => `/${name}-${++n}`;

const page = (_req: unknown, res: import('node:http').ServerResponse) => void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(ARTICLE);

beforeAll(async () => {
  // Every path serves the article (the server still counts requests per path).
  site = await startFixtureServer(new Proxy({}, { get: () => page }) as Record<string, typeof page>);
  trawl = await startHarness({ CRAWL_TIMEOUT_MS: '20000' });
  // 16 KB: about a dozen entries of the article (under 1 KB compressed, plus the overhead counted per entry).
  shared = await startHarness({ PAGE_CACHE_SCOPE: 'shared', PAGE_CACHE_MAX_BYTES: '16000', PAGE_CACHE_MAX_AGE_MS: '3600000' });
});

afterAll(async () => {
  await trawl?.close();
  await shared?.close();
  await site?.close();
});

const crawl = (h: Harness, apiKey: string, p: string, query = '') => h.get(`/crawl?urls=${encodeURIComponent(site.url + p)}${query}`, key(apiKey));
const ledger = async (h: Harness, accountId: string) =>
  (await h.db.pool.query(`SELECT kind, amount::int AS amount FROM credit_ledger WHERE account_id = $1 AND kind <> 'grant' ORDER BY id`, [accountId])).rows;

describe('GET /crawl with max_age', () => {
  it('fetches and stores a page once, then answers it from the cache (the page sees one request), at 1 credit each', async () => {
    const account = await trawl.createAccount();
    const p = path('article');
    const miss = await crawl(trawl, account.apiKey, p, '&max_age=600');
    expect(miss.status).toBe(200);
    expect(miss.body.results[0]).toMatchObject({ status_code: 200, cache_state: 'miss', cached_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) });
    const hit = await crawl(trawl, account.apiKey, p, '&max_age=600');
    expect(hit.status).toBe(200);
    expect(hit.body.results[0]).toEqual({ ...miss.body.results[0], cache_state: 'hit' });
    expect(hit.body.results[0].markdown).toContain('pulling a fishing net');
    expect(hit.body).toMatchObject({ credits: 1, successful_pages: 1 });
    expect(site.hits.get(p)).toBe(1);
    // Without max_age the cache is not read: a fresh fetch, and no cache fields.
    const fresh = await crawl(trawl, account.apiKey, p);
    expect(fresh.body.results[0]).not.toHaveProperty('cache_state');
    expect(site.hits.get(p)).toBe(2);
    // max_age=0: always fetched, and the stored copy refreshed.
    const zero = await crawl(trawl, account.apiKey, p, '&max_age=0');
    expect(zero.body.results[0].cache_state).toBe('miss');
    expect(site.hits.get(p)).toBe(3);
    const again = await crawl(trawl, account.apiKey, p, '&max_age=600');
    expect(again.body.results[0]).toMatchObject({ cache_state: 'hit', cached_at: zero.body.results[0].cached_at });
    expect((await trawl.admin.report(account.accountId)).account.balance).toBe(10_000 - 5);
  });

  it('serves the same page under another spelling of its URL (fragment, tracking parameters)', async () => {
    const account = await trawl.createAccount();
    const p = path('spelled');
    await crawl(trawl, account.apiKey, `${p}?b=2&a=1`, '&max_age=600');
    const hit = await crawl(trawl, account.apiKey, `${p}?a=1&utm_source=news&b=2#top`, '&max_age=600');
    expect(hit.body.results[0].cache_state).toBe('hit');
    expect(site.hits.get(p)).toBe(1);
  });

  it('fetches again once the stored copy is older than max_age', async () => {
    const account = await trawl.createAccount();
    const p = path('aging');
    const first = await crawl(trawl, account.apiKey, p, '&max_age=600');
    expect(first.body.results[0].cache_state).toBe('miss');
    const refetched = await pollUntil(
      async () => {
        const res = await crawl(trawl, account.apiKey, p, '&max_age=1');
        return res.body.results[0].cache_state === 'miss' ? res : null;
      },
      'a max_age=1 call to find the stored copy too old',
      10_000,
      200,
    );
    expect(Date.parse(refetched.body.results[0].cached_at) - Date.parse(first.body.results[0].cached_at)).toBeGreaterThan(1000);
    expect(site.hits.get(p)).toBe(2);
  });

  it('keeps options that change the content apart: formats, chunk query, engine', async () => {
    const account = await trawl.createAccount();
    const p = path('options');
    await crawl(trawl, account.apiKey, p, '&max_age=600');
    const text = await crawl(trawl, account.apiKey, p, '&max_age=600&page_text=true');
    expect(text.body.results[0].cache_state).toBe('miss');
    expect(text.body.results[0].page_text).toContain('pulling a fishing net');
    const chunks = await crawl(trawl, account.apiKey, p, '&max_age=600&query=fishing+net');
    expect(chunks.body.results[0].cache_state).toBe('miss');
    const otherQuery = await crawl(trawl, account.apiKey, p, '&max_age=600&query=sea+floor');
    expect(otherQuery.body.results[0].cache_state).toBe('miss');
    const rendered = await crawl(trawl, account.apiKey, p, '&max_age=600&render_js=true');
    expect(rendered.body.results[0].cache_state).toBe('miss');
    expect(site.hits.get(p)).toBe(5);
    // The same chunk query again is a hit, its chunks ranked as before; the token budget is applied per call.
    const sameQuery = await crawl(trawl, account.apiKey, p, '&max_age=600&query=sea+floor&max_tokens=5000');
    expect(sameQuery.body.results[0].cache_state).toBe('hit');
    expect(sameQuery.body.results[0].chunks).toEqual(otherQuery.body.results[0].chunks);
    expect(site.hits.get(p)).toBe(5);
  });

  it('keeps one account\'s pages from another by default', async () => {
    const [a, b] = [await trawl.createAccount(), await trawl.createAccount()];
    const p = path('private');
    await crawl(trawl, a.apiKey, p, '&max_age=600');
    const other = await crawl(trawl, b.apiKey, p, '&max_age=600');
    expect(other.body.results[0].cache_state).toBe('miss');
    expect(site.hits.get(p)).toBe(2);
    expect((await crawl(trawl, a.apiKey, p, '&max_age=600')).body.results[0].cache_state).toBe('hit');
    expect((await crawl(trawl, b.apiKey, p, '&max_age=600')).body.results[0].cache_state).toBe('hit');
    expect(site.hits.get(p)).toBe(2);
  });

  it('prices a hit at 1 credit whatever the engine: reserved after the lookup and settled in the ledger like any charge', async () => {
    const account = await trawl.createAccount();
    const [cached, fresh] = [path('rendered'), path('rendered')];
    const first = await crawl(trawl, account.apiKey, cached, '&render_js=true&max_age=600');
    expect(first.body).toMatchObject({ credits: 10, successful_pages: 1 });
    const both = await trawl.get(`/crawl?urls=${encodeURIComponent(`${site.url}${cached},${site.url}${fresh}`)}&render_js=true&max_age=600`, key(account.apiKey));
    expect(both.body.results.map((r: { cache_state: string }) => r.cache_state)).toEqual(['hit', 'miss']);
    expect(both.body.credits).toBe(11);
    expect(await ledger(trawl, account.accountId)).toEqual([
      { kind: 'reserve', amount: -10 },
      { kind: 'settle', amount: 0 },
      { kind: 'reserve', amount: -11 },
      { kind: 'settle', amount: 0 },
    ]);
    expect((await trawl.admin.report(account.accountId)).account.balance).toBe(10_000 - 21);
    await pollUntil(async () => (await trawl.db.pool.query(`SELECT 1 FROM request_log WHERE account_id = $1`, [account.accountId])).rowCount === 2, 'the request log rows');
    const log = await trawl.db.pool.query(`SELECT credits, detail FROM request_log WHERE account_id = $1 ORDER BY created_at`, [account.accountId]);
    expect(log.rows[1]).toMatchObject({ credits: 11, detail: { urls: [{ cache_state: 'hit' }, { cache_state: 'miss' }] } });
  });

  it.each([
    ['-1', 'max_age must be an integer from 0 to 172800'],
    ['1.5', 'max_age must be an integer'],
    ['soon', 'max_age must be an integer'],
    ['172801', 'max_age must be an integer from 0 to 172800'],
  ])('refuses max_age=%s with a 400 naming it, charging nothing', async (value, message) => {
    const account = await trawl.createAccount();
    const p = path('refused');
    const res = await crawl(trawl, account.apiKey, p, `&max_age=${value}`);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('INVALID_PARAMETER');
    expect(res.body.error.message).toContain(message);
    expect(site.hits.get(p)).toBeUndefined();
    expect(await ledger(trawl, account.accountId)).toEqual([]);
  });
});

describe('the MCP crawl tool with max_age', () => {
  it('answers a stored page from the cache, and refuses a bad max_age by name', async () => {
    const account = await trawl.createAccount();
    const client = new Client({ name: 'trawl-e2e', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${trawl.baseUrl}/mcp`), { requestInit: { headers: key(account.apiKey) } }));
    try {
      const p = path('mcp');
      const crawlTool = (args: Record<string, unknown>) => client.callTool({ name: 'crawl', arguments: { urls: [site.url + p], ...args } }) as Promise<CallToolResult>;
      const miss = await crawlTool({ max_age: 600 });
      expect((miss.structuredContent as { results: { cache_state: string }[] }).results[0].cache_state).toBe('miss');
      const hit = await crawlTool({ max_age: 600 });
      expect(hit.structuredContent).toMatchObject({ credits: 1, results: [{ cache_state: 'hit' }] });
      expect(site.hits.get(p)).toBe(1);
      const bad = await crawlTool({ max_age: -5 });
      expect(bad.isError).toBe(true);
      expect(JSON.parse((bad.content[0] as { text: string }).text).error.message).toContain('max_age');
    } finally {
      await client.close();
    }
  });
});

describe("Firecrawl's scrape with maxAge (the SDK)", () => {
  it('answers a stored page from the cache at 1 credit, and never caches a scrape with its own headers', async () => {
    const account = await trawl.createAccount();
    const client = new Firecrawl({ apiKey: account.apiKey, apiUrl: trawl.baseUrl });
    const p = path('firecrawl');
    const miss = await client.scrape(site.url + p, { formats: ['markdown'], maxAge: 600_000, proxy: 'basic' });
    expect(miss.metadata).toMatchObject({ cacheState: 'miss', creditsUsed: 1 });
    const hit = await client.scrape(site.url + p, { formats: ['markdown'], maxAge: 600_000, proxy: 'basic' });
    expect(hit.metadata).toMatchObject({ cacheState: 'hit', creditsUsed: 1, cachedAt: miss.metadata?.cachedAt });
    expect(hit.markdown).toBe(miss.markdown);
    expect(site.hits.get(p)).toBe(1);
    // Other formats: another stored copy.
    expect((await client.scrape(site.url + p, { formats: ['html'], maxAge: 600_000, proxy: 'basic' })).metadata).toMatchObject({ cacheState: 'miss' });
    expect(site.hits.get(p)).toBe(2);

    const withHeaders = path('headers');
    for (let i = 0; i < 2; i++) {
      const doc = await client.scrape(site.url + withHeaders, { formats: ['markdown'], maxAge: 600_000, headers: { cookie: 'session=secret' } });
      expect(doc.metadata).not.toHaveProperty('cacheState');
    }
    expect(site.hits.get(withHeaders)).toBe(2);
    expect((await trawl.admin.report(account.accountId)).account.balance).toBe(10_000 - 5);
  });
});

describe('GET /crawl with max_age, PAGE_CACHE_SCOPE=shared and a small PAGE_CACHE_MAX_BYTES', () => {
  it('serves a page one account stored to every account', async () => {
    const [a, b] = [await shared.createAccount(), await shared.createAccount()];
    const p = path('shared');
    expect((await crawl(shared, a.apiKey, p, '&max_age=600')).body.results[0].cache_state).toBe('miss');
    const other = await crawl(shared, b.apiKey, p, '&max_age=600');
    expect(other.body.results[0].cache_state).toBe('hit');
    expect(other.body.credits).toBe(1);
    expect(site.hits.get(p)).toBe(1);
  });

  it('holds the bytes under the cap, evicting the least recently used pages', async () => {
    const account = await shared.createAccount();
    const prefix = `${shared.config.REDIS_PREFIX}:{pagecache}`;
    const paths = Array.from({ length: 30 }, () => path('many'));
    const kept = paths[0];
    for (const [i, p] of paths.entries()) {
      await crawl(shared, account.apiKey, p, '&max_age=600');
      // The first page is read after every store: always the most recently used, it is never evicted.
      if (i > 0) expect((await crawl(shared, account.apiKey, kept, '&max_age=600')).body.results[0].cache_state).toBe('hit');
      const counted = Number(await shared.redis.get(`${prefix}:bytes`));
      expect(counted).toBeLessThanOrEqual(16_000);
    }
    // What Redis really holds is within the count.
    const entries = await shared.redis.keys(`${prefix}:e:*`);
    const stored = (await Promise.all(entries.map((k) => shared.redis.strlen(k)))).reduce((s, x) => s + x, 0);
    expect(entries.length).toBeGreaterThan(3);
    expect(entries.length).toBeLessThan(30);
    expect(stored).toBeLessThanOrEqual(Number(await shared.redis.get(`${prefix}:bytes`)));
    // The second page was stored early and never read again: evicted, so fetched anew.
    expect((await crawl(shared, account.apiKey, paths[1], '&max_age=600')).body.results[0].cache_state).toBe('miss');
    expect(site.hits.get(paths[1])).toBe(2);
    expect(site.hits.get(kept)).toBe(1);
  });
});
