/**
 * Hostile input (issue #14): inputs generated per endpoint from its own schema — wrong types, encodings, huge and
 * repeated values, unicode, URL tricks, unknown parameters, methods, header and framing tricks — against a real
 * Trawl (gateway + workers, Postgres, Redis). Every answer is a 4xx in the contract's shape (or the documented
 * answer to a valid input), never a 5xx, never a charge; the gateway is still healthy afterwards.
 *
 * ALLOW_PRIVATE_ADDRESSES=false here, as in production: internal-address URLs are crawled with a funded key and
 * must fail per URL at 0 credits.
 */
import type { Type } from '@nestjs/common';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { apiLimits } from '#config';
import { API_ENDPOINTS, crawlEndpoint, type ApiLimits } from '#contracts';
import { ADMIN_BODIES } from '#apps/gateway/src/admin/admin-bodies.js';
import { AdminController } from '#apps/gateway/src/admin/admin.controller.js';
import { GatewayModule } from '#apps/gateway/src/gateway.module.js';
import { MCP_TOOLS } from '#apps/gateway/src/mcp/mcp-tools.js';
import { startOpenAiFixture, type OpenAiFixture } from '#llm/testing/openai-fixture.js';
import { key, startHarness, type Harness } from '../support/harness.js';
import { tableResolver } from '../support/offline.js';
import { pollUntil } from '../support/poll.js';
import { adminBodyProbes, adminTokenProbes, pathParamProbes } from './hostile-input/admin-probes.js';
import { COMMON_RAW, URL_ENTRIES } from './hostile-input/hostile-values.js';
import { apiKeyProbes, framingProbes, methodProbes, openRouteProbes } from './hostile-input/http-probes.js';
import { drainToZero, ledgerSnapshot, type LedgerSnapshot } from './hostile-input/ledger-snapshot.js';
import { mcpPost, mcpProtocolProbes, mcpToolProbes, type ListedTool } from './hostile-input/mcp-probes.js';
import { runProbes, type Probe } from './hostile-input/probes.js';
import { verdictOf } from './hostile-input/query-cases.js';
import { closeAgent } from './hostile-input/raw-http.js';
import { restQueryProbes, type ProbeKeys } from './hostile-input/rest-probes.js';
import { routesOf, type Route } from './hostile-input/route-catalog.js';

const ADMIN_TOKEN = 'hostile-admin-token-0123456789';
const PROXY_SECRET = 'hostile-proxy-secret-42';
const CONCURRENCY = 8;
/**
 * The DNS of the hostile names, answered by the test (never by a real DNS server): each names what it would be inside
 * a cloud or cluster. Any other name is ENOTFOUND.
 */
const INTERNAL_NAMES = {
  'metadata.google.internal': '169.254.169.254',
  'kubernetes.default.svc': '10.96.0.1',
  redis: '172.18.0.3',
  localhost: '127.0.0.1',
};
const dns = tableResolver(INTERNAL_NAMES);

let trawl: Harness;
let port: number;
let limits: ApiLimits;
let keys: ProbeKeys;
let secrets: string[];
const accounts: Record<'funded' | 'broke', { id: string; before?: LedgerSnapshot }> = { funded: { id: '' }, broke: { id: '' } };
let tried = 0;
/** Inputs tried per test, for the closing line. */
const triedBy: Record<string, number> = {};
let routes: Route[];

/** Path parameters of the route catalogue: an account id that exists nowhere, a screenshot key. */
const samplePathParam = (param: string) => (param === 'id' ? '00000000-0000-4000-8000-000000000000' : 'x');

/** An LLM is configured, so the LLM formats' parameters are judged by their schema too; its key must never be echoed. */
const LLM_SECRET = 'sk-hostile-llm-secret';
let llm: OpenAiFixture;

