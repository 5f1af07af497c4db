/**
 * `/mcp` end to end: the MCP SDK's own client over real HTTP against the running gateway (standalone: gateway +
 * workers), loopback fixture sites, and a fixture search upstream serving real captured Google pages from
 * ../shared/corpus (the serp_search cases skip, with a message, when it is absent). Plus plain-fetch JSON-RPC, to
 * show a client without the SDK works.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { CORPUS_DIR } from './support/env.js';
import { corpusPresent } from './support/requires.js';
import { ARTICLE, html, startFixtureServer, type FixtureServer } from './support/fixture-server.js';
import { key, startHarness, type Harness } from './support/harness.js';
import { pollUntil } from './support/poll.js';

const GOOGLE = `${CORPUS_DIR}/serp/google/zlurad-serp-parser/desktop-2023/html`;
const hasCorpus = corpusPresent(GOOGLE, 'the mcp e2e serp_search cases');
const ALLOWED_ORIGIN = 'http://localhost:6274';

let trawl: Harness;
let site: FixtureServer;
let upstream: FixtureServer;
const held: ServerResponse[] = [];
const clients: Client[] = [];

beforeAll(async () => {
  const google = (file: string) => (hasCorpus ? gunzipSync(readFileSync(`${GOOGLE}/${file}`)).toString('utf8') : '');
  const pages = { coffee: google('coffee.html.gz'), captcha: google('recaptcha.html.gz') };
  upstream = await startFixtureServer({
    '/search': (req, res) => {
      const q = new URL(req.url!, 'http://x').searchParams.get('q');
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(q === 'always blocked' ? pages.captcha : pages.coffee);
    },
  });
  site = await startFixtureServer({
    '/a': (_q, res) => void res.writeHead(200, { 'content-type': 'text/html' }).end(ARTICLE),
    '/b': (_q, res) => void res.writeHead(200, { 'content-type': 'text/html' }).end(html('<main><h1>Second page</h1><p>Nets and boats.</p></main>', 'Second')),
    '/hold': (_q, res) => void held.push(res),
  });
  trawl = await startHarness({
    GOOGLE_BASE_URL: upstream.url,
    GOOGLE_TRANSPORT: 'http',
    SERP_PROXY_ATTEMPTS: '1',
    MCP_ALLOWED_ORIGINS: ALLOWED_ORIGIN,
    CRAWL_TIMEOUT_MS: '20000',
  });
});

afterAll(async () => {
  for (const res of held) res.destroy();
  await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
  await trawl?.close();
  await site?.close();
  await upstream?.close();
});

async function connect(headers: Record<string, string>): Promise<Client> {
  const client = new Client({ name: 'trawl-e2e', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${trawl.baseUrl}/mcp`), { requestInit: { headers } });
  await client.connect(transport);
  clients.push(client);
  return client;
}

const call = (client: Client, name: string, args: Record<string, unknown>) => client.callTool({ name, arguments: args }) as Promise<CallToolResult>;
const creditsOf = (result: CallToolResult) => result._meta?.['trawl/credits'] as number;
const errorOf = (result: CallToolResult) => {
  expect(result.isError).toBe(true);
  return JSON.parse((result.content[0] as { text: string }).text).error as { code: string; message: string };
};

async function balance(accountId: string) {
  return (await trawl.admin.report(accountId)).account.balance;
}

/** Leaves exactly `left` credits in the account, through the ledger as real usage would. */
async function drainTo(accountId: string, left: number) {
  const id = randomUUID();
  const current = await balance(accountId);
  await trawl.ledger.reserve(accountId, id, current - left, 60_000);
  await trawl.ledger.settle(id, current - left);
}

async function expectLedgerAgrees(accountId: string, reported: number) {
  const now = await balance(accountId);
  expect(await trawl.ledger.ledgerSum(accountId)).toBe(now);
  expect(10_000 - now).toBe(reported);
  const { rows } = await trawl.db.pool.query(`SELECT count(*)::int AS open FROM reservations WHERE account_id = $1 AND status = 'open'`, [accountId]);
  expect(rows[0].open).toBe(0);
}

