/**
 * What must hold after any fault, read straight from Postgres and Redis: the ledger sums to every balance, no
 * balance is negative, every reservation is closed exactly once and never charges more than it held, and every
 * Redis key Trawl wrote has a bounded lifetime. Each check returns the offending rows or keys (empty = holds).
 */
import type { Redis } from 'ioredis';
import type pg from 'pg';

export interface LedgerViolations {
  ledgerNotBalance: unknown[];
  negativeBalance: unknown[];
  /** A request with other than one reserve row, or more than one closing (settle/refund) row: charged twice. */
  notOncePerRequest: unknown[];
  /** A closed reservation charged more than it held, or without its one closing ledger row. */
  badlyClosed: unknown[];
  /** Balance ≠ credits granted − credits charged (what the reservations say they charged). */
  chargesNotBalance: unknown[];
  /** A request-log row whose credits differ from what its reservation charged. */
  logNotCharged: unknown[];
}

export async function ledgerViolations(db: pg.Pool): Promise<LedgerViolations> {
  const rows = async (sql: string) => (await db.query(sql)).rows;
  return {
    ledgerNotBalance: await rows(
      `SELECT a.id, a.balance, coalesce(sum(l.amount), 0)::bigint AS ledger FROM accounts a LEFT JOIN credit_ledger l ON l.account_id = a.id
       GROUP BY a.id HAVING a.balance <> coalesce(sum(l.amount), 0)`,
    ),
    negativeBalance: await rows(`SELECT id, balance FROM accounts WHERE balance < 0`),
    notOncePerRequest: await rows(
      `SELECT request_id, count(*) FILTER (WHERE kind = 'reserve') AS reserves, count(*) FILTER (WHERE kind IN ('settle', 'refund')) AS closings
       FROM credit_ledger WHERE request_id IS NOT NULL GROUP BY request_id
       HAVING count(*) FILTER (WHERE kind = 'reserve') <> 1 OR count(*) FILTER (WHERE kind IN ('settle', 'refund')) > 1`,
    ),
    badlyClosed: await rows(
      `SELECT r.id, r.status, r.amount, r.charged, count(l.id) AS closings FROM reservations r
       LEFT JOIN credit_ledger l ON l.request_id = r.id AND l.kind IN ('settle', 'refund')
       WHERE r.status <> 'open' GROUP BY r.id
       HAVING count(l.id) <> 1 OR r.charged IS NULL OR r.charged < 0 OR r.charged > r.amount OR (r.status = 'refunded' AND r.charged <> 0)`,
    ),
    chargesNotBalance: await rows(
      `SELECT a.id, a.balance, g.granted, coalesce(c.charged, 0) AS charged, coalesce(o.held, 0) AS held FROM accounts a
       JOIN (SELECT account_id, sum(amount) AS granted FROM credit_ledger WHERE kind IN ('grant', 'period_reset') GROUP BY account_id) g ON g.account_id = a.id
       LEFT JOIN (SELECT account_id, sum(charged) AS charged FROM reservations WHERE status <> 'open' GROUP BY account_id) c ON c.account_id = a.id
       LEFT JOIN (SELECT account_id, sum(amount) AS held FROM reservations WHERE status = 'open' GROUP BY account_id) o ON o.account_id = a.id
       WHERE a.balance <> g.granted - coalesce(c.charged, 0) - coalesce(o.held, 0)`,
    ),
    logNotCharged: await rows(
      `SELECT l.id, l.credits, r.charged, r.status FROM request_log l JOIN reservations r ON r.id = l.id
       WHERE r.status <> 'open' AND l.credits <> r.charged`,
    ),
  };
}

export async function openReservations(db: pg.Pool): Promise<number> {
  const { rows } = await db.query<{ open: number }>(`SELECT count(*)::int AS open FROM reservations WHERE status = 'open'`);
  return rows[0].open;
}

/** Credits charged per account by closed reservations. */
export async function chargedByAccount(db: pg.Pool): Promise<Map<string, number>> {
  const { rows } = await db.query<{ account_id: string; charged: number }>(
    `SELECT account_id, coalesce(sum(charged), 0)::bigint AS charged FROM reservations WHERE status <> 'open' GROUP BY account_id`,
  );
  return new Map(rows.map((r) => [r.account_id, Number(r.charged)]));
}

export async function jobsIn(redis: Redis, prefix: string, queue: string, state: 'active' | 'wait'): Promise<number> {
  return redis.llen(`${prefix}:${queue}:${state}`);
}

async function scanAll(redis: Redis, pattern: string): Promise<string[]> {
  const keys: string[] = [];
  let cursor = '0';
  do {
    const [next, batch] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
    keys.push(...batch);
    cursor = next;
  } while (cursor !== '0');
  return keys;
}

/**
 * BullMQ keeps a queue's identity in three keys that cannot expire while the queue is in use — its `meta` hash
 * (version, event-stream cap), its job-id counter `id` (expiring it would reuse ids of records still present), and
 * its `events` stream (trimmed by BullMQ to its MAXLEN) — each constant or capped in size. Its state sets exist only
 * while they hold jobs. Job records have no TTL either: a finished one is deleted by its waiter, by
 * removeOnComplete/removeOnFail age, or by the gateway's periodic `clean`, which only reaches records listed in the
 * `completed` or `failed` set. So a record listed there has a bounded lifetime, and one listed nowhere would leak.
 */
const QUEUE_STRUCTURE = /^(meta|id|events|completed|failed|wait|active|paused|delayed|prioritized|marker|pc|stalled)$/;

export interface KeyReport {
  total: number;
  withTtl: number;
  /** BullMQ queue structure (see above), by suffix. */
  structural: Record<string, number>;
  /** Finished job records, each listed in its queue's completed or failed set. */
  finishedJobs: number;
  /** Keys with no TTL and no bound: each one a leak. */
  unbounded: string[];
}

/** Every key under `prefix`: expiring, BullMQ structure, a finished job record awaiting `clean` — or unbounded. */
export async function keyLifetimes(redis: Redis, prefix: string, queues: readonly string[]): Promise<KeyReport> {
  const report: KeyReport = { total: 0, withTtl: 0, structural: {}, finishedJobs: 0, unbounded: [] };
  for (const key of await scanAll(redis, `${prefix}:*`)) {
    report.total++;
    const ttl = await redis.pttl(key);
    if (ttl === -2) continue; // expired while we looked
    if (ttl >= 0) {
      report.withTtl++;
      continue;
    }
    const rest = key.slice(prefix.length + 1);
    const queue = queues.find((q) => rest.startsWith(`${q}:`));
    const suffix = queue ? rest.slice(queue.length + 1) : '';
    if (queue && QUEUE_STRUCTURE.test(suffix)) {
      report.structural[suffix] = (report.structural[suffix] ?? 0) + 1;
      continue;
    }
    if (queue && /^\d+$/.test(suffix)) {
      const listed = (await redis.zscore(`${prefix}:${queue}:completed`, suffix)) ?? (await redis.zscore(`${prefix}:${queue}:failed`, suffix));
      if (listed !== null) {
        report.finishedJobs++;
        continue;
      }
    }
    report.unbounded.push(key);
  }
  return report;
}
