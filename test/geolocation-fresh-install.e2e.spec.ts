/**
 * A fresh install — no `PROXIES`, no `RESIDENTIAL_PROXIES`, no `STANDALONE_WORKERS` — answers the requests the
 * contract shapes with only their required parameters (`/headful-browser?urls=` included), and applies one
 * rule for a country on every endpoint (`egressFor`): a country chosen for the caller (`/headful-browser`'s default
 * `us`, `/search` `geolocation=random`) goes direct and says so (the response's `egress`, the request log's
 * `detail.egress`); a country the caller named that no proxy serves is PROXY_UNAVAILABLE at 0 credits, never a 400 —
 * per URL on /crawl, 500 on /search and /headful-browser (the contract's "headful browser service unavailable").
 * Real gateway and the default workers (http, render, headed Chromium on Xvfb), Postgres and Redis, fixture Bing and
 * site on 127.0.0.1.
 */
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { WorkerRegistry } from '#queue';
import { bingPage } from '#bench/support/bing-fixture.js';
import { ARTICLE, startFixtureServer, type FixtureServer } from './support/fixture-server.js';
import { key, startHarness, type Harness } from './support/harness.js';
import { pollUntil } from './support/poll.js';

jest.setTimeout(90_000);

let trawl: Harness;
let site: FixtureServer;
let bing: FixtureServer;
const clients: Client[] = [];

beforeAll(async () => {
  site = await startFixtureServer({
    '/article': (_q, res) => void res.writeHead(200, { 'content-type': 'text/html' }).end(ARTICLE),
  });
  bing = await startFixtureServer({
    '/search': (req, res) => {
      const q = new URL(req.url!, 'http://x').searchParams.get('q') ?? '';
      const results = [{ title: 'Trawling explained', link: `${site.url}/article`, snippet: 'Trawling is a method of fishing.' }];
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(bingPage({ query: q, offset: 0, hasNext: false, results }));
    },
  });
  // No STANDALONE_WORKERS either: a fresh install hosts the headful worker (and http, render) by default.
  trawl = await startHarness({
    SEARCH_ENGINE: 'bing',
    BING_BASE_URL: bing.url,
    PROXIES: '',
    RESIDENTIAL_PROXIES: '',
    HEADFUL_TIMEOUT_MS: '40000',
    CRAWL_TIMEOUT_MS: '20000',
  });
  expect(trawl.config.STANDALONE_WORKERS).toEqual(['http', 'render', 'headful']);
  const registry = trawl.app.get(WorkerRegistry, { strict: false });
  await pollUntil(async () => (await registry.seen('worker-headful')) > 0, 'the worker-headful heartbeat');
});

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
  await trawl?.close();
  await Promise.all([site?.close(), bing?.close()]);
});

const q = (url: string) => encodeURIComponent(url);
const balance = async (accountId: string) => (await trawl.admin.report(accountId)).account.balance;

/** The request-log rows of an account, oldest first, once `count` are written. */
async function logRows(accountId: string, count: number) {
  const read = () => trawl.db.pool.query(`SELECT endpoint, status, credits, error_code, detail FROM request_log WHERE account_id = $1 ORDER BY created_at`, [accountId]);
  await pollUntil(async () => (await read()).rowCount === count, `${count} request-log rows`);
  return (await read()).rows;
}

