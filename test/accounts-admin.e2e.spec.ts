/**
 * Account administration as documented (docs/operation.md, docs/api.md "Admin API"): every `npm run trawl --
 * accounts:*` command run as the built CLI process against a running Trawl's database and Redis, the admin HTTP
 * routes the other admin specs leave out (plans, list, regenerate, revoke, subscription, reset-period), and the admin
 * API answering 404 when ADMIN_TOKEN is not set. The gateway caches keys for 10 minutes: what an operator changes
 * must reach it through the invalidation channel, not the cache's expiry.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { REPO_ROOT, TEST_REDIS_URL } from './support/env.js';
import { ARTICLE, startFixtureServer, type FixtureServer } from './support/fixture-server.js';
import { key, startHarness, type Harness } from './support/harness.js';
import { pollUntil } from './support/poll.js';
import { assertBuilt } from './support/trawl-app.js';

const run = promisify(execFile);
const ADMIN_TOKEN = 'test-admin-token-0123456789';

let trawl: Harness;
let site: FixtureServer;
let crawlPath: string;

beforeAll(async () => {
  assertBuilt('cli');
  site = await startFixtureServer({ '/a': (_q, res) => void res.writeHead(200, { 'content-type': 'text/html' }).end(ARTICLE) });
  trawl = await startHarness({ AUTH_CACHE_MS: '600000', ADMIN_TOKEN });
  crawlPath = `/crawl?urls=${encodeURIComponent(`${site.url}/a`)}`;
});

afterAll(async () => {
  await trawl?.close();
  await site?.close();
});

const CLI = `${REPO_ROOT}/dist/apps/cli/src/main.js`;
const cliEnv = () => ({ ...process.env, DATABASE_URL: trawl.config.DATABASE_URL!, REDIS_URL: TEST_REDIS_URL, REDIS_PREFIX: trawl.config.REDIS_PREFIX, LOG_LEVEL: 'silent' });

/** The built CLI, on the running instance's database and Redis (its prefix too): stdout parsed, or the failure. */
async function cli(...args: string[]): Promise<any> {
  return JSON.parse((await run(process.execPath, [CLI, ...args], { env: cliEnv() })).stdout);
}

const status = async (apiKey: string) => (await trawl.get(crawlPath, key(apiKey))).status;
/** What the gateway answers the key with, within 2 s (the invalidation), where the cache alone would take 10 minutes. */
const answers = (apiKey: string, expected: number, what: string) => pollUntil(async () => (await status(apiKey)) === expected, what, 2_000);

