/**
 * Other real clients of the Firecrawl-compatible API: firecrawl-mcp started as its users start it
 * (FIRECRAWL_API_URL pointing at Trawl, FIRECRAWL_API_KEY a Trawl key) and driven by the MCP SDK's client — its
 * scrape, map, search, crawl and crawl-status tools; Dify's connection check (raw HTTP, as Dify sends it); raw
 * requests: `x-api-key`, refusals in Firecrawl's shape with nothing charged; and the gateway behind a reverse proxy
 * (PUBLIC_BASE_URL): the links a client follows carry the public address.
 */
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { bingPage } from '#bench/support/bing-fixture.js';
import { REPO_ROOT } from '../support/env.js';
import { startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { startHarness, type Harness } from '../support/harness.js';
import { pollUntil } from '../support/poll.js';
import { startSite } from './site.js';

jest.setTimeout(120_000);

let trawl: Harness;
let site: FixtureServer;
let bing: FixtureServer;
let apiKey: string;
let accountId: string;
let mcp: Client;
/** The public address: a reverse proxy on loopback in front of the gateway, as PUBLIC_BASE_URL names it. */
let front: Server;
let frontUrl: string;

async function startFront(target: () => string): Promise<Server> {
  const server = createServer((req, res) => {
    const upstream = httpRequest(`${target()}${req.url}`, { method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

beforeAll(async () => {
  front = await startFront(() => trawl.baseUrl);
  frontUrl = `http://127.0.0.1:${(front.address() as AddressInfo).port}`;
  site = await startSite();
  bing = await startFixtureServer({
    '/search': (_req, res) =>
      void res.writeHead(200, { 'content-type': 'text/html' }).end(bingPage({ query: 'trawling', offset: 0, hasNext: false, results: [{ title: 'Trawling explained', link: `${site.url}/article`, snippet: 'Trawling is a method of fishing.' }] })),
  });
  trawl = await startHarness({ SEARCH_ENGINE: 'bing', BING_BASE_URL: bing.url, CRAWL_HOST_MIN_GAP_MS: '0', PUBLIC_BASE_URL: `${frontUrl}/` });
  const account = await trawl.createAccount();
  apiKey = account.apiKey;
  accountId = account.accountId;
  mcp = new Client({ name: 'trawl-test', version: '1.0.0' });
  await mcp.connect(
    new StdioClientTransport({
      command: path.join(REPO_ROOT, 'node_modules/.bin/firecrawl-mcp'),
      env: { PATH: process.env.PATH ?? '', FIRECRAWL_API_URL: trawl.baseUrl, FIRECRAWL_API_KEY: apiKey },
      stderr: 'ignore',
    }),
  );
});

afterAll(async () => {
  await mcp?.close();
  await trawl?.close();
  await site?.close();
  await bing?.close();
  await new Promise((resolve) => front?.close(resolve));
});

const balance = async () => (await trawl.admin.report(accountId)).account.balance;

async function tool(name: string, args: Record<string, unknown>): Promise<any> {
  const result = (await mcp.callTool({ name, arguments: args })) as CallToolResult;
  expect(result.isError).toBeFalsy();
  const text = result.content.find((c) => c.type === 'text')?.text ?? '';
  return JSON.parse(text);
}

const post = async (route: string, body: unknown, headers: Record<string, string> = { authorization: `Bearer ${apiKey}` }) => {
  const res = await fetch(`${trawl.baseUrl}${route}`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: typeof body === 'string' ? body : JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as any };
};

describe('firecrawl-mcp', () => {
  it('scrapes, maps and searches through Trawl', async () => {
    const scraped = await tool('firecrawl_scrape', { url: `${site.url}/article`, formats: ['markdown'] });
    expect(scraped.markdown).toContain('Trawling is a method of fishing');
    const mapped = await tool('firecrawl_map', { url: `${site.url}/tree/`, limit: 5, sitemap: 'skip' });
    expect(mapped.links).toHaveLength(5);
    const found = await tool('firecrawl_search', { query: 'trawling', limit: 1 });
    expect(JSON.stringify(found)).toContain(`${site.url}/article`);
  });

  it('crawls through its waiter and reads a crawl\'s status', async () => {
    const crawled = await tool('firecrawl_crawl', { url: `${site.url}/tree/`, limit: 12, sitemap: 'skip' });
    expect(crawled.status).toBe('completed');
    expect(crawled.data).toHaveLength(12);
    const status = await tool('firecrawl_check_crawl_status', { id: crawled.id });
    expect(status).toMatchObject({ status: 'completed', completed: 12 });
    expect(status.data).toHaveLength(12);
  });
});

describe('behind a reverse proxy (PUBLIC_BASE_URL)', () => {
  it('the start answer and every next link carry the public address, and following them through it reads on', async () => {
    const account = await trawl.createAccount();
    const auth = { authorization: `Bearer ${account.apiKey}` };
    const read = async (url: string) => (await (await fetch(url, { headers: auth })).json()) as any;
    for (const version of ['v2', 'v1']) {
      const started = await post(`/${version}/crawl`, { url: `${site.url}/tree/`, limit: 3, sitemap: 'skip' }, auth);
      const { id } = started.body;
      expect(started.body.url).toBe(`${frontUrl}/${version}/crawl/${id}`);
      await pollUntil(async () => (await read(`${trawl.baseUrl}/${version}/crawl/${id}`)).status === 'completed', 'the crawl to complete', 30_000, 100);
      // Asked of the gateway itself, the links still name the public address.
      const first = await read(`${trawl.baseUrl}/${version}/crawl/${id}?limit=1`);
      expect(first.data).toHaveLength(1);
      expect(first.next).toBe(`${frontUrl}/${version}/crawl/${id}?skip=1&limit=1`);
      const second = await read(first.next);
      expect(second.data).toHaveLength(1);
      expect(second.data[0].metadata.sourceURL).not.toBe(first.data[0].metadata.sourceURL);
      expect(second.next).toBe(`${frontUrl}/${version}/crawl/${id}?skip=2&limit=1`);
      const last = await read(second.next);
      expect(last.data).toHaveLength(1);
      expect(last).not.toHaveProperty('next');
    }
  });
});

describe('raw HTTP', () => {
  it('Dify\'s connection check: POST /v1/crawl with limit 1 answers 200', async () => {
    const res = await post('/v1/crawl', { url: `${site.url}/article`, limit: 1 }, { authorization: `Bearer ${apiKey}` });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, id: expect.any(String) });
    // Its page is charged when stored: wait for it, so the balance checks below see no charge of its.
    await pollUntil(async () => {
      const status = await fetch(`${trawl.baseUrl}/v1/crawl/${res.body.id}`, { headers: { authorization: `Bearer ${apiKey}` } });
      return ((await status.json()) as { status: string }).status === 'completed';
    }, 'the check\'s crawl to complete', 30_000, 100);
  });

  it('takes the key as x-api-key too', async () => {
    const res = await post('/v2/scrape', { url: `${site.url}/article` }, { 'x-api-key': apiKey });
    expect(res.status).toBe(200);
    expect(res.body.data.markdown).toContain('Trawling');
  });

  it('refuses in Firecrawl\'s shape, every issue listed, nothing charged', async () => {
    const before = await balance();
    const bad = await post('/v2/scrape', { url: 'ftp://example.com', formats: ['json'], waitFor: -1 });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ success: false, code: 'BAD_REQUEST', error: expect.stringMatching(/waitFor/) });
    expect(bad.body.details.length).toBeGreaterThanOrEqual(1);
    const malformed = await post('/v2/crawl', '{not json');
    expect(malformed.status).toBe(400);
    expect(malformed.body).toMatchObject({ success: false });
    const noKey = await post('/v2/scrape', { url: `${site.url}/article` }, {});
    expect(noKey.status).toBe(401);
    expect(noKey.body).toMatchObject({ success: false, error: expect.stringMatching(/^Unauthorized/) });
    const webhook = await post('/v2/crawl', { url: `${site.url}/tree/`, webhook: 'https://example.com/hook' });
    expect(webhook.status).toBe(400);
    expect(webhook.body.error).toMatch(/webhook/);
    expect(await balance()).toBe(before);
  });

  it('answers 402 when the credits are gone, uncharged', async () => {
    await trawl.db.pool.query('UPDATE accounts SET balance = 0 WHERE id = $1', [accountId]);
    const res = await post('/v2/scrape', { url: `${site.url}/article` });
    expect(res.status).toBe(402);
    expect(res.body.success).toBe(false);
    expect(await balance()).toBe(0);
  });
});
