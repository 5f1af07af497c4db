/** Authentication and account state at the HTTP edge (spec §5, §7). */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ARTICLE, startFixtureServer, type FixtureServer } from './support/fixture-server.js';
import { startHarness, type Harness } from './support/harness.js';
import { pollUntil } from './support/poll.js';

let trawl: Harness;
let site: FixtureServer;
let crawlPath: string;

beforeAll(async () => {
  site = await startFixtureServer({ '/a': (_q, res) => void res.writeHead(200, { 'content-type': 'text/html' }).end(ARTICLE) });
  trawl = await startHarness({ AUTH_CACHE_MS: '60000' });
  crawlPath = `/crawl?urls=${encodeURIComponent(`${site.url}/a`)}`;
});

afterAll(async () => {
  await trawl?.close();
  await site?.close();
});

describe('authentication', () => {
  it('accepts the key in x-api-key and in Authorization: Bearer', async () => {
    const { apiKey } = await trawl.createAccount();
    expect((await trawl.get(crawlPath, { 'x-api-key': apiKey })).status).toBe(200);
    expect((await trawl.get(crawlPath, { authorization: `Bearer ${apiKey}` })).status).toBe(200);
    expect((await trawl.get(crawlPath, { 'x-api-key': apiKey, authorization: `Bearer ${apiKey}` })).status).toBe(200);
  });

  it("does not let an Authorization of another scheme (a proxy's Basic) hide a valid x-api-key", async () => {
    const { apiKey } = await trawl.createAccount();
    for (const authorization of ['Basic dXNlcjpwYXNz', 'Digest username="proxy"', 'Negotiate YIIB']) {
      const res = await trawl.get(crawlPath, { 'x-api-key': apiKey, authorization });
      expect(res.status).toBe(200);
      expect(res.body.successful_pages).toBe(1);
    }
    // A Bearer that is not the same key stays a conflict (below); a Basic alone carries no key (401 in the table).
  });

  const unauthorized: Array<[string, Record<string, string>]> = [
    ['no key', {}],
    ['wrong key in x-api-key', { 'x-api-key': 'trawl_wrongwrongwrongwrongwrongwrongwrongwrong' }],
    ['wrong key as Bearer', { authorization: 'Bearer trawl_wrongwrongwrongwrongwrongwrongwrongwrong' }],
    ['Authorization of another scheme and no x-api-key', { authorization: 'Basic dXNlcjpwYXNz' }],
    ['a Bearer with no key beside x-api-key', { 'x-api-key': 'trawl_wrongwrongwrongwrongwrongwrongwrongwrong', authorization: 'Bearer' }],
  ];
  it.each(unauthorized)('401 UNAUTHORIZED for %s', async (_name, headers) => {
    const res = await trawl.get(crawlPath, headers);
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('UNAUTHORIZED');
    expect(res.body.error.message).toMatch(/key|Authorization/i);
  });

  it('401 when the two headers carry different keys (even if one is valid)', async () => {
    const { apiKey } = await trawl.createAccount();
    const other = await trawl.createAccount();
    const res = await trawl.get(crawlPath, { 'x-api-key': apiKey, authorization: `Bearer ${other.apiKey}` });
    expect(res.status).toBe(401);
    expect(res.body.error.message).toMatch(/different keys/);
  });

  it('401 for a revoked key at once (despite the auth cache), via both headers; the regenerated key works', async () => {
    const account = await trawl.createAccount();
    expect((await trawl.get(crawlPath, { 'x-api-key': account.apiKey })).status).toBe(200);
    const { apiKey: fresh } = await trawl.admin.regenerateKey(account.accountId);
    expect((await trawl.get(crawlPath, { 'x-api-key': account.apiKey })).status).toBe(401);
    expect((await trawl.get(crawlPath, { authorization: `Bearer ${account.apiKey}` })).status).toBe(401);
    expect((await trawl.get(crawlPath, { 'x-api-key': fresh })).status).toBe(200);
  });

  it('403 for a suspended account and for an expired subscription; 200 again when reactivated', async () => {
    const account = await trawl.createAccount();
    await trawl.admin.setStatus(account.accountId, 'suspended');
    const suspended = await trawl.get(crawlPath, { 'x-api-key': account.apiKey });
    expect(suspended.status).toBe(403);
    expect(suspended.body.error.code).toBe('ACCOUNT_SUSPENDED');
    await trawl.admin.setStatus(account.accountId, 'active');
    expect((await trawl.get(crawlPath, { 'x-api-key': account.apiKey })).status).toBe(200);
    await trawl.admin.setSubscriptionExpiry(account.accountId, new Date(Date.now() - 1000));
    const expired = await trawl.get(crawlPath, { authorization: `Bearer ${account.apiKey}` });
    expect(expired.status).toBe(403);
    expect(expired.body.error.code).toBe('SUBSCRIPTION_EXPIRED');
  });

  it('answers unknown routes with the error envelope', async () => {
    const res = await trawl.get('/nope');
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('NOT_FOUND');
  });
});

