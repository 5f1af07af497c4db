/** Group-committed reserves and settles against real Postgres: the same ledger as one call at a time. */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { createTestDatabase, type TestDatabase } from '#test/support/database.js';
import { AccountsRepository, Database, LedgerRepository } from '#db';
import { systemClock } from '#platform/clock.js';
import { AccountAdminService, AuthService } from './index.js';
import { LedgerBatches } from './ledger-batches.js';

let tdb: TestDatabase;
let db: Database;
let ledger: LedgerRepository;
let accounts: AccountsRepository;
let admin: AccountAdminService;

beforeAll(async () => {
  tdb = await createTestDatabase();
  db = new Database(tdb.url, 4);
  ledger = new LedgerRepository(db);
  accounts = new AccountsRepository(db);
  admin = new AccountAdminService(accounts, ledger, new AuthService(accounts, systemClock, 0, null, 'batches'), systemClock);
});

afterAll(async () => {
  await db.close();
  await tdb.drop();
});

/** Every statement the ledger sends, counted. */
function counting(): { ledger: LedgerRepository; statements: () => number } {
  let statements = 0;
  const counted = Object.create(ledger) as LedgerRepository;
  counted.reserveMany = (...args) => (statements++, ledger.reserveMany(...args));
  counted.settleFullMany = (...args) => (statements++, ledger.settleFullMany(...args));
  counted.settlePartly = (...args) => (statements++, ledger.settlePartly(...args));
  return { ledger: counted, statements: () => statements };
}

async function reservationRows(accountId: string): Promise<{ reserves: number; open: number }> {
  const reserves = await db.pool.query(`SELECT count(*)::int AS n FROM credit_ledger WHERE account_id = $1 AND kind = 'reserve'`, [accountId]);
  const open = await db.pool.query(`SELECT count(*)::int AS n FROM reservations WHERE account_id = $1 AND status = 'open'`, [accountId]);
  return { reserves: reserves.rows[0].n as number, open: open.rows[0].n as number };
}

