/** Credits and concurrency against real Postgres and Redis. */
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { createTestDatabase, type TestDatabase } from '#test/support/database.js';
import { TEST_REDIS_URL } from '#test/support/env.js';
import { pollUntil } from '#test/support/poll.js';
import { AccountsRepository, Database, LedgerRepository } from '#db';
import { systemClock } from '#platform/clock.js';
import { AccountAdminService, AuthService, BillingReconciler, ConcurrencyGate, CreditService } from './index.js';

let tdb: TestDatabase;
let db: Database;
let redis: Redis;
let ledger: LedgerRepository;
let accounts: AccountsRepository;
let admin: AccountAdminService;
let auth: AuthService;
const prefix = `trawl-test-${randomUUID().slice(0, 8)}`;

beforeAll(async () => {
  tdb = await createTestDatabase();
  db = new Database(tdb.url, 20);
  redis = new Redis(TEST_REDIS_URL);
  ledger = new LedgerRepository(db);
  accounts = new AccountsRepository(db);
  auth = new AuthService(accounts, systemClock, 60_000, redis, prefix);
  admin = new AccountAdminService(accounts, ledger, auth, systemClock);
});

afterAll(async () => {
  await db.close();
  redis.disconnect();
  await tdb.drop();
});

describe('credit ledger', () => {
  it('grants the plan allowance at creation and the ledger sums to the balance', async () => {
    const created = await admin.create('ledger-basics', 'free');
    expect(created.balance).toBe(10_000);
    expect(created.apiKey).toMatch(/^trawl_[0-9A-Za-z]{40}$/);
    expect(await ledger.ledgerSum(created.accountId)).toBe(10_000);
  });

  it('never lets concurrent reservations take the balance below zero', async () => {
    const { accountId } = await admin.create('race', 'free');
    const credits = new CreditService(ledger, 60_000);
    const attempts = Array.from({ length: 60 }, () => randomUUID());
    const outcomes = await Promise.allSettled(attempts.map((id) => credits.reserve(accountId, id, 300, 'CREDITS_EXHAUSTED')));
    const granted = outcomes.filter((o) => o.status === 'fulfilled').length;
    expect(granted).toBe(33); // floor(10000 / 300)
    const view = await accounts.view(accountId);
    expect(view!.balance).toBe(10_000 - 33 * 300);
    expect(await ledger.ledgerSum(accountId)).toBe(view!.balance);
    const refused = outcomes.find((o) => o.status === 'rejected') as PromiseRejectedResult;
    expect(refused.reason).toMatchObject({ code: 'CREDITS_EXHAUSTED' });
  });

  it('holds the largest lesser amount the balance covers when it does not cover the whole, and refuses below the least', async () => {
    const { accountId } = await admin.create('lesser', 'free');
    await ledger.reserve(accountId, randomUUID(), 10_000 - 20, 60_000); // 20 left
    const credits = new CreditService(ledger, 60_000);
    const [first, second, third] = [randomUUID(), randomUUID(), randomUUID()];
    expect(await credits.reserve(accountId, first, 50, 'CREDITS_EXHAUSTED', [1, 10])).toBe(10);
    expect(await credits.reserve(accountId, second, 50, 'CREDITS_EXHAUSTED', [10, 1])).toBe(10);
    await expect(credits.reserve(accountId, third, 50, 'CREDITS_EXHAUSTED', [1, 10])).rejects.toMatchObject({
      code: 'CREDITS_EXHAUSTED',
      message: 'This request needs 1 to 50 credits and the account has 0 left in this period',
    });
    // One reservation per request, of the amount held; the refused one left nothing behind.
    const { rows } = await db.pool.query<{ id: string; amount: number }>('SELECT id, amount::int AS amount FROM reservations WHERE id = ANY($1::uuid[]) ORDER BY amount, id', [[first, second, third]]);
    expect(rows.map((r) => r.amount)).toEqual([10, 10]);
    expect(await credits.settle(first, 10, 1)).toBe(1);
    expect((await accounts.view(accountId))!.balance).toBe(9);
    expect(await credits.reserve(accountId, randomUUID(), 50, 'CREDITS_EXHAUSTED', [1, 10])).toBe(1);
    expect(await ledger.ledgerSum(accountId)).toBe((await accounts.view(accountId))!.balance);
  });

  it('never lets concurrent reservations with lesser amounts hold twice or take the balance below zero', async () => {
    const { accountId } = await admin.create('lesser-race', 'free');
    await ledger.reserve(accountId, randomUUID(), 10_000 - 137, 60_000); // 137 left
    const credits = new CreditService(ledger, 60_000);
    const ids = Array.from({ length: 40 }, () => randomUUID());
    const outcomes = await Promise.allSettled(ids.map((id) => credits.reserve(accountId, id, 50, 'CREDITS_EXHAUSTED', [1, 10])));
    const held = outcomes.flatMap((o) => (o.status === 'fulfilled' ? [o.value] : []));
    expect(held.every((a) => [1, 10, 50].includes(a))).toBe(true);
    const balance = (await accounts.view(accountId))!.balance;
    expect(balance).toBe(137 - held.reduce((a, b) => a + b, 0));
    expect(balance).toBeGreaterThanOrEqual(0);
    // A request was refused only when nothing at all was left.
    if (held.length < ids.length) expect(balance).toBe(0);
    const rows = await db.pool.query<{ request_id: string; n: number }>(
      `SELECT request_id, count(*)::int AS n FROM credit_ledger WHERE kind = 'reserve' AND request_id = ANY($1::uuid[]) GROUP BY request_id`, [ids]);
    expect(rows.rows).toHaveLength(held.length);
    expect(rows.rows.every((r) => r.n === 1)).toBe(true);
    expect(await ledger.ledgerSum(accountId)).toBe(balance);
  });

  it('settles once: charges what was used, returns the rest, and a second settle changes nothing', async () => {
    const { accountId } = await admin.create('settle', 'free');
    const credits = new CreditService(ledger, 60_000);
    const requestId = randomUUID();
    await credits.reserve(accountId, requestId, 20, 'CREDITS_EXHAUSTED');
    expect(await credits.settle(requestId, 20, 7)).toBe(7);
    expect(await credits.settle(requestId, 20, 7)).toBe(0);
    await credits.refund(requestId, 'late refund must not apply');
    const view = await accounts.view(accountId);
    expect(view!.balance).toBe(10_000 - 7);
    expect(await ledger.ledgerSum(accountId)).toBe(view!.balance);
  });

  it('settles a reservation partly used in one statement, and one fully used in one too', async () => {
    const { accountId } = await admin.create('settle-statements', 'free');
    const credits = new CreditService(ledger, 60_000);
    const [partly, fully] = [randomUUID(), randomUUID()];
    await credits.reserve(accountId, partly, 10, 'CREDITS_EXHAUSTED');
    await credits.reserve(accountId, fully, 10, 'CREDITS_EXHAUSTED');
    const statements = jest.spyOn(db.pool, 'query');
    try {
      expect(await credits.settle(partly, 10, 1)).toBe(1);
      expect(statements).toHaveBeenCalledTimes(1);
      statements.mockClear();
      expect(await credits.settle(fully, 10, 10)).toBe(10);
      expect(statements).toHaveBeenCalledTimes(1);
    } finally {
      statements.mockRestore();
    }
    expect((await accounts.view(accountId))!.balance).toBe(10_000 - 11);
    expect(await ledger.ledgerSum(accountId)).toBe(10_000 - 11);
  });

  it("writes reserves without waiting for the disk, and settles and refunds waiting for it", async () => {
    const setting = async (pool: typeof db.pool) => (await pool.query<{ synchronous_commit: string }>('SHOW synchronous_commit')).rows[0]!.synchronous_commit;
    expect(await setting(db.relaxedPool)).toBe('off');
    expect(await setting(db.pool)).toBe('on');
    // Which of the two each step of a call writes through.
    const { accountId } = await admin.create('durability', 'free');
    const credits = new CreditService(ledger, 60_000);
    const relaxed = jest.spyOn(db.relaxedPool, 'query');
    const durable = jest.spyOn(db.pool, 'query');
    const through = async (step: () => Promise<unknown>) => {
      relaxed.mockClear();
      durable.mockClear();
      await step();
      return { relaxed: relaxed.mock.calls.length > 0, durable: durable.mock.calls.length > 0 };
    };
    try {
      const [settled, refunded] = [randomUUID(), randomUUID()];
      expect(await through(() => credits.reserve(accountId, settled, 20, 'CREDITS_EXHAUSTED'))).toEqual({ relaxed: true, durable: false });
      expect(await through(() => credits.settle(settled, 20, 7))).toEqual({ relaxed: false, durable: true });
      await credits.reserve(accountId, refunded, 20, 'CREDITS_EXHAUSTED');
      expect(await through(() => credits.refund(refunded, 'failed work'))).toEqual({ relaxed: false, durable: true });
    } finally {
      relaxed.mockRestore();
      durable.mockRestore();
    }
    expect(await ledger.ledgerSum(accountId)).toBe(10_000 - 7);
  });

  it('fails a call whose reservation Postgres lost in a crash, instead of answering it for free', async () => {
    const { accountId } = await admin.create('lost-reserve', 'free');
    const credits = new CreditService(ledger, 60_000);
    const requestId = randomUUID();
    await credits.reserve(accountId, requestId, 20, 'CREDITS_EXHAUSTED');
    // What a crash leaves of a reserve whose commit had not reached the disk: nothing at all.
    await db.pool.query(
      `WITH gone AS (DELETE FROM reservations WHERE id = $1 RETURNING account_id, amount),
            row AS (DELETE FROM credit_ledger WHERE request_id = $1 AND kind = 'reserve')
       UPDATE accounts a SET balance = a.balance + gone.amount FROM gone WHERE a.id = gone.account_id`,
      [requestId],
    );
    await expect(credits.settle(requestId, 20, 20)).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    expect((await accounts.view(accountId))!.balance).toBe(10_000);
    expect(await ledger.ledgerSum(accountId)).toBe(10_000);
  });

  it('reconciler refunds a reservation its crashed gateway never settled', async () => {
    const { accountId } = await admin.create('crashed-gateway', 'free');
    const requestId = randomUUID();
    await ledger.reserve(accountId, requestId, 500, 1); // expires at once
    const reconciler = new BillingReconciler(ledger, systemClock);
    await pollUntil(async () => (await reconciler.run()).refunded >= 1 || (await accounts.view(accountId))!.balance === 10_000, 'refund');
    expect((await accounts.view(accountId))!.balance).toBe(10_000);
    expect(await ledger.ledgerSum(accountId)).toBe(10_000);
    // A late settle from the "dead" gateway charges nothing.
    expect(await ledger.settle(requestId, 500)).toBeNull();
  });

  it('period reset restores the allowance (no roll-over), keeping credits held by open reservations', async () => {
    const { accountId } = await admin.create('period', 'free');
    const spent = randomUUID();
    await ledger.reserve(accountId, spent, 4_000, 60_000);
    await ledger.settle(spent, 4_000);
    const held = randomUUID();
    await ledger.reserve(accountId, held, 100, 60_000);
    const endedAt = new Date(Date.now() - 1000);
    await accounts.setPeriodEnd(accountId, endedAt);
    const report = await new BillingReconciler(ledger, systemClock).run();
    expect(report.periodsReset).toBeGreaterThanOrEqual(1);
    const after = (await accounts.view(accountId))!;
    expect(after.balance).toBe(10_000 - 100);
    expect(after.periodEnd.getTime()).toBeGreaterThan(Date.now());
    expect(after.periodStart.getTime()).toBe(endedAt.getTime()); // the next period starts where the last ended
    await ledger.settle(held, 0);
    expect(await ledger.ledgerSum(accountId)).toBe((await accounts.view(accountId))!.balance);
    // Idempotent: a second reset in the same period does nothing.
    expect(await ledger.resetPeriodIfEnded(accountId, new Date())).toBe(false);
  });
});