beforeAll(async () => {
  llm = await startOpenAiFixture();
  trawl = await startHarness({
    LLM_BASE_URL: llm.baseUrl,
    LLM_MODEL: 'fixture-model',
    LLM_API_KEY: LLM_SECRET,
    ALLOW_PRIVATE_ADDRESSES: 'false',
    ADMIN_TOKEN,
    // Every country served, so /headful-browser's schema is the reference's; the password must never be echoed.
    RESIDENTIAL_PROXY_URL: `http://user-country-{country}-session-{session}:${PROXY_SECRET}@127.0.0.1:9`,
    // A proxy for every country (and a named one for geolocation=random), so country parameters are judged by their schema.
    PROXIES: `us=http://user:${PROXY_SECRET}@127.0.0.1:9,*=http://127.0.0.1:9`,
  }, { resolve: dns });
  port = Number(new URL(trawl.baseUrl).port);
  limits = apiLimits(trawl.config);
  const funded = await trawl.createAccount('scale');
  const broke = await trawl.createAccount('scale');
  await drainToZero(trawl.db, broke.accountId);
  keys = { funded: funded.apiKey, broke: broke.apiKey };
  accounts.funded.id = funded.accountId;
  accounts.broke.id = broke.accountId;
  for (const account of Object.values(accounts)) account.before = await ledgerSnapshot(trawl.db, account.id);
  secrets = [ADMIN_TOKEN, PROXY_SECRET, LLM_SECRET, funded.apiKey, broke.apiKey, ...(trawl.config.DATABASE_URL ? [trawl.config.DATABASE_URL] : [])];
  routes = routesOf(GatewayModule.forRoot(trawl.config).controllers as Type<unknown>[], samplePathParam);
  await pollUntil(async () => (await trawl.get('/health')).status === 200, 'a healthy gateway', 30_000);
}, 60_000);

afterAll(async () => {
  const parts = Object.entries(triedBy).map(([name, n]) => `${name} ${n}`);
  console.log(`hostile-input: ${tried} inputs tried (${parts.join(', ')})`);
  closeAgent();
  await trawl?.close();
  await llm?.close();
});

