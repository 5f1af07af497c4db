/**
 * Specification conformance, across the endpoints: authentication (§5), the error body and statuses (§7), the plans
 * (§2.6) and the concurrency and credit limits (§8), against the real gateway and workers.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { ARTICLE, startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { startHarness, type Harness } from '../support/harness.js';
import { expectError } from './support/shape.js';

let trawl: Harness;
let site: FixtureServer;
const held: import('node:http').ServerResponse[] = [];

/** A request to each data endpoint that passes authentication and then fails validation: its required parameter is missing. */
const ENDPOINTS = ['/search', '/serp-search', '/serp-maps', '/crawl', '/headful-browser'] as const;

/** Leaves exactly `left` credits in the account (through the ledger, as real usage would). */
async function drainTo(accountId: string, left: number) {
  const { account } = await trawl.admin.report(accountId);
  const id = randomUUID();
  await trawl.ledger.reserve(accountId, id, account.balance - left, 60_000);
  await trawl.ledger.settle(id, account.balance - left);
}

beforeAll(async () => {
  site = await startFixtureServer({
    '/article': (_req, res) => void res.writeHead(200, { 'content-type': 'text/html' }).end(ARTICLE),
    '/hold': (_req, res) => void held.push(res),
  });
  trawl = await startHarness({ CRAWL_TIMEOUT_MS: '20000' });
});

afterAll(async () => {
  for (const res of held) res.destroy();
  await trawl?.close();
  await site?.close();
});

describe('§5 authentication: x-api-key or Authorization: Bearer, on every endpoint', () => {
  it.each(ENDPOINTS)('%s: both headers are accepted (the request then fails only its own validation, 400)', async (path) => {
    const { apiKey } = await trawl.createAccount();
    for (const headers of [{ 'x-api-key': apiKey }, { authorization: `Bearer ${apiKey}` }] as Record<string, string>[]) {
      expectError(await trawl.get(path, headers), 400, 'INVALID_PARAMETER');
    }
  });

  it.each(ENDPOINTS)('%s: a missing or invalid key is 401 UNAUTHORIZED, the message saying so', async (path) => {
    for (const headers of [{}, { 'x-api-key': 'trawl_notarealkeynotarealkeynotarealkey00' }, { authorization: 'Bearer trawl_notarealkey' }] as Record<string, string>[]) {
      const res = await trawl.get(path, headers);
      expectError(res, 401, 'UNAUTHORIZED');
      expect(res.body.error.message).toMatch(/key/i);
    }
  });

  it("an Authorization of another scheme (a proxy's Basic) beside a valid x-api-key does not hide the key", async () => {
    const { apiKey } = await trawl.createAccount();
    const res = await trawl.get(`/crawl?urls=${encodeURIComponent(`${site.url}/article`)}`, { 'x-api-key': apiKey, authorization: 'Basic dXNlcjpwYXNz' });
    expect(res.status).toBe(200);
    expect(res.body.successful_pages).toBe(1);
  });
});

describe('§7 statuses', () => {
  it('403 for /serp-maps on an inactive account', async () => {
    const account = await trawl.createAccount();
    await trawl.admin.setStatus(account.accountId, 'suspended');
    expectError(await trawl.get('/serp-maps?q=coffee', { 'x-api-key': account.apiKey }), 403);
  });

  it('402 for /serp-search with insufficient credits; 429 for the others (§7 rows 402, 429)', async () => {
    const account = await trawl.createAccount();
    await drainTo(account.accountId, 0);
    const headers = { 'x-api-key': account.apiKey };
    expectError(await trawl.get('/serp-search?q=coffee', headers), 402);
    expectError(await trawl.get('/serp-maps?q=coffee', headers), 429);
    expectError(await trawl.get('/search?query=coffee', headers), 429);
    expectError(await trawl.get(`/crawl?urls=${encodeURIComponent(`${site.url}/article`)}`, headers), 429);
  });

  it('429 past the plan\'s concurrent limit, with the message the spec writes', async () => {
    const account = await trawl.createAccount('free');
    const headers = { 'x-api-key': account.apiKey };
    const running = Array.from({ length: 5 }, (_, i) => trawl.get(`/crawl?urls=${encodeURIComponent(`${site.url}/hold?${i}`)}`, headers));
    const deadline = Date.now() + 20_000;
    while (held.length < 5 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(held.length).toBeGreaterThanOrEqual(5);
    const refused = await trawl.get(`/crawl?urls=${encodeURIComponent(`${site.url}/article`)}`, headers);
    expectError(refused, 429);
    expect(refused.body.error.message).toBe('Concurrent request limit reached (5). Please wait for other requests to finish.');
    for (const res of held.splice(0)) res.writeHead(200, { 'content-type': 'text/html' }).end(ARTICLE);
    expect((await Promise.all(running)).map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
  });
});

describe('§2.6 plans', () => {
  it.each([
    ['free', 10_000, 5, 0],
    ['developer', 100_000, 20, 20],
    ['pro', 1_000_000, 50, 100],
    ['scale', 2_500_000, 100, 200],
  ])('%s: %i credits a month, %i concurrent requests, %i USD', async (id, credits, concurrency, usd) => {
    const plan = (await trawl.admin.plans()).find((p) => p.id === id);
    expect(plan).toMatchObject({ monthlyCredits: credits, concurrencyLimit: concurrency, priceUsdCents: usd * 100 });
    const account = await trawl.createAccount(id);
    expect((await trawl.admin.report(account.accountId)).account.balance).toBe(credits);
  });
});
