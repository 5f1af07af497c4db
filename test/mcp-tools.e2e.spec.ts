/**
 * The MCP tools over /search, /serp-maps and /headful-browser, end to end: the SDK client against the standalone app
 * (http and headful workers), a fixture Bing (bench/support/bing-fixture.ts) whose results link to a loopback
 * site, a Nominatim stand-in (MAPS_PROVIDER=osm), and a loopback "residential" proxy for headed Chromium on Xvfb.
 * Each tools/call is charged exactly like the REST call it stands for.
 */
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import type { ServerResponse } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { WorkerRegistry } from '#queue';
import { bingPage } from '#bench/support/bing-fixture.js';
import { ARTICLE, startFixtureServer, type FixtureServer } from './support/fixture-server.js';
import { key, startHarness, type Harness } from './support/harness.js';
import { pollUntil } from './support/poll.js';
import { startRecordingProxy, type RecordingProxy } from './support/recording-proxy.js';

jest.setTimeout(90_000);

const NOMINATIM_CAFE = {
  place_id: 98765,
  osm_type: 'node',
  osm_id: 123,
  lat: '40.7451',
  lon: '-74.0081',
  category: 'amenity',
  type: 'cafe',
  place_rank: 30,
  importance: 0.1,
  addresstype: 'amenity',
  name: 'Chelsea Beans',
  display_name: 'Chelsea Beans, 401, West 14th Street, Manhattan, New York, 10014, United States',
  address: { amenity: 'Chelsea Beans', house_number: '401', road: 'West 14th Street', city: 'New York', postcode: '10014', country: 'United States', country_code: 'us' },
  extratags: { opening_hours: 'Mo-Fr 08:00-18:00; Sa 09:00-14:00', phone: '+1 212 555 0100', website: 'chelseabeans.example' },
  namedetails: { name: 'Chelsea Beans' },
  boundingbox: ['40.7450', '40.7452', '-74.0082', '-74.0080'],
};

let trawl: Harness;
let site: FixtureServer;
let bing: FixtureServer;
let nominatim: FixtureServer;
let proxy: RecordingProxy;
const clients: Client[] = [];

beforeAll(async () => {
  site = await startFixtureServer({
    '/article': (_q, res) => void res.writeHead(200, { 'content-type': 'text/html' }).end(ARTICLE),
    '/diagram.png': (_q, res) => void res.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.alloc(64)),
  });
  bing = await startFixtureServer({
    '/search': (req, res) => {
      const q = new URL(req.url!, 'http://x').searchParams.get('q') ?? '';
      const results = [
        { title: 'Trawling explained', link: `${site.url}/article`, snippet: 'Trawling is a method of fishing.' },
        { title: 'Trawling net diagram', link: `${site.url}/diagram.png`, snippet: 'A trawling net, as an image.' },
      ];
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(bingPage({ query: q, offset: 0, hasNext: false, blocks: true, results }));
    },
  });
  const json = (res: ServerResponse, body: unknown) => void res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(body));
  nominatim = await startFixtureServer({
    '/search': (_q, res) => json(res, [NOMINATIM_CAFE]),
    '/lookup': (req, res) => json(res, new URL(req.url!, 'http://x').searchParams.get('osm_ids') === 'N123' ? [NOMINATIM_CAFE] : []),
  });
  proxy = await startRecordingProxy();
  trawl = await startHarness({
    STANDALONE_WORKERS: 'http,headful',
    SEARCH_ENGINE: 'bing',
    BING_BASE_URL: bing.url,
    SEARCH_CRAWL_TIMEOUT_MS: '5000',
    SEARCH_CRAWL_DEADLINE_MS: '8000',
    MAPS_PROVIDER: 'osm',
    NOMINATIM_BASE_URL: nominatim.url,
    NOMINATIM_USER_AGENT: 'TrawlTest/1.0 (ops@example.org)',
    NOMINATIM_MIN_INTERVAL_MS: '0',
    RESIDENTIAL_PROXIES: `us=${proxy.url}`,
    HEADFUL_TIMEOUT_MS: '40000',
  });
  const registry = trawl.app.get(WorkerRegistry, { strict: false });
  await pollUntil(async () => (await registry.seen('worker-headful')) > 0, 'the worker-headful heartbeat');
});

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
  await trawl?.close();
  await Promise.all([site?.close(), bing?.close(), nominatim?.close(), proxy?.close()]);
});

