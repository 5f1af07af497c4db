/**
 * A benchmark run's own state in the shared Postgres and Redis: a fresh, migrated database with one account per plan
 * and a Redis key prefix, both removed by `drop()`; and the ledger check a run ends with.
 */
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { Redis } from 'ioredis';
import pg from 'pg';
import { AccountAdminService, AuthService } from '#billing';
import { systemClock } from '#platform';
import { AccountsRepository, Database, LedgerRepository, migrate } from '#db';

export interface BenchAccount {
  plan: string;
  accountId: string;
  apiKey: string;
}

export interface BenchStateOptions {
  repoRoot: string;
  /** Postgres admin URL (the database is created and dropped through it). */
  pgAdminUrl: string;
  redisUrl: string;
  /** One account is created per entry, in order. */
  plans: string[];
}

export interface BenchState {
  databaseUrl: string;
  /** Every Trawl process of the run uses it as REDIS_PREFIX; drop() deletes `<prefix>:*`. */
  redisPrefix: string;
  accounts: BenchAccount[];
  /** Drops the database and deletes the prefix's Redis keys. Idempotent. */
  drop(): Promise<void>;
}

export async function createBenchState(opts: BenchStateOptions): Promise<BenchState> {
  const dbName = `trawl_bench_${randomBytes(3).toString('hex')}`;
  const admin = new pg.Client({ connectionString: opts.pgAdminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${dbName}`);
  const dbUrl = new URL(opts.pgAdminUrl);
  dbUrl.pathname = `/${dbName}`;
  const redisPrefix = `trawl-bench-${dbName}`;
  let dropped: Promise<void> | undefined;
  const drop = (): Promise<void> =>
    (dropped ??= (async () => {
      try {
        await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
      } finally {
        await admin.end();
        await deleteKeys(opts.redisUrl, redisPrefix);
      }
    })());
  try {
    await migrate(dbUrl.toString(), path.join(opts.repoRoot, 'prisma/migrations'));
    const db = new Database(dbUrl.toString(), 2);
    try {
      const accounts = new AccountsRepository(db);
      const ledger = new LedgerRepository(db);
      const admins = new AccountAdminService(accounts, ledger, new AuthService(accounts, systemClock, 0, null, 'bench'), systemClock);
      const created: BenchAccount[] = [];
      for (const [i, plan] of opts.plans.entries()) created.push({ plan, ...(await admins.create(`bench-${plan}-${i}`, plan)) });
      return { databaseUrl: dbUrl.toString(), redisPrefix, accounts: created, drop };
    } finally {
      await db.close();
    }
  } catch (error) {
    await drop();
    throw error;
  }
}

async function deleteKeys(redisUrl: string, prefix: string): Promise<void> {
  const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    for (let cursor = '0'; ; ) {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 500);
      if (keys.length > 0) await redis.del(...keys);
      cursor = next;
      if (cursor === '0') break;
    }
  } finally {
    redis.disconnect();
  }
}

export interface LedgerCheck {
  balance: number;
  /** allowance − balance == the credits the 200 responses reported. */
  chargedAsReported: boolean;
  ledgerSumsToBalance: boolean;
  openReservations: number;
}

/**
 * Waits (up to 30 s) for every reservation of the account to settle, then checks the balance against the plan's
 * allowance minus `charged` (the credits of the responses that returned 200) and the ledger's sum against the balance.
 */
export async function checkLedger(databaseUrl: string, accountId: string, charged: number): Promise<LedgerCheck> {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const open = async () =>
      (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM reservations WHERE account_id = $1 AND status = 'open'`, [accountId])).rows[0].n;
    for (const deadline = Date.now() + 30_000; (await open()) > 0 && Date.now() < deadline; ) await new Promise((resolve) => setTimeout(resolve, 250));
    const { rows } = await db.query<{ balance: string; ledger: string; allowance: number }>(
      `SELECT a.balance::text AS balance, (SELECT coalesce(sum(amount), 0) FROM credit_ledger l WHERE l.account_id = a.id)::text AS ledger,
              p.monthly_credits AS allowance
         FROM accounts a JOIN plans p ON p.id = a.plan_id WHERE a.id = $1`,
      [accountId],
    );
    const { balance, ledger, allowance } = rows[0];
    return {
      balance: Number(balance),
      chargedAsReported: Number(allowance) - Number(balance) === charged,
      ledgerSumsToBalance: ledger === balance,
      openReservations: await open(),
    };
  } finally {
    await db.end();
  }
}