describe('LedgerBatches', () => {
  it('grants concurrent reserves of one account in fewer statements, in order, never below zero', async () => {
    const { accountId } = await admin.create('batched-race', 'free'); // 10,000 credits
    const { ledger: counted, statements } = counting();
    const batches = new LedgerBatches(counted, 60_000);
    const outcomes = await Promise.all(Array.from({ length: 60 }, () => batches.reserve(accountId, randomUUID(), 300)));
    // The first goes alone; the others queue behind it and go together.
    expect(statements()).toBeLessThanOrEqual(3);
    expect(outcomes.filter((o) => o.ok)).toHaveLength(33); // floor(10000 / 300)
    // Granted in arrival order: the first 33.
    expect(outcomes.slice(0, 33).every((o) => o.ok)).toBe(true);
    expect(outcomes.at(-1)).toEqual({ ok: false, balance: 100 });
    const view = await accounts.view(accountId);
    expect(view!.balance).toBe(100);
    expect(await ledger.ledgerSum(accountId)).toBe(100);
    expect(await reservationRows(accountId)).toEqual({ reserves: 33, open: 33 });
  });

  it('grants a later, smaller reserve that still fits after a larger one was refused', async () => {
    const { accountId } = await admin.create('batched-mixed', 'free');
    const batches = new LedgerBatches(ledger, 60_000);
    const first = batches.reserve(accountId, randomUUID(), 9_000); // goes alone
    const rest = [batches.reserve(accountId, randomUUID(), 5_000), batches.reserve(accountId, randomUUID(), 600), batches.reserve(accountId, randomUUID(), 500)];
    expect(await first).toEqual({ ok: true, balance: 1_000 });
    expect(await Promise.all(rest)).toEqual([
      { ok: false, balance: 1_000 },
      { ok: true, balance: 400 },
      { ok: false, balance: 400 },
    ]);
    expect(await ledger.ledgerSum(accountId)).toBe(400);
  });

  it('reserves crawl pages once: a page retried finds its reservation in the state it is in, in one batch with new ones', async () => {
    const { accountId } = await admin.create('batched-once', 'free'); // 10,000 credits
    const batches = new LedgerBatches(ledger, 60_000);
    const [settled, refunded, open] = [randomUUID(), randomUUID(), randomUUID()];
    await Promise.all([settled, refunded, open].map((id) => batches.reserveOnce(accountId, id, 10)));
    await batches.settle(settled, 10);
    await ledger.refund(refunded, 'page failed');
    const fresh = Array.from({ length: 3 }, () => randomUUID());
    const states = await Promise.all([
      batches.reserveOnce(accountId, settled, 10),
      batches.reserveOnce(accountId, refunded, 10),
      batches.reserveOnce(accountId, open, 10),
      // The same page twice in one batch: the first reserves, the second finds it open.
      batches.reserveOnce(accountId, fresh[0]!, 9_000),
      batches.reserveOnce(accountId, fresh[0]!, 9_000),
      // What is left after the grants before it: 10,000 − 30 + 10 (refunded) − 9,000 = 980.
      batches.reserveOnce(accountId, fresh[1]!, 1_000),
      batches.reserveOnce(accountId, fresh[2]!, 980),
    ]);
    expect(states).toEqual(['settled', 'refunded', 'open', 'reserved', 'open', 'insufficient', 'reserved']);
    expect((await accounts.view(accountId))!.balance).toBe(0);
    expect(await ledger.ledgerSum(accountId)).toBe(0);
    expect(await reservationRows(accountId)).toEqual({ reserves: 5, open: 3 });
  });

  it('refunds many reservations of several accounts together, once each, with running balances in the ledger', async () => {
    const a = (await admin.create('batched-refund-a', 'free')).accountId;
    const b = (await admin.create('batched-refund-b', 'free')).accountId;
    const batches = new LedgerBatches(ledger, 60_000);
    const ids = { a1: randomUUID(), a2: randomUUID(), b1: randomUUID(), settled: randomUUID() };
    await Promise.all([batches.reserveOnce(a, ids.a1, 10), batches.reserveOnce(a, ids.a2, 20), batches.reserveOnce(b, ids.b1, 5), batches.reserveOnce(a, ids.settled, 7)]);
    await batches.settle(ids.settled, 7);
    const outcomes = await Promise.all([
      batches.refund(ids.a1, 'page failed'),
      batches.refund(ids.b1, 'redirected'),
      batches.refund(ids.a2, 'page failed'),
      batches.refund(ids.a2, 'page failed'),
      batches.refund(ids.settled, 'too late'),
    ]);
    expect(outcomes).toEqual([true, true, true, false, false]);
    expect((await accounts.view(a))!.balance).toBe(10_000 - 7);
    expect((await accounts.view(b))!.balance).toBe(10_000);
    expect(await ledger.ledgerSum(a)).toBe(10_000 - 7);
    expect(await ledger.ledgerSum(b)).toBe(10_000);
    const { rows } = await db.pool.query<{ request_id: string; amount: string; balance_after: string }>(
      `SELECT request_id, amount, balance_after FROM credit_ledger WHERE kind = 'refund' AND account_id = $1 ORDER BY id`,
      [a],
    );
    expect(rows.map((r) => [r.request_id, Number(r.amount), Number(r.balance_after)])).toEqual([
      [ids.a1, 10, 10_000 - 7 - 20],
      [ids.a2, 20, 10_000 - 7],
    ]);
  });

  it('settles full and partial charges together, once each', async () => {
    const { accountId } = await admin.create('batched-settle', 'free');
    const batches = new LedgerBatches(ledger, 60_000);
    const ids = Array.from({ length: 10 }, () => randomUUID());
    await Promise.all(ids.map((id) => batches.reserve(accountId, id, 10)));
    // Even ids use everything, odd ones 4 of their 10.
    const settled = await Promise.all(ids.map((id, i) => batches.settle(id, i % 2 === 0 ? 10 : 4)));
    expect(settled.map((s) => s?.charged)).toEqual(ids.map((_, i) => (i % 2 === 0 ? 10 : 4)));
    expect(await Promise.all(ids.map((id) => batches.settle(id, 10)))).toEqual(ids.map(() => null));
    const balance = 10_000 - 5 * 10 - 5 * 4;
    expect((await accounts.view(accountId))!.balance).toBe(balance);
    expect(await ledger.ledgerSum(accountId)).toBe(balance);
    expect((await reservationRows(accountId)).open).toBe(0);
  });

  it('fails every call of a batch when its statement fails, and the next batch goes on', async () => {
    const { accountId } = await admin.create('batched-failure', 'free');
    let fail = true;
    const flaky = Object.create(ledger) as LedgerRepository;
    flaky.reserveMany = (...args) => (fail ? Promise.reject(new Error('connection lost')) : ledger.reserveMany(...args));
    const batches = new LedgerBatches(flaky, 60_000);
    const failed = await Promise.allSettled([batches.reserve(accountId, randomUUID(), 1), batches.reserve(accountId, randomUUID(), 1)]);
    expect(failed.map((f) => f.status)).toEqual(['rejected', 'rejected']);
    fail = false;
    expect(await batches.reserve(accountId, randomUUID(), 1)).toEqual({ ok: true, balance: 9_999 });
  });
});
