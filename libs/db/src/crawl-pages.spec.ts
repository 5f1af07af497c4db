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
let admin: AccountAdminService;

beforeAll(async () => {
  tdb = await createTestDatabase();
  db = new Database(tdb.url, 2);
  crawls = new CrawlsRepository(db);
  const accounts = new AccountsRepository(db);
  admin = new AccountAdminService(accounts, new LedgerRepository(db), new AuthService(accounts, systemClock, 0, null, 'pages'), systemClock);
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
  it('stores a batch once per key, recognises a retried store, and counts what it stored', async () => {
    const { accountId } = await admin.create('pages', 'free');
    const id = randomUUID();
    await crawls.create({ id, accountId, kind: 'site', url: 'https://a.example/', options: {}, discovered: 4, expiresAt: new Date(Date.now() + 60_000) });
    const [r1, r2, r3, r4] = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
    const first = await crawls.storePages(id, [page('https://a.example/a', r1), page('https://a.example/a', r2), page('https://a.example/b', r3)]);
    // The second page under /a is a duplicate even though the first one is stored by the same statement.
    expect(first).toEqual(['new', 'duplicate', 'new']);
    // /a again by its own reservation (its process died after storing it), /b by another, /c new.
    const second = await crawls.storePages(id, [page('https://a.example/a', r1), page('https://a.example/b', r4), page('https://a.example/c', r4)]);
    expect(second).toEqual(['again', 'duplicate', 'new']);
    const job = await crawls.get(id);
    expect({ done: job!.done, skipped: job!.skipped, credits: job!.credits }).toEqual({ done: 3, skipped: 2, credits: 3 });
    // The cursor order is the batches' order.
    expect((await crawls.pages(id, '0', 10)).map((p) => p.url)).toEqual(['https://a.example/a', 'https://a.example/b', 'https://a.example/c']);
    expect(await crawls.pageLinks(id, 'https://a.example/c')).toEqual(['https://a.example/c/next']);
  });

  it('stores nothing for a crawl that is gone', async () => {
    expect(await crawls.storePages(randomUUID(), [page('https://a.example/x', randomUUID())])).toEqual(['duplicate']);
  });
});