describe('concurrency gate', () => {
  it('admits exactly the limit, then admits again after a release', async () => {
    const gate = new ConcurrencyGate(redis, prefix, 30_000);
    const account = randomUUID();
    const leases = await Promise.all(Array.from({ length: 8 }, () => gate.acquire(account, 3)));
    const held = leases.filter((l) => l !== null);
    expect(held).toHaveLength(3);
    expect(await gate.acquire(account, 3)).toBeNull();
    await held[0]!.release();
    const again = await gate.acquire(account, 3);
    expect(again).not.toBeNull();
    await Promise.all([...held.slice(1), again].map((l) => l!.release()));
    expect(await gate.inFlight(account)).toBe(0);
  });

  it('lets the leases of a dead gateway expire', async () => {
    const account = randomUUID();
    const doomed = new Redis(TEST_REDIS_URL);
    const deadGateway = new ConcurrencyGate(doomed, prefix, 1_000);
    expect(await deadGateway.acquire(account, 1)).not.toBeNull();
    doomed.disconnect(); // the process "dies": no release, no renewals
    const gate = new ConcurrencyGate(redis, prefix, 1_000);
    expect(await gate.acquire(account, 1)).toBeNull();
    const lease = await pollUntil(() => gate.acquire(account, 1), 'the dead lease to expire', 5_000, 50);
    await lease.release();
  });
});

describe('auth', () => {
  it('resolves a key, refuses a revoked one at once, and refuses a suspended account', async () => {
    const created = await admin.create('auth', 'developer');
    const principal = await auth.authenticate(created.apiKey);
    expect(principal).toMatchObject({ accountId: created.accountId, concurrencyLimit: 20 });
    await expect(auth.authenticate('trawl_not-a-real-key-000000')).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    await expect(auth.authenticate(undefined)).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    await admin.setStatus(created.accountId, 'suspended');
    await expect(auth.authenticate(created.apiKey)).rejects.toMatchObject({ code: 'ACCOUNT_SUSPENDED' });
    await admin.setStatus(created.accountId, 'active');
    await admin.revokeKeys(created.accountId);
    await expect(auth.authenticate(created.apiKey)).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
  });
});