async function expectNoDefects(probes: Probe[]): Promise<void> {
  const run = await runProbes(probes, CONCURRENCY, secrets);
  tried += run.tried;
  const name = expect.getState().currentTestName?.replace(/^hostile input /, '').split(/[,:(]/)[0].trim() ?? 'other';
  triedBy[name] = (triedBy[name] ?? 0) + run.tried;
  expect(run.failures.slice(0, 40)).toEqual([]);
}

describe('hostile input', () => {
  it('REST query strings, generated from each endpoint schema', async () => {
    await expectNoDefects(restQueryProbes(API_ENDPOINTS, limits, port, keys));
  }, 120_000);

  it('API-key header tricks and bodies on GETs, on every REST endpoint', async () => {
    await expectNoDefects(API_ENDPOINTS.flatMap((endpoint) => apiKeyProbes(endpoint, limits, port, keys)));
  }, 60_000);

  it('methods a route does not serve, on every route of every gateway controller', async () => {
    expect(routes.length).toBeGreaterThan(10);
    await expectNoDefects(methodProbes(routes, port, { 'x-api-key': keys.funded, authorization: `Bearer ${ADMIN_TOKEN}` }));
  }, 60_000);

  it('malformed HTTP on raw sockets: request lines, framing conflicts, oversize heads and bodies', async () => {
    await expectNoDefects(framingProbes(port, keys, ADMIN_TOKEN));
  }, 60_000);

  it('junk query strings on the routes without an API key', async () => {
    await expectNoDefects(openRouteProbes(port, ADMIN_TOKEN, COMMON_RAW.map((v) => `${v.raw.slice(0, 64)}=1&x=${v.raw}`)));
  }, 60_000);

  it('MCP tools/call arguments, generated from each listed tool input schema, and JSON-RPC tricks', async () => {
    const listed = await mcpPost(port, keys.funded, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }));
    const tools = (listed.json as { result: { tools: ListedTool[] } }).result.tools;
    expect(tools.map((t) => t.name).sort()).toEqual(MCP_TOOLS.map((t) => t.name).sort());
    const schemaOf = (name: string) => MCP_TOOLS.find((t) => t.name === name)!.schema(trawl.config);
    await expectNoDefects([...mcpToolProbes(tools, schemaOf, port, keys), ...mcpProtocolProbes(port, keys)]);
  }, 120_000);

  it('admin API: bodies from each handler schema and token tricks; path parameters of every route', async () => {
    const victim = await trawl.createAccount();
    const admin = routes.filter((route) => route.controller === AdminController.name);
    await expectNoDefects([
      ...adminBodyProbes(AdminController, ADMIN_BODIES, port, ADMIN_TOKEN, victim.accountId),
      ...adminTokenProbes(admin, port, ADMIN_TOKEN, keys.funded),
      ...pathParamProbes(routes, port, { authorization: `Bearer ${ADMIN_TOKEN}`, 'x-api-key': keys.funded }),
    ]);
  }, 120_000);

  it('charged nothing and left no reservation on either account', async () => {
    for (const account of Object.values(accounts)) expect(await ledgerSnapshot(trawl.db, account.id)).toEqual(account.before);
  });

  it.each([
    ['plain', false],
    ['rendered', true],
  ])('internal-address URLs the schema accepts fail per URL at 0 credits (%s, ALLOW_PRIVATE_ADDRESSES=false)', async (_mode, render) => {
    const account = await trawl.createAccount('scale');
    const before = await ledgerSnapshot(trawl.db, account.accountId);
    const accepted = URL_ENTRIES.filter((entry) => {
      const verdict = verdictOf(crawlEndpoint, limits, `urls=${entry.raw}`);
      return 'valid' in verdict && verdict.valid;
    });
    expect(accepted.length).toBeGreaterThan(15);
    for (let i = 0; i < accepted.length; i += limits.crawlMaxUrls) {
      const urls = accepted.slice(i, i + limits.crawlMaxUrls).map((entry) => entry.raw).join(',');
      const res = await trawl.get(`/crawl?urls=${urls}&render_js=${render}`, key(account.apiKey));
      tried += 1;
      expect(res.status).toBe(200);
      expect(res.body.credits).toBe(0);
      for (const secret of secrets) expect(JSON.stringify(res.body)).not.toContain(secret);
      for (const result of res.body.results as Array<{ url: string; error?: string }>) {
        expect(result.error ?? `${result.url} was fetched`).toMatch(/^(BLOCKED_ADDRESS|DNS_FAILED|INVALID_URL): /);
        // A name that resolves to an internal address is refused for that address, not for a failed lookup.
        const host = URL.canParse(result.url) ? new URL(result.url).hostname : '';
        if (host in INTERNAL_NAMES) expect({ host, error: result.error }).toEqual({ host, error: expect.stringMatching(/^BLOCKED_ADDRESS: /) });
      }
    }
    // The names were answered by the injected resolver.
    for (const name of ['metadata.google.internal', 'kubernetes.default.svc']) expect(dns.asked).toContain(name);
    const after = await ledgerSnapshot(trawl.db, account.accountId);
    expect({ balance: after.balance, sum: after.ledgerSum }).toEqual({ balance: before.balance, sum: before.ledgerSum });
    const { rows } = await trawl.db.pool.query(`SELECT count(*)::int AS open FROM reservations WHERE account_id = $1 AND status = 'open'`, [account.accountId]);
    expect(rows[0].open).toBe(0);
  }, 120_000);

  it.each([
    ['plain', false],
    ['rendered', true],
  ])('a proxy that fails (geolocation) fails the URL at 0 credits without showing its password (%s)', async (_mode, render) => {
    const account = await trawl.createAccount('scale');
    const before = await ledgerSnapshot(trawl.db, account.accountId);
    for (const country of ['us', 'DE', 'random']) {
      // A `.invalid` host never resolves (RFC 6761); through a proxy the name goes to the proxy, which here is dead.
      const res = await trawl.get(`/crawl?urls=${encodeURIComponent('http://unreachable.invalid/')}&geolocation=${country}&render_js=${render}`, key(account.apiKey));
      tried += 1;
      if (country === 'random') {
        // /crawl takes a country code only; random belongs to /search.
        expect(res.status).toBe(400);
        expect(res.body.error.message).toMatch(/geolocation/);
        continue;
      }
      expect(res.status).toBe(200);
      expect(res.body.credits).toBe(0);
      expect(res.body.results[0].error).toMatch(/^[A-Z_]+: /);
      for (const secret of secrets) expect(JSON.stringify(res.body)).not.toContain(secret);
    }
    expect((await ledgerSnapshot(trawl.db, account.accountId)).balance).toBe(before.balance);
  }, 120_000);

  it('leaves the gateway healthy', async () => {
    const health = await trawl.get('/health');
    expect(health.status).toBe(200);
  });
});
