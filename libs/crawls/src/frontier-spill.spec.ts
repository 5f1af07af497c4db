/**
 * A crawl's frontier past its bound in Redis, on real Redis and Postgres: URLs wait in Postgres, come back in admission
 * order, each exactly once, through the crash windows (a flush that died before trimming, two refills at once), and
 * the crawl finishes only once none is left out.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { urlHash } from '#frontier';
import { AccountAdminService, AuthService } from '#billing';
import { AccountsRepository, CrawlsRepository, Database, FrontierRepository, LedgerRepository } from '#db';
import { createRedis } from '#platform';
import { systemClock } from '#platform/clock.js';
import { createTestDatabase, type TestDatabase } from '#test/support/database.js';
import { deleteKeys } from '#test/support/harness.js';
import { TEST_REDIS_URL } from '#test/support/env.js';
import { FrontierSpill } from './frontier-spill.js';
import { FrontierStore } from './frontier-store.js';

const prefix = `trawl-spill-${randomUUID().slice(0, 8)}`;
const redis = createRedis(TEST_REDIS_URL, 'spill-spec');
/** At most 10 URLs pending in Redis; 5 come back at a time. */
const store = new FrontierStore(redis, prefix, { shapeCap: 1000, pendingMax: 10 });
let tdb: TestDatabase;
let db: Database;
let repo: FrontierRepository;
let spill: FrontierSpill;
let crawls: CrawlsRepository;
let accountId: string;

beforeAll(async () => {
  tdb = await createTestDatabase();
  db = new Database(tdb.url, 4);
  repo = new FrontierRepository(db);
  crawls = new CrawlsRepository(db);
  spill = new FrontierSpill(store, repo, 5);
  const accounts = new AccountsRepository(db);
  const admin = new AccountAdminService(accounts, new LedgerRepository(db), new AuthService(accounts, systemClock, 0, null, 'spill'), systemClock);
  ({ accountId } = await admin.create('spill', 'free'));
});

afterAll(async () => {
  await deleteKeys(redis, `${prefix}:*`);
  redis.disconnect();
  await db.close();
  await tdb.drop();
});

const url = (i: number) => `http://h${i % 3}.test/page/${i}`;
const candidate = (i: number) => ({ hash: urlHash(url(i)), host: new URL(url(i)).host, shape: '', entry: url(i) });

async function crawl(): Promise<string> {
  const id = randomUUID();
  await crawls.create({ id, accountId, kind: 'site', url: url(0), options: {}, discovered: 0, expiresAt: new Date(Date.now() + 60_000) });
  await store.init(id, 1000, 1000, 0);
  return id;
}

/** Claims and finishes every URL the crawl has, refilling when the claim asks: the entries in the order they started. */
async function drain(id: string, finishedAt: (entry: string) => void): Promise<boolean> {
  let finished = false;
  for (const deadline = Date.now() + 10_000; Date.now() < deadline; ) {
    const claim = await store.claim(id, 60_000, 1000, 4);
    if (claim.refill) await spill.refill(id);
    if ('urls' in claim) {
      for (const u of claim.urls) {
        finishedAt(u.entry);
        finished = await store.finish(id, u.hash);
      }
    } else if ('idle' in claim && !claim.refill) {
      return finished;
    }
  }
  throw new Error('the crawl did not drain');
}

describe('FrontierSpill', () => {
  it('keeps at most the bound pending in Redis, the rest in Postgres, and brings every URL back once, in admission order', async () => {
    const id = await crawl();
    const { outcomes, spilled } = await store.admit(id, 10_000, 0, Array.from({ length: 40 }, (_, i) => candidate(i)));
    expect(outcomes.every((o) => o === 'admitted')).toBe(true);
    expect(spilled).toBe(30);
    expect(await redis.hlen(`${prefix}:crawl:{${id}}:pending`)).toBe(10);
    await spill.flush(id);
    expect(await repo.count(id)).toBe(30);
    expect(await redis.llen(`${prefix}:crawl:{${id}}:spill`)).toBe(0);
    // Seeded with URLs out in Postgres: not finished.
    expect(await store.seeded(id)).toBe(false);
    expect((await store.progress(id))!.pending).toBe(40);

    // Admitted later while earlier ones wait in Postgres: it queues behind them (breadth-first holds).
    expect((await store.admit(id, 10_000, 0, [candidate(40)])).spilled).toBe(1);
    await spill.flush(id);

    const order: string[] = [];
    expect(await drain(id, (entry) => order.push(entry))).toBe(true);
    expect(order).toHaveLength(41);
    expect(new Set(order).size).toBe(41);
    // Per host, the order of admission.
    for (const host of ['h0.test', 'h1.test', 'h2.test']) {
      const mine = order.filter((e) => e.includes(host)).map((e) => Number(e.split('/').pop()));
      expect(mine).toEqual([...mine].sort((a, b) => a - b));
    }
    expect((await store.progress(id))!.pending).toBe(0);
  });

  it('writes a spill list again after a flush that died before trimming it, and brings nothing back twice', async () => {
    const id = await crawl();
    await store.admit(id, 10_000, 0, Array.from({ length: 25 }, (_, i) => candidate(i)));
    // A process wrote the list's head to Postgres and died before trimming it.
    const head = await store.spillHead(id, 1000);
    expect(head).toHaveLength(15);
    await repo.append(id, head);
    // Another refill happened meanwhile; then the flush runs again over the same head.
    expect(await store.seeded(id)).toBe(false);
    const order: string[] = [];
    const claim = await store.claim(id, 60_000, 1000, 10);
    for (const u of 'urls' in claim ? claim.urls : []) {
      order.push(u.entry);
      await store.finish(id, u.hash);
    }
    expect(order).toHaveLength(10);
    expect(await store.claim(id, 60_000, 1000, 10)).toEqual({ idle: true, refill: true });
    // Two refills at once (two processes): each row comes back once.
    const other = new FrontierSpill(store, repo, 5);
    const [a, b] = await Promise.all([spill.refill(id), other.refill(id)]);
    expect([5, 10]).toContain(a + b);
    expect(await repo.count(id)).toBe(15);
    expect(await drain(id, (entry) => order.push(entry))).toBe(true);
    expect(order.sort()).toEqual(Array.from({ length: 25 }, (_, i) => url(i)).sort());
  });

  it('leaves nothing in Postgres once the crawl is dropped', async () => {
    const id = await crawl();
    await store.admit(id, 10_000, 0, Array.from({ length: 20 }, (_, i) => candidate(i)));
    await spill.flush(id);
    expect(await repo.count(id)).toBe(10);
    await store.clear(id);
    await spill.drop(id);
    expect(await repo.count(id)).toBe(0);
    expect(await redis.exists(`${prefix}:crawl:{${id}}:spill`, `${prefix}:crawl:{${id}}:seen`, `${prefix}:crawl:{${id}}:pending`)).toBe(0);
  });
});