async function connect(apiKey: string): Promise<Client> {
  const client = new Client({ name: 'trawl-e2e', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${trawl.baseUrl}/mcp`), { requestInit: { headers: key(apiKey) } }));
  clients.push(client);
  return client;
}
const call = (client: Client, name: string, args: Record<string, unknown>) => client.callTool({ name, arguments: args }) as Promise<CallToolResult>;

describe('a fresh install without proxies', () => {
  it('/headful-browser with only urls loads the page directly, says so in the result and the request log, 50 credits', async () => {
    const account = await trawl.createAccount();
    const before = site.hits.get('/article') ?? 0;
    const res = await trawl.get(`/headful-browser?urls=${q(`${site.url}/article`)}`, key(account.apiKey));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'success', credits_used: 50, credits_remaining: 10_000 - 50 });
    expect(res.body.data).toEqual([{ url: `${site.url}/article`, markdown: expect.stringContaining('Deep sea trawling'), blocked: false, egress: { via: 'direct' } }]);
    expect(site.hits.get('/article')).toBe(before + 1);
    expect(await balance(account.accountId)).toBe(10_000 - 50);
    const [row] = await logRows(account.accountId, 1);
    expect(row).toMatchObject({ endpoint: '/headful-browser', status: 200, credits: 50, error_code: null, detail: { egress: { via: 'direct' }, urls: [{ url: `${site.url}/article` }] } });
  });

  it('/headful-browser with a country named that no proxy serves: 500 PROXY_UNAVAILABLE, nothing loaded, 0 credits, logged', async () => {
    const account = await trawl.createAccount();
    const before = site.hits.get('/article') ?? 0;
    for (const country of ['de', 'us']) {
      const res = await trawl.get(`/headful-browser?urls=${q(`${site.url}/article`)}&country=${country}`, key(account.apiKey));
      expect(res.status).toBe(500);
      expect(res.body.error.code).toBe('PROXY_UNAVAILABLE');
      expect(res.body.error.message).toBe(
        `No residential proxy serves country "${country}" on this server (configured: none (set RESIDENTIAL_PROXIES or RESIDENTIAL_PROXY_URL)); nothing was fetched or charged`,
      );
    }
    expect(site.hits.get('/article') ?? 0).toBe(before);
    expect(await balance(account.accountId)).toBe(10_000);
    const rows = await logRows(account.accountId, 2);
    expect(rows.map((r) => [r.status, r.credits, r.error_code])).toEqual([[500, 0, 'PROXY_UNAVAILABLE'], [500, 0, 'PROXY_UNAVAILABLE']]);
  });

  it('/search geolocation=random goes direct and says so (10 credits); a named country is PROXY_UNAVAILABLE, 500 at 0 credits', async () => {
    const account = await trawl.createAccount();
    const random = await trawl.get('/search?query=trawling&geolocation=random', key(account.apiKey));
    expect(random.status).toBe(200);
    expect(random.body).toMatchObject({ pages_fetched: 1, credits: 10, egress: { via: 'direct' } });
    expect(random.body.pages['1'].search_results[0].link).toBe(`${site.url}/article`);
    const named = await trawl.get('/search?query=trawling&geolocation=de', key(account.apiKey));
    expect(named.status).toBe(500);
    expect(named.body.error).toEqual({ code: 'PROXY_UNAVAILABLE', message: 'No proxy serves country "de" on this server (configured: none (set PROXIES)); nothing was fetched or charged' });
    const plain = await trawl.get('/search?query=trawling', key(account.apiKey));
    expect(plain.body).not.toHaveProperty('egress');
    expect(await balance(account.accountId)).toBe(10_000 - 20);
    const rows = await logRows(account.accountId, 3);
    expect(rows.map((r) => [r.status, r.credits, r.error_code])).toEqual([[200, 10, null], [500, 0, 'PROXY_UNAVAILABLE'], [200, 10, null]]);
    expect(rows[0].detail).toEqual({ urls: [], egress: { via: 'direct' } });
  });

  it('/crawl with a named country no proxy serves: the URL fails with PROXY_UNAVAILABLE at 0 credits, as before', async () => {
    const account = await trawl.createAccount();
    const res = await trawl.get(`/crawl?urls=${q(`${site.url}/article`)}&geolocation=de`, key(account.apiKey));
    expect(res.status).toBe(200);
    expect(res.body.results[0].error).toMatch(/^PROXY_UNAVAILABLE: /);
    expect(res.body).toMatchObject({ credits: 0, successful_pages: 0 });
    expect(await balance(account.accountId)).toBe(10_000);
  });

  it('MCP: headful_browser with only url goes direct (50 credits), with a named country fails 500 at 0; web_search random works', async () => {
    const account = await trawl.createAccount();
    const client = await connect(account.apiKey);
    const direct = await call(client, 'headful_browser', { url: `${site.url}/article` });
    expect(direct.isError).toBeFalsy();
    expect((direct.structuredContent as any).data[0]).toMatchObject({ blocked: false, egress: { via: 'direct' } });
    expect(direct._meta?.['trawl/credits']).toBe(50);
    expect((direct.content[0] as { text: string }).text).toMatch(/Loaded directly/);
    const named = await call(client, 'headful_browser', { url: `${site.url}/article`, country: 'de' });
    expect(named.isError).toBe(true);
    expect(named._meta?.['trawl/status']).toBe(500);
    expect(JSON.parse((named.content[0] as { text: string }).text).error.code).toBe('PROXY_UNAVAILABLE');
    const search = await call(client, 'web_search', { query: 'trawling', geolocation: 'random' });
    expect(search.isError).toBeFalsy();
    expect((search.structuredContent as any).egress).toEqual({ via: 'direct' });
    expect(await balance(account.accountId)).toBe(10_000 - 50 - 10);
  });
});
