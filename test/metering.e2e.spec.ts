/** Concurrency limits and credits under real load: the balance and the ledger must always agree. */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import http, { type ServerResponse } from 'node:http';
import { ARTICLE, startFixtureServer, type FixtureServer } from './support/fixture-server.js';
import { key, startHarness, type Harness } from './support/harness.js';
import { pollUntil } from './support/poll.js';

let trawl: Harness;
let site: FixtureServer;
const held: ServerResponse[] = [];
const gated: ServerResponse[] = [];

beforeAll(async () => {
  site = await startFixtureServer({
    '/a': (_q, res) => void res.writeHead(200, { 'content-type': 'text/html' }).end(ARTICLE),
    '/hold': (_q, res) => void held.push(res),
    '/gate': (_q, res) => void gated.push(res),
  });
  // No auth cache here: the period test moves period_end in the database behind the gateway's back.
  trawl = await startHarness({ CRAWL_TIMEOUT_MS: '20000', AUTH_CACHE_MS: '0' });
});

afterAll(async () => {
  for (const res of [...held, ...gated]) res.destroy();
  await trawl?.close();
  await site?.close();
});

const url = (path: string) => encodeURIComponent(`${site.url}${path}`);

/** Leaves exactly `left` credits in the account (through the ledger, as real usage would). */
async function drainTo(accountId: string, left: number) {
  const { account } = await trawl.admin.report(accountId);
  const id = randomUUID();
  await trawl.ledger.reserve(accountId, id, account.balance - left, 60_000);
  await trawl.ledger.settle(id, account.balance - left);
}

async function expectLedgerConsistent(accountId: string) {
  const { account } = await trawl.admin.report(accountId);
  expect(account.balance).toBeGreaterThanOrEqual(0);
  expect(await trawl.ledger.ledgerSum(accountId)).toBe(account.balance);
  const { rows } = await trawl.db.pool.query(`SELECT count(*)::int AS open FROM reservations WHERE account_id = $1 AND status = 'open'`, [accountId]);
  expect(rows[0].open).toBe(0);
  return account.balance;
}

describe('concurrency limit', () => {
  it('with limit L, L+k simultaneous slow requests: exactly L run and k get the 429 message; then new requests pass', async () => {
    const account = await trawl.createAccount('free'); // L = 5
    const k = 3;
    const requests = Array.from({ length: 5 + k }, () => trawl.get(`/crawl?urls=${url('/hold')}`, key(account.apiKey)));
    const early = await pollUntil(async () => {
      const settled = await Promise.all(requests.map((r) => Promise.race([r, Promise.resolve(null)])));
      const done = settled.filter((r) => r !== null);
      return done.length === k && held.length === 5 ? done : null;
    }, 'k refusals and L held requests');
    for (const res of early) {
      expect(res!.status).toBe(429);
      expect(res!.body.error.message).toBe('Concurrent request limit reached (5). Please wait for other requests to finish.');
      expect(res!.headers.get('retry-after')).toBe('2');
    }
    for (const res of held.splice(0)) res.writeHead(200, { 'content-type': 'text/html' }).end(ARTICLE);
    const all = await Promise.all(requests);
    expect(all.filter((r) => r.status === 200)).toHaveLength(5);
    expect(all.filter((r) => r.status === 429)).toHaveLength(k);
    expect((await trawl.get(`/crawl?urls=${url('/a')}`, key(account.apiKey))).status).toBe(200);
    expect(await expectLedgerConsistent(account.accountId)).toBe(10_000 - 6);
  });
});