async function connect(apiKey: string): Promise<Client> {
  const client = new Client({ name: 'trawl-e2e', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${trawl.baseUrl}/mcp`), { requestInit: { headers: key(apiKey) } }));
  clients.push(client);
  return client;
}

const call = (client: Client, name: string, args: Record<string, unknown>) => client.callTool({ name, arguments: args }) as Promise<CallToolResult>;
const textOf = (result: CallToolResult) => result.content.map((b) => (b.type === 'text' ? b.text : '')).join('\n');
const errorOf = (result: CallToolResult) => {
  expect(result.isError).toBe(true);
  return JSON.parse((result.content[0] as { text: string }).text).error as { code: string; message: string };
};
const balance = async (accountId: string) => (await trawl.admin.report(accountId)).account.balance;

describe('MCP tools over /search, /serp-maps and /headful-browser', () => {
  it('web_search: results with the crawled Markdown to read, charged like REST (10 per page + 1 per crawled result)', async () => {
    const account = await trawl.createAccount();
    const client = await connect(account.apiKey);
    const result = await call(client, 'web_search', { query: 'trawling nets', auto_crawling: true, markdown: true });
    expect(result.isError).toBeFalsy();
    const body = result.structuredContent as any;
    const [article, image] = body.pages['1'].search_results;
    expect(article.page_content.page_markdown).toMatch(/Trawling is a method of fishing/);
    expect(image.error).toMatch(/^UNSUPPORTED_CONTENT/);
    expect(body.credits).toBe(10 + 1);
    expect(result._meta?.['trawl/credits']).toBe(11);
    const text = textOf(result);
    expect(text).toContain(`1. [Trawling explained](${site.url}/article)`);
    expect(text).toContain(`### Content of ${site.url}/article (HTTP 200)`);
    expect(text).toMatch(/Trawling is a method of fishing/);
    expect(text).toContain('Not crawled: UNSUPPORTED_CONTENT');
    expect(text).not.toContain('"search_results"'); // readable, not a JSON dump
    expect(await balance(account.accountId)).toBe(10_000 - 11);

    const rest = await trawl.get('/search?query=trawling%20nets&auto_crawling=true&markdown=true', key(account.apiKey));
    expect(rest.body.credits).toBe(body.credits);
    expect(await balance(account.accountId)).toBe(10_000 - 22);
  });

  it('serp_maps: places as Markdown, 30 credits like REST; a lookup of no place is an empty answer at 30 credits', async () => {
    const account = await trawl.createAccount();
    const client = await connect(account.apiKey);
    const result = await call(client, 'serp_maps', { q: 'coffee', ll: '@40.7455,-74.0083,14z' });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ parameters: { q: 'coffee', ll: '@40.7455,-74.0083,14z' }, credits: 30 });
    expect((result.structuredContent as any).serp_maps_results[0]).toMatchObject({ position: 1, title: 'Chelsea Beans', placeId: 'N123' });
    expect(result._meta?.['trawl/credits']).toBe(30);
    const text = textOf(result);
    expect(text).toContain('1. **Chelsea Beans** (Cafe)');
    expect(text).toContain('Phone: +1 212 555 0100');
    expect(text).toContain('Hours: Monday 8 AM–6 PM');
    expect(await balance(account.accountId)).toBe(10_000 - 30);

    const missing = await call(client, 'serp_maps', { q: 'nothing', placeId: 'N999' });
    expect(missing.isError).toBeFalsy();
    expect(missing.structuredContent).toMatchObject({ serp_maps_results: [], credits: 30 });
    expect(missing._meta?.['trawl/credits']).toBe(30);
    expect(await balance(account.accountId)).toBe(10_000 - 60);
  });

  it('headful_browser: one url in a headed browser through the residential proxy, 50 credits, the page as Markdown', async () => {
    const account = await trawl.createAccount();
    const client = await connect(account.apiKey);
    // `screenshot` is not a tool input: passed anyway, it is ignored (no link to sign, nothing extra charged).
    const result = await call(client, 'headful_browser', { url: `${site.url}/article`, output_format: 'markdown', country: 'us', screenshot: true });
    expect(result.isError).toBeFalsy();
    const body = result.structuredContent as any;
    expect(body).toMatchObject({ status: 'success', credits_used: 50, credits_remaining: 10_000 - 50 });
    expect(Object.keys(body.data[0]).sort()).toEqual(['blocked', 'egress', 'markdown', 'url']);
    expect(body.data[0].egress).toEqual({ via: 'proxy', country: 'us' });
    expect(result._meta?.['trawl/credits']).toBe(50);
    expect(textOf(result)).toMatch(/Trawling is a method of fishing/);
    expect(proxy.carried.length).toBeGreaterThan(0);
    expect(await balance(account.accountId)).toBe(10_000 - 50);
  });

  it('headful_browser: a host name that does not resolve here never reaches the residential proxy (0 credits)', async () => {
    const account = await trawl.createAccount();
    const client = await connect(account.apiKey);
    const result = await call(client, 'headful_browser', { url: 'http://trawl-unresolvable.invalid/', country: 'us' });
    expect(JSON.stringify(result.structuredContent ?? result.content)).toMatch(/DNS_FAILED/);
    expect(result._meta?.['trawl/credits']).toBe(0);
    expect(proxy.carried.filter((c) => c.hostname.endsWith('.invalid'))).toEqual([]);
    expect(await balance(account.accountId)).toBe(10_000);
  });

  it('validates like REST, with `url` named in the single-URL tool; nothing is charged', async () => {
    const account = await trawl.createAccount();
    const client = await connect(account.apiKey);
    const rest = await trawl.get('/search', key(account.apiKey));
    expect(errorOf(await call(client, 'web_search', {}))).toEqual(rest.body.error);
    expect(errorOf(await call(client, 'serp_maps', { q: 'x', ll: 'nowhere' })).message).toMatch(/^ll/);
    const noUrl = errorOf(await call(client, 'headful_browser', {}));
    expect(noUrl).toEqual({ code: 'INVALID_PARAMETER', message: 'url is required: one absolute http(s) URL' });
    expect(errorOf(await call(client, 'headful_browser', { url: 'not a url' })).message).toMatch(/^url/);
    const unserved = await call(client, 'headful_browser', { url: `${site.url}/article`, country: 'de' });
    expect(errorOf(unserved)).toEqual((await trawl.get(`/headful-browser?urls=${encodeURIComponent(`${site.url}/article`)}&country=de`, key(account.apiKey))).body.error);
    expect(errorOf(unserved).code).toBe('PROXY_UNAVAILABLE');
    expect(unserved._meta?.['trawl/status']).toBe(500);
    expect(await balance(account.accountId)).toBe(10_000);
  });
});