describe('admin API', () => {
  const admin = (token = 'test-admin-token-0123456789') => ({ authorization: `Bearer ${token}`, 'content-type': 'application/json' });
  const post = (path: string, body: unknown, headers = admin()) =>
    fetch(`${trawl.baseUrl}${path}`, { method: 'POST', headers, body: JSON.stringify(body) }).then(async (r) => ({ status: r.status, body: await r.json() as any }));

  it('creates an account whose key works, changes its plan, suspends it, and reports usage', async () => {
    const created = await post('/admin/accounts', { name: 'via-http', plan: 'developer' });
    expect(created.status).toBe(201);
    expect(created.body.apiKey).toMatch(/^trawl_/);
    expect(created.body.balance).toBe(100_000);
    expect((await trawl.get(crawlPath, { 'x-api-key': created.body.apiKey })).status).toBe(200);
    const id = created.body.accountId;
    const plan = await post(`/admin/accounts/${id}/plan`, { plan: 'pro' });
    expect(plan.body.account.plan.concurrencyLimit).toBe(50);
    expect((await post(`/admin/accounts/${id}/suspend`, {})).status).toBe(200);
    expect((await trawl.get(crawlPath, { 'x-api-key': created.body.apiKey })).status).toBe(403);
    await post(`/admin/accounts/${id}/activate`, {});
    // The request log is written in batches off the request path: poll until the row lands.
    const report = await pollUntil(async () => {
      const r = await trawl.get(`/admin/accounts/${id}`, admin());
      return r.body.usage.requests >= 1 ? r : null;
    }, 'the request log row');
    expect(report.body.account.balance).toBe(100_000 - 1);
    expect(report.body.usage.byEndpoint['/crawl'].credits).toBe(1);
  });

  it('keeps balances past 2^31 − 1 credits exact: grants add up in 64 bits, and the account still crawls', async () => {
    const created = await post('/admin/accounts', { name: 'big-grants', plan: 'free' });
    const id = created.body.accountId;
    for (let i = 1; i <= 3; i++) {
      const grant = await post(`/admin/accounts/${id}/grant`, { credits: 1_000_000_000 });
      expect(grant.status).toBe(200);
      expect(grant.body.balance).toBe(10_000 + i * 1_000_000_000);
    }
    expect((await trawl.get(crawlPath, { 'x-api-key': created.body.apiKey })).status).toBe(200);
    const { account } = await trawl.admin.report(id);
    expect(account.balance).toBe(3_000_010_000 - 1);
    expect(await trawl.ledger.ledgerSum(id)).toBe(account.balance);
    const tooBig = await post(`/admin/accounts/${id}/grant`, { credits: 5_000_000_000 });
    expect(tooBig.status).toBe(400);
    expect(tooBig.body.error.message).toBe('credits must be a positive integer of at most 1000000000 per grant');
  });

  it('refuses a wrong admin token and bad input with the error envelope', async () => {
    expect((await post('/admin/accounts', { name: 'x' }, admin('wrong-token-wrong-token'))).status).toBe(401);
    const bad = await post('/admin/accounts', { name: 'x', plan: 'platinum' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/plan/);
    expect((await trawl.get('/admin/accounts/not-a-uuid', admin())).status).toBe(404);
  });
});

describe('health', () => {
  it('reports Postgres, Redis and the worker-http seen recently', async () => {
    const res = await trawl.get('/health');
    expect(res.status).toBe(200);
    expect(res.body.details.postgres.status).toBe('up');
    expect(res.body.details.redis.status).toBe('up');
    expect(res.body.details.workers['worker-http']).toBeGreaterThanOrEqual(1);
  });
});