describe('credits', () => {
  it('refuses a run that would exceed the balance before any work starts (429 CREDITS_EXHAUSTED)', async () => {
    const account = await trawl.createAccount();
    await drainTo(account.accountId, 2);
    const before = site.hits.get('/a') ?? 0;
    const urls = ['/a?1', '/a?2', '/a?3'].map((p) => `${site.url}${p}`).join(',');
    const res = await trawl.get(`/crawl?urls=${encodeURIComponent(urls)}`, key(account.apiKey));
    expect(res.status).toBe(429);
    expect(res.body.error.code).toBe('CREDITS_EXHAUSTED');
    const wait = Number(res.headers.get('retry-after'));
    expect(wait).toBeGreaterThan(0); // until the billing period ends
    expect(wait).toBeLessThanOrEqual(32 * 24 * 3600);
    expect(site.hits.get('/a') ?? 0).toBe(before);
    expect(await expectLedgerConsistent(account.accountId)).toBe(2);
  });

  it('never goes negative under concurrent load', async () => {
    const account = await trawl.createAccount('scale'); // 100 concurrent
    await drainTo(account.accountId, 10);
    const responses = await Promise.all(
      Array.from({ length: 30 }, (_, i) => trawl.get(`/crawl?urls=${url(`/a?n=${i}`)}`, key(account.apiKey))),
    );
    const ok = responses.filter((r) => r.status === 200);
    const refused = responses.filter((r) => r.status === 429);
    expect(ok.length + refused.length).toBe(30);
    for (const r of refused) expect(r.body.error.code).toBe('CREDITS_EXHAUSTED');
    // Every credit is spent, none twice: exactly 10 calls of 1 credit get through, the other 20 are refused.
    expect(ok.length).toBe(10);
    for (const r of ok) expect(r.body.credits).toBe(1);
    expect(await expectLedgerConsistent(account.accountId)).toBe(0);
  });

  it('keeps balance and ledger in agreement over a mixed run (successes, failed URLs, 400s, 429s)', async () => {
    const account = await trawl.createAccount();
    await drainTo(account.accountId, 4); // the last calls find the balance spent
    const calls = [
      `/crawl?urls=${url('/a')}`,
      `/crawl?urls=${encodeURIComponent(`${site.url}/a,http://127.0.0.1:1/refused`)}`,
      `/crawl?urls=${url('/missing')}`,
      `/crawl?urls=`,
      `/crawl?urls=${url('/a')}&render_js=maybe`,
      `/crawl?urls=${encodeURIComponent('http://127.0.0.1:1/only-failure')}`,
      `/crawl?urls=${url('/a')}`,
      `/crawl?urls=${url('/a')}`,
    ];
    let charged = 0;
    const statuses: number[] = [];
    for (const path of calls) {
      const res = await trawl.get(path, key(account.apiKey));
      statuses.push(res.status);
      if (res.status === 200) charged += res.body.credits;
    }
    expect(statuses).toEqual([200, 200, 200, 400, 400, 200, 200, 429]);
    expect(charged).toBe(4); // /a, /a (its refused sibling is free), the 404 page, /a; the lone failure is free
    expect(await expectLedgerConsistent(account.accountId)).toBe(0);
    const usage = await pollUntil(async () => {
      const { usage } = await trawl.admin.report(account.accountId);
      return usage.requests === calls.length ? usage : null;
    }, 'request log rows');
    expect(usage.credits).toBe(4);
  });

  it('starts the next period lazily on the first request after the period ended (no roll-over)', async () => {
    const account = await trawl.createAccount();
    await drainTo(account.accountId, 0);
    expect((await trawl.get(`/crawl?urls=${url('/a')}`, key(account.apiKey))).status).toBe(429);
    await trawl.db.pool.query('UPDATE accounts SET period_end = now() - interval \'1 second\' WHERE id = $1', [account.accountId]);
    const res = await trawl.get(`/crawl?urls=${url('/a')}`, key(account.apiKey));
    expect(res.status).toBe(200);
    expect(await expectLedgerConsistent(account.accountId)).toBe(10_000 - 1);
    const { rows } = await trawl.db.pool.query(`SELECT count(*)::int AS n FROM credit_ledger WHERE account_id = $1 AND kind = 'period_reset'`, [account.accountId]);
    expect(rows[0].n).toBe(1);
  });

  it('a call whose client disconnects is charged and logged once, under one call id in the ledger and the request log', async () => {
    const account = await trawl.createAccount();
    // Its own connection (not the keep-alive pool of the other tests), closed by the client mid-call.
    const client = http.get(`${trawl.baseUrl}/crawl?urls=${url('/gate')}`, { headers: key(account.apiKey), agent: false });
    client.on('error', () => undefined);
    await pollUntil(async () => gated.length === 1, 'the crawl to reach the fixture site');
    client.destroy();
    gated.pop()!.writeHead(200, { 'content-type': 'text/html' }).end(ARTICLE);
    const logged = await pollUntil(async () => {
      const { rows } = await trawl.db.pool.query(`SELECT id, credits, status FROM request_log WHERE account_id = $1`, [account.accountId]);
      return rows.length > 0 ? rows : null;
    }, 'the request log row of the abandoned call');
    expect(logged).toEqual([{ id: expect.any(String), credits: 1, status: 200 }]);
    expect(await expectLedgerConsistent(account.accountId)).toBe(10_000 - 1);
    const { rows } = await trawl.db.pool.query(`SELECT DISTINCT request_id FROM credit_ledger WHERE account_id = $1 AND request_id IS NOT NULL`, [account.accountId]);
    expect(rows.map((r: { request_id: string }) => r.request_id)).toEqual([logged[0].id]);
  });
});