describe('the accounts:* CLI commands', () => {
  it('accounts:create prints the account and its key (shown once), which works; plans, list and show report it', async () => {
    const { stdout, stderr } = await run(process.execPath, [CLI, 'accounts:create', '--name', 'CLI team', '--plan', 'developer'], { env: cliEnv() });
    const created = JSON.parse(stdout);
    expect(created).toMatchObject({ accountId: expect.any(String), apiKey: expect.stringMatching(/^trawl_/), balance: 100_000 });
    expect(stderr).toContain('Store the apiKey now: it is shown only once.');
    expect(await status(created.apiKey)).toBe(200);

    const plans = await cli('plans');
    expect(plans.map((p: { id: string; monthlyCredits: number }) => [p.id, p.monthlyCredits])).toEqual([
      ['free', 10_000], ['developer', 100_000], ['pro', 1_000_000], ['scale', 2_500_000],
    ]);
    const listed = (await cli('accounts:list')).find((a: { id: string }) => a.id === created.accountId);
    expect(listed).toMatchObject({ name: 'CLI team' });
    const shown = await pollUntil(async () => {
      const report = await cli('accounts:show', '--id', created.accountId);
      return report.usage.requests === 1 ? report : null;
    }, 'the request log row');
    expect(shown.account).toMatchObject({ name: 'CLI team', status: 'active', balance: 100_000 - 1 });
    expect(shown.usage.byEndpoint['/crawl']).toEqual({ requests: 1, credits: 1 });
  });

  it('accounts:plan, suspend, activate, grant and reset-period take effect on the running gateway', async () => {
    const { accountId, apiKey } = await cli('accounts:create', '--name', 'lifecycle');
    expect(await status(apiKey)).toBe(200); // cached by the gateway from here on
    expect((await cli('accounts:plan', '--id', accountId, '--plan', 'pro')).account.plan).toMatchObject({ id: 'pro', concurrencyLimit: 50 });
    expect((await cli('accounts:suspend', '--id', accountId)).account.status).toBe('suspended');
    await answers(apiKey, 403, 'the suspended account refused');
    expect((await trawl.get(crawlPath, key(apiKey))).body.error.code).toBe('ACCOUNT_SUSPENDED');
    expect((await cli('accounts:activate', '--id', accountId)).account.status).toBe('active');
    await answers(apiKey, 200, 'the reactivated account served');
    const { balance } = (await trawl.admin.report(accountId)).account;
    expect(await cli('accounts:grant', '--id', accountId, '--credits', '500')).toEqual({ balance: balance + 500 });
    // A new period: the pro allowance (the plan changed mid-period), nothing rolled over.
    const reset = await cli('accounts:reset-period', '--id', accountId);
    expect(reset).toMatchObject({ balance: 1_000_000 });
    expect(new Date(reset.periodStart).getTime()).toBeGreaterThan(Date.now() - 60_000);
    expect(await trawl.ledger.ledgerSum(accountId)).toBe(1_000_000); // the ledger agrees
  });

  it('accounts:key:regenerate and accounts:key:revoke (one key by prefix) are refused by the running gateway at once', async () => {
    const { accountId, apiKey } = await cli('accounts:create', '--name', 'keys');
    expect(await status(apiKey)).toBe(200);
    const fresh = await cli('accounts:key:regenerate', '--id', accountId);
    expect(fresh.apiKey.startsWith(fresh.keyPrefix)).toBe(true);
    await answers(apiKey, 401, 'the regenerated-away key refused');
    expect(await status(fresh.apiKey)).toBe(200);
    expect(await cli('accounts:key:revoke', '--id', accountId, '--prefix', fresh.keyPrefix)).toEqual({ revoked: 1 });
    await answers(fresh.apiKey, 401, 'the revoked key refused');
  });

  it('exits 2 naming the missing option', async () => {
    const failed = await cli('accounts:show').catch((error: { code: number; stderr: string }) => error);
    expect({ code: failed.code, stderr: failed.stderr }).toEqual({ code: 2, stderr: 'trawl: accounts:show needs --id\n' });
  });
});