const rpc = (body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${trawl.baseUrl}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });

describe('MCP with the SDK client', () => {
  it('initializes (protocol 2025-11-25, server info, tools capability, instructions)', async () => {
    const account = await trawl.createAccount();
    const client = await connect(key(account.apiKey));
    expect((client.transport as StreamableHTTPClientTransport).protocolVersion).toBe('2025-11-25');
    expect(client.getServerVersion()).toMatchObject({ name: 'trawl', version: expect.stringMatching(/^\d+\.\d+\.\d+/) });
    expect(client.getServerCapabilities()?.tools).toBeDefined();
    expect(client.getInstructions()).toMatch(/serp_search/);
  });

  it('lists the tools with required inputs, descriptions, annotations and output schemas', async () => {
    const account = await trawl.createAccount();
    const { tools } = await (await connect({ authorization: `Bearer ${account.apiKey}` })).listTools();
    expect(tools.map((t) => t.name)).toEqual(['crawl', 'serp_search', 'web_search', 'serp_maps', 'headful_browser', 'crawl_site', 'crawl_status', 'map_site']);
    const [crawl, serp, web, maps, headful] = tools;
    expect(crawl.inputSchema.required).toEqual(['urls']);
    expect(crawl.inputSchema.properties?.urls).toMatchObject({ type: 'array', items: { type: 'string' }, maxItems: 20 });
    expect(crawl.inputSchema.properties?.render_js).toMatchObject({ type: 'boolean', default: false });
    expect(serp.inputSchema.required).toEqual(['q']);
    expect(Object.keys(serp.inputSchema.properties ?? {})).toEqual(['q', 'gl', 'hl', 'tbs', 'page', 'num', 'type']);
    expect(serp.inputSchema.properties?.type).toMatchObject({ enum: ['search', 'news', 'images', 'places', 'shopping'], default: 'search' });
    expect(serp.inputSchema.properties?.num).toMatchObject({ type: 'integer', minimum: 1, maximum: 100, default: 10 });
    expect(web.inputSchema.required).toEqual(['query']);
    expect(web.inputSchema.properties?.max_pages).toMatchObject({ type: 'integer', minimum: 1, maximum: 10, default: 1 });
    expect(web.inputSchema.properties?.auto_crawling).toMatchObject({ type: 'boolean', default: false });
    expect(web.inputSchema.properties?.device).toMatchObject({ enum: ['desktop', 'mobile', 'tablet'], default: 'desktop' });
    expect(maps.inputSchema.required).toEqual(['q']);
    expect(Object.keys(maps.inputSchema.properties ?? {})).toEqual(['q', 'hl', 'll', 'placeId', 'cid']);
    expect(headful.inputSchema.required).toEqual(['url']);
    expect(Object.keys(headful.inputSchema.properties ?? {})).toEqual(['url', 'output_format', 'country']);
    expect(headful.inputSchema.properties?.output_format).toMatchObject({ enum: ['markdown', 'enhanced_html', 'raw_html', 'page_text'], default: 'markdown' });
    expect(headful.inputSchema.properties?.country).toMatchObject({ default: 'us' });
    expect(headful.outputSchema?.required).toEqual(expect.arrayContaining(['data', 'credits_used', 'credits_remaining']));
    for (const tool of tools) {
      expect(tool.description).toMatch(/credit/);
      // crawl_site starts a job that runs on after the call.
      expect(tool.annotations).toMatchObject({ readOnlyHint: tool.name !== 'crawl_site', openWorldHint: true });
      expect(tool.outputSchema?.type).toBe('object');
      for (const property of Object.values(tool.inputSchema.properties ?? {})) expect((property as { description?: string }).description).toBeTruthy();
    }
  });

  it('crawl: Markdown to read, the /crawl body as structured content, 1 credit', async () => {
    const account = await trawl.createAccount();
    const client = await connect(key(account.apiKey));
    const result = await call(client, 'crawl', { urls: [`${site.url}/a`], enhanced_html: false });
    expect(result.isError).toBeFalsy();
    const body = result.structuredContent as any;
    expect(body.credits).toBe(1);
    expect(body.successful_pages).toBe(1);
    expect(body.results[0]).toMatchObject({ url: `${site.url}/a`, status_code: 200 });
    expect(body.results[0]).not.toHaveProperty('enhanced_html');
    expect(body.results[0].markdown).toMatch(/# Deep sea trawling/);
    const text = (result.content[0] as { text: string }).text;
    expect(text).toContain('Trawling is a method of fishing');
    expect(text).not.toMatch(/^\s*\{/); // readable, not a JSON dump
    expect(creditsOf(result)).toBe(1);
    await expectLedgerAgrees(account.accountId, 1);
  });

  it('crawl: a malformed entry among the urls fails that URL (INVALID_URL, 0 credits), not the call', async () => {
    const account = await trawl.createAccount();
    const client = await connect(key(account.apiKey));
    const result = await call(client, 'crawl', { urls: ['nope', `${site.url}/a`] });
    expect(result.isError).toBeFalsy();
    const body = result.structuredContent as any;
    expect(body.results).toEqual([
      { url: 'nope', error: expect.stringMatching(/^INVALID_URL: "nope" is not a valid absolute URL/) },
      expect.objectContaining({ url: `${site.url}/a`, status_code: 200, markdown: expect.stringMatching(/Deep sea trawling/) }),
    ]);
    expect(body).toMatchObject({ credits: 1, successful_pages: 1 });
    await expectLedgerAgrees(account.accountId, 1);
  });

  it('crawl: screenshot without render_js is ignored as on REST (spec §4.4): 1 credit, no screenshot', async () => {
    const account = await trawl.createAccount();
    const client = await connect(key(account.apiKey));
    const result = await call(client, 'crawl', { urls: [`${site.url}/a`], screenshot: true, screenshot_full_page: true });
    expect(result.isError).toBeFalsy();
    const body = result.structuredContent as any;
    expect(body).toMatchObject({ credits: 1, successful_pages: 1 });
    expect(body.results[0]).not.toHaveProperty('screenshot');
    expect(result.content.some((b) => b.type === 'image')).toBe(false);
    expect(creditsOf(result)).toBe(1);
    await expectLedgerAgrees(account.accountId, 1);
  });

  (hasCorpus ? it : it.skip)('serp_search: structured results with positions and the parameter echo, 10 credits', async () => {
    const account = await trawl.createAccount();
    const client = await connect(key(account.apiKey));
    const result = await call(client, 'serp_search', { q: 'coffee', gl: 'de', hl: 'de', num: 20, page: 2, tbs: 'qdr:w' });
    expect(result.isError).toBeFalsy();
    const body = result.structuredContent as any;
    expect(body.parameters).toEqual({ q: 'coffee', gl: 'de', hl: 'de', num: 20, page: 2, type: 'search', tbs: 'qdr:w' });
    expect(body.serp_search_results[0].position).toBe(21);
    const text = (result.content[0] as { text: string }).text;
    expect(text).toContain(`21. [${body.serp_search_results[0].title}](${body.serp_search_results[0].link})`);
    expect(creditsOf(result)).toBe(10);
    await expectLedgerAgrees(account.accountId, 10);
  });

  (hasCorpus ? it : it.skip)('serp_search blocked upstream: isError with the REST code, 0 credits', async () => {
    const account = await trawl.createAccount();
    const client = await connect(key(account.apiKey));
    const result = await call(client, 'serp_search', { q: 'always blocked' });
    expect(errorOf(result).code).toBe('UPSTREAM_BLOCKED');
    expect(result._meta?.['trawl/status']).toBe(500);
    await expectLedgerAgrees(account.accountId, 0);
  });

  it('bad input is a tool result with isError and the same code and message as REST; nothing charged', async () => {
    const account = await trawl.createAccount();
    const client = await connect(key(account.apiKey));
    const cases: Array<[string, Record<string, unknown>, string]> = [
      ['crawl', { urls: ['not a url'] }, `/crawl?urls=${encodeURIComponent('not a url')}`],
      ['crawl', { urls: [`${site.url}/a`], geolocation: 'xx' }, `/crawl?urls=${encodeURIComponent(`${site.url}/a`)}&geolocation=xx`],
      ['serp_search', { q: 'x', num: 101 }, '/serp-search?q=x&num=101'],
      ['serp_search', { q: 'x', type: 'videos' }, '/serp-search?q=x&type=videos'],
      ['serp_search', {}, '/serp-search'],
    ];
    for (const [tool, args, rest] of cases) {
      const viaMcp = errorOf(await call(client, tool, args));
      const viaRest = await trawl.get(rest, key(account.apiKey));
      expect(viaRest.status).toBe(400);
      expect(viaMcp).toEqual(viaRest.body.error);
    }
    const wrongType = errorOf(await call(client, 'crawl', { urls: 'https://site.example' }));
    expect(wrongType).toEqual({ code: 'INVALID_PARAMETER', message: 'urls is required: one URL or a comma-separated list' });
    await expectLedgerAgrees(account.accountId, 0);
  });

  it('an unknown tool is a JSON-RPC error, not a tool result', async () => {
    const account = await trawl.createAccount();
    const client = await connect(key(account.apiKey));
    await expect(call(client, 'no_such_tool', {})).rejects.toThrow(/Unknown tool: no_such_tool/);
  });

  it('a call the balance does not cover: isError with the REST code and message, nothing runs', async () => {
    const account = await trawl.createAccount();
    await drainTo(account.accountId, 2);
    const client = await connect(key(account.apiKey));
    const before = site.hits.get('/b') ?? 0;
    const urls = ['/b?1', '/b?2', '/b?3'].map((p) => `${site.url}${p}`);
    const crawl = errorOf(await call(client, 'crawl', { urls }));
    const rest = await trawl.get(`/crawl?urls=${encodeURIComponent(urls.join(','))}`, key(account.apiKey));
    expect(rest.status).toBe(429);
    expect(crawl).toEqual(rest.body.error);
    expect(crawl.code).toBe('CREDITS_EXHAUSTED');
    expect(errorOf(await call(client, 'serp_search', { q: 'coffee' })).code).toBe('INSUFFICIENT_CREDITS');
    expect(site.hits.get('/b') ?? 0).toBe(before);
    expect(await balance(account.accountId)).toBe(2);
  });

  it('the concurrency limit holds across MCP calls (exact REST message), and frees up afterwards', async () => {
    const account = await trawl.createAccount('free'); // 5 concurrent
    const client = await connect(key(account.apiKey));
    const running = Array.from({ length: 5 }, (_, i) => call(client, 'crawl', { urls: [`${site.url}/hold?${i}`] }));
    await pollUntil(() => held.length === 5, 'five crawls held at the fixture site');
    const refused = errorOf(await call(client, 'crawl', { urls: [`${site.url}/a`] }));
    expect(refused).toEqual({ code: 'CONCURRENCY_LIMIT', message: 'Concurrent request limit reached (5). Please wait for other requests to finish.' });
    for (const res of held.splice(0)) res.writeHead(200, { 'content-type': 'text/html' }).end(ARTICLE);
    const results = await Promise.all(running);
    expect(results.every((r) => !r.isError)).toBe(true);
    const after = await call(client, 'crawl', { urls: [`${site.url}/a`] });
    expect(after.isError).toBeFalsy();
    await expectLedgerAgrees(account.accountId, [...results, after].reduce((sum, r) => sum + creditsOf(r), 0));
  });

  it('two calls in one session are two metered calls: charged separately, each with its own request-log row', async () => {
    const account = await trawl.createAccount();
    const client = await connect(key(account.apiKey));
    const first = await call(client, 'crawl', { urls: [`${site.url}/a`] });
    const second = await call(client, 'crawl', { urls: [`${site.url}/a`, `${site.url}/b`] });
    expect([creditsOf(first), creditsOf(second)]).toEqual([1, 2]);
    await expectLedgerAgrees(account.accountId, 3);
    const rows = await pollUntil(async () => {
      const { rows } = await trawl.db.pool.query(`SELECT id, endpoint, credits FROM request_log WHERE account_id = $1 ORDER BY created_at`, [account.accountId]);
      return rows.length === 2 ? rows : null;
    }, 'two request-log rows');
    expect(rows.map((r) => [r.endpoint, r.credits])).toEqual([['mcp:crawl', 1], ['mcp:crawl', 2]]);
    expect(rows[0].id).not.toBe(rows[1].id);
  });

  it('the ledger agrees with what the tool results reported over a mixed run', async () => {
    const account = await trawl.createAccount();
    const client = await connect(key(account.apiKey));
    const results = [
      await call(client, 'crawl', { urls: [`${site.url}/a`, 'http://127.0.0.1:1/refused'] }),
      await call(client, 'crawl', { urls: [`${site.url}/missing`] }),
      await call(client, 'crawl', { urls: ['nope'] }),
      await call(client, 'crawl', { urls: ['http://127.0.0.1:1/only-failure'] }),
    ];
    if (hasCorpus) results.push(await call(client, 'serp_search', { q: 'coffee' }), await call(client, 'serp_search', { q: 'always blocked' }));
    const reported = results.reduce((sum, r) => sum + creditsOf(r), 0);
    expect(reported).toBe(hasCorpus ? 12 : 2);
    await expectLedgerAgrees(account.accountId, reported);
  });
});

describe('MCP over HTTP, before and around the protocol', () => {
  it('refuses a request without a key with 401 and WWW-Authenticate, before any MCP exchange', async () => {
    const res = await rpc({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('Bearer realm="trawl"');
    expect((await res.json()).error.code).toBe('UNAUTHORIZED');
    const wrong = await rpc({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, { 'x-api-key': 'trawl_notarealkey000000000000000000' });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('www-authenticate')).toMatch(/error="invalid_token"/);
    await expect(connect({})).rejects.toThrow();
  });

  it('refuses a suspended account with 403 ACCOUNT_SUSPENDED, as REST does', async () => {
    const account = await trawl.createAccount();
    await trawl.admin.setStatus(account.accountId, 'suspended');
    const res = await rpc({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, key(account.apiKey));
    expect(res.status).toBe(403);
    expect((await res.json()).error.code).toBe('ACCOUNT_SUSPENDED');
  });

  it('refuses a foreign Origin with 403 on every request; an allowed Origin gets CORS headers; no Origin passes', async () => {
    const account = await trawl.createAccount();
    const list = { jsonrpc: '2.0', id: 1, method: 'tools/list' };
    const foreign = await rpc(list, { ...key(account.apiKey), origin: 'http://evil.example' });
    expect(foreign.status).toBe(403);
    expect((await foreign.json()).error.code).toBe('FORBIDDEN');
    expect((await rpc(list, { origin: 'null', ...key(account.apiKey) })).status).toBe(403);
    const allowed = await rpc(list, { ...key(account.apiKey), origin: ALLOWED_ORIGIN });
    expect(allowed.status).toBe(200);
    expect(allowed.headers.get('access-control-allow-origin')).toBe(ALLOWED_ORIGIN);
    const preflight = await fetch(`${trawl.baseUrl}/mcp`, { method: 'OPTIONS', headers: { origin: ALLOWED_ORIGIN, 'access-control-request-method': 'POST' } });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-headers')).toMatch(/x-api-key/);
    expect((await rpc(list, key(account.apiKey))).status).toBe(200);
  });

  it('answers the OAuth discovery documents with a real 404', async () => {
    for (const path of [
      '/.well-known/oauth-authorization-server',
      '/.well-known/oauth-protected-resource',
      '/.well-known/oauth-protected-resource/mcp',
      '/.well-known/oauth-authorization-server/mcp',
      '/.well-known/openid-configuration',
    ]) {
      const res = await trawl.get(path);
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('NOT_FOUND');
    }
  });

  it('a plain JSON-RPC client works: initialize, initialized, tools/list, tools/call; GET → 405', async () => {
    const account = await trawl.createAccount();
    const auth = key(account.apiKey);
    const init = await rpc(
      { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'curl', version: '1' } } },
      auth,
    );
    expect(init.status).toBe(200);
    expect(init.headers.get('content-type')).toMatch(/application\/json/);
    expect(init.headers.get('mcp-session-id')).toBeNull(); // stateless
    const initBody = await init.json();
    expect(initBody.result.protocolVersion).toBe('2025-11-25');
    expect(initBody.result.serverInfo.name).toBe('trawl');
    const v = { ...auth, 'mcp-protocol-version': '2025-11-25' };
    expect((await rpc({ jsonrpc: '2.0', method: 'notifications/initialized' }, v)).status).toBe(202);
    const list = await (await rpc({ jsonrpc: '2.0', id: 2, method: 'tools/list' }, v)).json();
    expect(list.result.tools.map((t: { name: string }) => t.name)).toEqual(['crawl', 'serp_search', 'web_search', 'serp_maps', 'headful_browser', 'crawl_site', 'crawl_status', 'map_site']);
    const called = await (await rpc({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'crawl', arguments: { urls: [`${site.url}/b`] } } }, v)).json();
    expect(called.id).toBe(3);
    expect(called.result.structuredContent.credits).toBe(1);
    const get = await fetch(`${trawl.baseUrl}/mcp`, { headers: { ...v, accept: 'text/event-stream' } });
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    expect((await fetch(`${trawl.baseUrl}/mcp`, { method: 'DELETE', headers: v })).status).toBe(405);
  });

  it('a batch (protocol 2025-03-26) with two tool calls charges each once', async () => {
    const account = await trawl.createAccount();
    const headers = { ...key(account.apiKey), 'mcp-protocol-version': '2025-03-26' };
    const crawl = (id: number, path: string) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'crawl', arguments: { urls: [`${site.url}${path}`] } } });
    const res = await rpc([crawl(1, '/a'), crawl(2, '/b')], headers);
    expect(res.status).toBe(200);
    const answers = (await res.json()) as Array<{ id: number; result: CallToolResult }>;
    expect(answers.map((a) => a.id).sort()).toEqual([1, 2]);
    expect(answers.map((a) => creditsOf(a.result))).toEqual([1, 1]);
    await expectLedgerAgrees(account.accountId, 2);
  });

  it('protocol errors stay JSON-RPC errors: malformed JSON, unknown method, unsupported protocol version, wrong content type', async () => {
    const account = await trawl.createAccount();
    const auth = key(account.apiKey);
    const malformed = await rpc('{"jsonrpc": "2.0", "id": 1, "method": ', auth);
    expect(malformed.status).toBe(400);
    expect((await malformed.json()).error.code).toBe(-32700);
    const unknown = await (await rpc({ jsonrpc: '2.0', id: 7, method: 'no/such/method' }, auth)).json();
    expect(unknown).toMatchObject({ id: 7, error: { code: -32601 } });
    const version = await rpc({ jsonrpc: '2.0', id: 8, method: 'tools/list' }, { ...auth, 'mcp-protocol-version': '1999-01-01' });
    expect(version.status).toBe(400);
    // The 2026-07-28 revision is not served yet (docs/mcp.md): negotiated down, refused in the header, no server/discover.
    const newer = await rpc(
      { jsonrpc: '2.0', id: 9, method: 'initialize', params: { protocolVersion: '2026-07-28', capabilities: {}, clientInfo: { name: 'next', version: '1' } } },
      auth,
    );
    expect((await newer.json()).result.protocolVersion).toBe('2025-11-25');
    expect((await rpc({ jsonrpc: '2.0', id: 10, method: 'tools/list' }, { ...auth, 'mcp-protocol-version': '2026-07-28' })).status).toBe(400);
    expect(await (await rpc({ jsonrpc: '2.0', id: 11, method: 'server/discover', params: {} }, auth)).json()).toMatchObject({ id: 11, error: { code: -32601 } });
    const ping = await rpc({ jsonrpc: '2.0', id: 12, method: 'ping' }, { ...auth, accept: 'application/json' });
    expect(await ping.json()).toEqual({ jsonrpc: '2.0', id: 12, result: {} });
    const notJson = await fetch(`${trawl.baseUrl}/mcp`, { method: 'POST', headers: { ...auth, 'content-type': 'text/plain', accept: 'application/json, text/event-stream' }, body: 'hi' });
    expect(notJson.status).toBe(415);
  });
});
