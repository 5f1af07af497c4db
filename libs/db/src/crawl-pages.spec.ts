/** A crawl's pages stored in batches on real Postgres: one outcome per page, counted once, ids in the batch's order. */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { createTestDatabase, type TestDatabase } from '#test/support/database.js';
import { AccountAdminService, AuthService } from '#billing';
import { systemClock } from '#platform/clock.js';
import { AccountsRepository } from './accounts.repository.js';
import { CrawlsRepository } from './crawls.repository.js';
import { Database } from './database.js';
import { LedgerRepository } from './ledger.repository.js';

let tdb: TestDatabase;
let db: Database;
let crawls: CrawlsRepository;
let ledger: LedgerRepository;
let admin: AccountAdminService;

beforeAll(async () => {
  tdb = await createTestDatabase();
  db = new Database(tdb.url, 2);
  crawls = new CrawlsRepository(db);
  const accounts = new AccountsRepository(db);
  ledger = new LedgerRepository(db);
  admin = new AccountAdminService(accounts, ledger, new AuthService(accounts, systemClock, 0, null, 'pages'), systemClock);
});

afterAll(async () => {
  await db.close();
  await tdb.drop();
});

const page = (key: string, requestId: string) => ({
  urlKey: key,
  sourceUrl: key,
  url: key,
  statusCode: 200,
  depth: 1,
  content: { markdown: `# ${key}`, links: [`${key}/next`] },
  bytes: 40,
  credits: 1,
  requestId,
});

describe('CrawlsRepository.storePages', () => {
  it('stores a batch once per key, recognises a retried store, and counts and charges what it stored', async () => {
    const { accountId } = await admin.create('pages', 'free');
    const id = randomUUID();
    await crawls.create({ id, accountId, kind: 'site', url: 'https://a.example/', options: {}, discovered: 4, expiresAt: new Date(Date.now() + 60_000) });
    const [r1, r2, r3, r4, r5] = [randomUUID(), randomUUID(), randomUUID(), randomUUID(), randomUUID()];
    await ledger.reserveOnceMany(accountId, [r1, r2, r3, r4, r5].map((requestId) => ({ requestId, amount: 1 })), 60_000);
    const first = await crawls.storePages(id, [page('https://a.example/a', r1), page('https://a.example/a', r2), page('https://a.example/b', r3)]);
    // The second page under /a is a duplicate even though the first one is stored by the same statement.
    expect(first).toEqual(['new', 'duplicate', 'new']);
    // /a again by its own reservation (its process died after storing it), /b by another, /c new.
    const second = await crawls.storePages(id, [page('https://a.example/a', r1), page('https://a.example/b', r4), page('https://a.example/c', r5)]);
    expect(second).toEqual(['again', 'duplicate', 'new']);
    const job = await crawls.get(id);
    expect({ done: job!.done, skipped: job!.skipped, credits: job!.credits }).toEqual({ done: 3, skipped: 2, credits: 3 });
    // Each stored page's reservation settled once, with the store; the duplicates' are left open for their refund.
    const { rows } = await db.pool.query<{ id: string; status: string; settles: number }>(
      `SELECT r.id, r.status, (SELECT count(*)::int FROM credit_ledger l WHERE l.request_id = r.id AND l.kind = 'settle') AS settles
       FROM reservations r WHERE r.account_id = $1`,
      [accountId],
    );
    const state = new Map(rows.map((r) => [r.id, `${r.status} ${r.settles}`]));
    expect([r1, r2, r3, r4, r5].map((r) => state.get(r))).toEqual(['settled 1', 'open 0', 'settled 1', 'open 0', 'settled 1']);
    expect(await ledger.ledgerSum(accountId)).toBe(10_000 - 5);
    // The cursor order is the batches' order.
    expect((await crawls.pages(id, '0', 10)).map((p) => p.url)).toEqual(['https://a.example/a', 'https://a.example/b', 'https://a.example/c']);
    expect(await crawls.pageLinks(id, 'https://a.example/c')).toEqual(['https://a.example/c/next']);
  });

  it('stores nothing for a crawl that is gone', async () => {
    expect(await crawls.storePages(randomUUID(), [page('https://a.example/x', randomUUID())])).toEqual(['duplicate']);
  });
});

describe('CrawlsRepository.addCounts', () => {
  it('records the URLs a crawl did not store with its increments, in one statement, each counted by its kind', async () => {
    const { accountId } = await admin.create('errors', 'free');
    const id = randomUUID();
    await crawls.create({ id, accountId, kind: 'site', url: 'https://a.example/', options: {}, discovered: 1, expiresAt: new Date(Date.now() + 60_000) });
    await crawls.addCounts(id, { discovered: 5, skipped: 1 }, [
      { url: 'https://a.example/gone', code: 'HTTP_ERROR', message: 'The page answered HTTP 404', robots: false },
      { url: 'https://a.example/private/x', code: 'ROBOTS_DISALLOWED', message: 'robots.txt', robots: true },
      { url: 'https://a.example/closed', code: 'FETCH_FAILED', message: 'x'.repeat(2_000), robots: false },
    ]);
    const job = await crawls.get(id);
    expect({ discovered: job!.discovered, failed: job!.failed, skipped: job!.skipped }).toEqual({ discovered: 6, failed: 2, skipped: 2 });
    const errors = await crawls.errors(id, '0', 10);
    expect(errors.map((e) => [e.url, e.code, e.robots])).toEqual([
      ['https://a.example/gone', 'HTTP_ERROR', false],
      ['https://a.example/private/x', 'ROBOTS_DISALLOWED', true],
      ['https://a.example/closed', 'FETCH_FAILED', false],
    ]);
    expect(errors[2].message).toHaveLength(500);
    // Plain increments still go alone; a crawl that is gone records nothing and fails nothing.
    await crawls.addCounts(id, { failed: 1 });
    expect((await crawls.get(id))!.failed).toBe(3);
    await expect(crawls.addCounts(randomUUID(), { skipped: 1 }, [{ url: 'https://a.example/', code: 'X', message: 'x', robots: false }])).resolves.toBeUndefined();
  });
});