describe('the admin HTTP API', () => {
  const admin = { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' };
  const call = async (method: 'GET' | 'POST', path: string, body?: unknown, headers: Record<string, string> = admin) => {
    const response = await fetch(`${trawl.baseUrl}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    return { status: response.status, body: (await response.json()) as any };
  };

  it('GET /admin/plans and /admin/accounts list the plans and the accounts', async () => {
    const plans = await call('GET', '/admin/plans');
    expect(plans.status).toBe(200);
    expect(plans.body.map((p: { id: string }) => p.id)).toEqual(['free', 'developer', 'pro', 'scale']);
    const { accountId } = await trawl.createAccount();
    const accounts = await call('GET', '/admin/accounts');
    expect(accounts.status).toBe(200);
    expect(accounts.body.map((a: { id: string }) => a.id)).toContain(accountId);
  });

  it('keys/regenerate and keys/revoke (by prefix, then all) are refused at once', async () => {
    const { accountId, apiKey } = await trawl.createAccount();
    expect(await status(apiKey)).toBe(200);
    const regenerated = await call('POST', `/admin/accounts/${accountId}/keys/regenerate`, {});
    expect(regenerated.status).toBe(201);
    await answers(apiKey, 401, 'the old key refused');
    const fresh: string = regenerated.body.apiKey;
    expect(await status(fresh)).toBe(200);
    expect(await call('POST', `/admin/accounts/${accountId}/keys/revoke`, { prefix: 'trawl_nope00' })).toMatchObject({ status: 200, body: { revoked: 0 } });
    expect(await status(fresh)).toBe(200);
    expect(await call('POST', `/admin/accounts/${accountId}/keys/revoke`, { prefix: regenerated.body.keyPrefix })).toMatchObject({ status: 200, body: { revoked: 1 } });
    await answers(fresh, 401, 'the key revoked by prefix refused');
    const another = await call('POST', `/admin/accounts/${accountId}/keys/regenerate`, {});
    expect(await call('POST', `/admin/accounts/${accountId}/keys/revoke`, {})).toMatchObject({ status: 200, body: { revoked: 1 } });
    await answers(another.body.apiKey, 401, 'every key revoked');
  });

  it('subscription: an expiry in the past refuses with 403 SUBSCRIPTION_EXPIRED, null lifts it', async () => {
    const { accountId, apiKey } = await trawl.createAccount();
    expect(await status(apiKey)).toBe(200);
    const past = new Date(Date.now() - 60_000).toISOString();
    const expired = await call('POST', `/admin/accounts/${accountId}/subscription`, { expiresAt: past });
    expect(expired.status).toBe(200);
    expect(expired.body.account.subscriptionExpiresAt).toBe(past);
    await answers(apiKey, 403, 'the expired subscription refused');
    expect((await trawl.get(crawlPath, key(apiKey))).body.error.code).toBe('SUBSCRIPTION_EXPIRED');
    expect((await call('POST', `/admin/accounts/${accountId}/subscription`, { expiresAt: null })).body.account.subscriptionExpiresAt).toBeNull();
    await answers(apiKey, 200, 'the lifted subscription served');
  });

  it('reset-period ends the period now and starts the next with the plan allowance', async () => {
    const { accountId, apiKey } = await trawl.createAccount();
    expect(await status(apiKey)).toBe(200);
    const before = await trawl.admin.report(accountId);
    const reset = await call('POST', `/admin/accounts/${accountId}/reset-period`, {});
    expect(reset.status).toBe(200);
    expect(reset.body.balance).toBe(10_000);
    expect(new Date(reset.body.periodStart).getTime()).toBeGreaterThan(before.account.periodStart.getTime());
    expect(await status(apiKey)).toBe(200);
    expect((await trawl.admin.report(accountId)).account.balance).toBe(10_000 - 1);
  });
});

describe('the admin HTTP API without ADMIN_TOKEN', () => {
  let bare: Harness;

  beforeAll(async () => {
    bare = await startHarness({ ADMIN_TOKEN: '' });
  });

  afterAll(async () => {
    await bare?.close();
  });

  it('answers 404 on every admin route, whatever the Authorization header', async () => {
    expect(bare.config.ADMIN_TOKEN).toBeUndefined();
    const { accountId } = await bare.createAccount();
    const routes: Array<['GET' | 'POST', string]> = [
      ['GET', '/admin/plans'],
      ['GET', '/admin/accounts'],
      ['POST', '/admin/accounts'],
      ['GET', `/admin/accounts/${accountId}`],
      ...['keys/regenerate', 'keys/revoke', 'plan', 'suspend', 'activate', 'subscription', 'grant', 'reset-period'].map(
        (action) => ['POST', `/admin/accounts/${accountId}/${action}`] as ['POST', string],
      ),
    ];
    for (const [method, path] of routes) {
      for (const headers of [{}, { authorization: `Bearer ${ADMIN_TOKEN}` }] as Array<Record<string, string>>) {
        const response = await fetch(`${bare.baseUrl}${path}`, { method, headers: { ...headers, 'content-type': 'application/json' }, body: method === 'POST' ? '{}' : undefined });
        const body = (await response.json()) as { error: { code: string } };
        expect({ method, path, status: response.status, code: body.error.code }).toEqual({ method, path, status: 404, code: 'NOT_FOUND' });
      }
    }
    expect((await bare.admin.report(accountId)).account.status).toBe('active'); // nothing was done
  });
});
