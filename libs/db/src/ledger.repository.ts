/**
 * The credit ledger: every change to an account's balance is one row, written in the same statement as the
 * balance change itself, so the ledger always sums to the balance. Reservations hold credits for a request
 * until it is settled (charge what was used, release the rest) or refunded (nothing used, or its gateway died).
 */
import type pg from 'pg';
import type { Database } from './database.js';

export type ReserveOutcome = { ok: true; balance: number } | { ok: false; balance: number | null };

export interface SettleOutcome {
  charged: number;
  balance: number;
}

/**
 * The CTEs that grant the requests of `req` (request_id, amount, ord from 1) in order while the account's balance
 * ($1; locked) covers them, each with its `reserve` row (balance_after the running balance) and its reservation
 * (expiring in $4 ms): `alloc` says of each whether it was granted.
 */
const GRANT_IN_ORDER = `acct AS (
         SELECT balance FROM accounts WHERE id = $1::uuid FOR UPDATE
       ), alloc AS (
         SELECT 0::bigint AS ord, NULL::uuid AS request_id, 0::bigint AS amount, false AS granted, (SELECT balance FROM acct) AS left_after
         UNION ALL
         SELECT r.ord, r.request_id, r.amount, r.amount <= a.left_after,
                CASE WHEN r.amount <= a.left_after THEN a.left_after - r.amount ELSE a.left_after END
         FROM alloc a JOIN req r ON r.ord = a.ord + 1
       ), granted AS (
         SELECT * FROM alloc WHERE ord > 0 AND granted
       ), upd AS (
         UPDATE accounts SET balance = balance - (SELECT sum(amount) FROM granted)
         WHERE id = $1 AND EXISTS (SELECT 1 FROM granted) RETURNING balance
       ), led AS (
         INSERT INTO credit_ledger (account_id, kind, amount, balance_after, request_id)
         SELECT $1, 'reserve', -amount, left_after, request_id FROM granted ORDER BY ord
       ), res AS (
         INSERT INTO reservations (id, account_id, amount, expires_at)
         SELECT request_id, $1, amount, now() + ($4::int * interval '1 millisecond') FROM granted
       )`;

/**
 * The statements on every call's path are named, so each pooled connection plans them once (node-postgres prepares a
 * named statement on first use) instead of parsing and planning the CTE on every request.
 */
export class LedgerRepository {
  private readonly pool: pg.Pool;
  private readonly reservePool: pg.Pool;

  constructor(db: Database) {
    this.pool = db.pool;
    this.reservePool = db.relaxedPool;
  }

  /**
   * Atomically takes `amount` from the balance if it suffices, recording a `reserve` row and an open reservation.
   *
   * Reserves commit without waiting for the disk (`Database.relaxedPool`): losing one in a Postgres crash is the same
   * as refunding it (the balance is as before, and nothing after it survived either, as the WAL is replayed in order),
   * and the call's settle, which commits synchronously, makes it durable before the call is answered. A settle that
   * finds its reservation gone altogether fails the call (`reservationState`), so no answered call goes uncharged.
   */
  async reserve(accountId: string, requestId: string, amount: number, ttlMs: number): Promise<ReserveOutcome> {
    const { rows } = await this.reservePool.query<{ balance: number }>({
      name: 'ledger-reserve',
      text: `WITH upd AS (
         UPDATE accounts SET balance = balance - $3 WHERE id = $1 AND balance >= $3 RETURNING balance
       ), led AS (
         INSERT INTO credit_ledger (account_id, kind, amount, balance_after, request_id)
         SELECT $1, 'reserve', -$3::bigint, balance, $2 FROM upd
       ), res AS (
         INSERT INTO reservations (id, account_id, amount, expires_at)
         SELECT $2, $1, $3, now() + ($4::int * interval '1 millisecond') FROM upd
       )
       SELECT balance FROM upd`,
      values: [accountId, requestId, amount, ttlMs],
    });
    if (rows.length === 1) return { ok: true, balance: rows[0].balance };
    const current = await this.pool.query<{ balance: number }>('SELECT balance FROM accounts WHERE id = $1', [accountId]);
    return { ok: false, balance: current.rows[0]?.balance ?? null };
  }

  /**
   * `reserve` for requests of one account that may have reserved already (crawl pages retried after their process
   * died), in one statement (one row lock, one commit): a request with a reservation answers the state it is in; the
   * others are granted in order while what is left covers them, as `reserveMany` grants them (`reserved`, or
   * `insufficient`). Request ids are distinct.
   */
  async reserveOnceMany(
    accountId: string,
    items: ReadonlyArray<{ requestId: string; amount: number }>,
    ttlMs: number,
  ): Promise<Array<'reserved' | 'insufficient' | 'open' | 'settled' | 'refunded'>> {
    const { rows } = await this.reservePool.query<{ existing: 'open' | 'settled' | 'refunded' | null; granted: boolean | null }>({
      name: 'ledger-reserve-once-many',
      text: `WITH RECURSIVE input AS (
         SELECT * FROM unnest($2::uuid[], $3::bigint[]) WITH ORDINALITY AS t(request_id, amount, ord)
       ), existing AS (
         SELECT id, status FROM reservations WHERE id = ANY($2::uuid[])
       ), req AS (
         SELECT i.request_id, i.amount, row_number() OVER (ORDER BY i.ord) AS ord
         FROM input i WHERE NOT EXISTS (SELECT 1 FROM existing e WHERE e.id = i.request_id)
       ), ${GRANT_IN_ORDER}
       SELECT e.status AS existing, a.granted FROM input i
       LEFT JOIN existing e ON e.id = i.request_id
       LEFT JOIN alloc a ON a.ord > 0 AND a.request_id = i.request_id
       ORDER BY i.ord`,
      values: [accountId, items.map((i) => i.requestId), items.map((i) => i.amount), ttlMs],
    });
    return rows.map((r) => r.existing ?? (r.granted ? 'reserved' : 'insufficient'));
  }

  /**
   * `reserve` for several requests of one account in one statement (one row lock, one commit): each is granted, in
   * order, if what is left after the earlier grants covers it — the same outcome as reserving them one by one. Each
   * granted request gets its own `reserve` row (balance_after is the running balance) and its own reservation.
   */
  async reserveMany(accountId: string, items: ReadonlyArray<{ requestId: string; amount: number }>, ttlMs: number): Promise<ReserveOutcome[]> {
    const { rows } = await this.reservePool.query<{ request_id: string; granted: boolean | null; balance: number | null }>({
      name: 'ledger-reserve-many',
      text: `WITH RECURSIVE req AS (
         SELECT * FROM unnest($2::uuid[], $3::bigint[]) WITH ORDINALITY AS t(request_id, amount, ord)
       ), ${GRANT_IN_ORDER}
       SELECT request_id, granted, left_after AS balance FROM alloc WHERE ord > 0 ORDER BY ord`,
      values: [accountId, items.map((i) => i.requestId), items.map((i) => i.amount), ttlMs],
    });
    return rows.map((r) => (r.granted ? { ok: true, balance: r.balance ?? 0 } : { ok: false, balance: r.balance }));
  }

  /**
   * The common case of `settle` (everything reserved was used) for many requests in one statement: nothing goes back
   * to the balance, so the account row is not locked; each still gets its zero-amount settle row for the audit trail.
   * Returns the requests it settled; the others (partly used, or already closed) go through `settlePartly`.
   */
  async settleFullMany(items: ReadonlyArray<{ requestId: string; charged: number }>): Promise<Map<string, SettleOutcome>> {
    const { rows } = await this.pool.query<{ id: string; charged: number; balance: number }>({
      name: 'ledger-settle-full-many',
      text: `WITH items AS (
         SELECT * FROM unnest($1::uuid[], $2::bigint[]) AS t(id, charged)
       ), r AS (
         UPDATE reservations res SET status = 'settled', charged = res.amount, settled_at = now()
         FROM items WHERE res.id = items.id AND res.status = 'open' AND res.amount <= items.charged
         RETURNING res.id, res.account_id, res.amount
       ), led AS (
         INSERT INTO credit_ledger (account_id, kind, amount, balance_after, request_id, note)
         SELECT r.account_id, 'settle', 0, a.balance, r.id, 'charged ' || r.amount FROM r JOIN accounts a ON a.id = r.account_id
         RETURNING request_id, balance_after
       )
       SELECT r.id, r.amount AS charged, led.balance_after AS balance FROM r JOIN led ON led.request_id = r.id`,
      values: [items.map((i) => i.requestId), items.map((i) => i.charged)],
    });
    return new Map(rows.map((r) => [r.id, { charged: r.charged, balance: r.balance }]));
  }

  /**
   * Closes an open reservation, charging `charged` (clamped to the reservation) and returning the rest.
   * Returns null when the reservation was already closed (settled, refunded by the reconciler): nothing twice.
   */
  async settle(requestId: string, charged: number): Promise<SettleOutcome | null> {
    return (await this.settleFullMany([{ requestId, charged }])).get(requestId) ?? this.settlePartly(requestId, charged);
  }

  /**
   * `settle` when part of the reservation goes back to the balance (the account row is updated), or when the
   * reservation is already closed (null). `settleFullMany` has taken the common case, everything used, before.
   */
  async settlePartly(requestId: string, charged: number): Promise<SettleOutcome | null> {
    const { rows } = await this.pool.query<{ charged: number; balance: number }>({
      name: 'ledger-settle-partial',
      text: `WITH r AS (
         UPDATE reservations SET status = 'settled', charged = LEAST($2::bigint, amount), settled_at = now()
         WHERE id = $1 AND status = 'open'
         RETURNING account_id, amount, charged
       ), upd AS (
         UPDATE accounts a SET balance = a.balance + (r.amount - r.charged) FROM r WHERE a.id = r.account_id
         RETURNING a.balance, r.amount, r.charged, r.account_id
       ), led AS (
         INSERT INTO credit_ledger (account_id, kind, amount, balance_after, request_id, note)
         SELECT account_id, 'settle', amount - charged, balance, $1, 'charged ' || charged FROM upd
       )
       SELECT charged, balance FROM upd`,
      values: [requestId, charged],
    });
    return rows[0] ?? null;
  }

  /** Returns the whole reservation (nothing was consumed). Null when it was already closed. */
  async refund(requestId: string, note: string): Promise<{ balance: number } | null> {
    const { rows } = await this.pool.query<{ balance: number }>({
      name: 'ledger-refund',
      text: `WITH r AS (
         UPDATE reservations SET status = 'refunded', charged = 0, settled_at = now()
         WHERE id = $1 AND status = 'open'
         RETURNING account_id, amount
       ), upd AS (
         UPDATE accounts a SET balance = a.balance + r.amount FROM r WHERE a.id = r.account_id
         RETURNING a.balance, r.amount, r.account_id
       ), led AS (
         INSERT INTO credit_ledger (account_id, kind, amount, balance_after, request_id, note)
         SELECT account_id, 'refund', amount, balance, $1, $2 FROM upd
       )
       SELECT balance FROM upd`,
      values: [requestId, note],
    });
    return rows[0] ?? null;
  }

  /**
   * `refund` for many requests in one statement (each account's row updated once): the requests whose reservation
   * was open get it back, each with its own `refund` row (balance_after the account's running balance, in order).
   * Returns the requests it refunded; the others were closed already. Request ids are distinct.
   */
  async refundMany(items: ReadonlyArray<{ requestId: string; note: string }>): Promise<Set<string>> {
    const { rows } = await this.pool.query<{ id: string }>({
      name: 'ledger-refund-many',
      text: `WITH items AS (
         SELECT * FROM unnest($1::uuid[], $2::text[]) WITH ORDINALITY AS t(id, note, ord)
       ), r AS (
         UPDATE reservations res SET status = 'refunded', charged = 0, settled_at = now()
         FROM items WHERE res.id = items.id AND res.status = 'open'
         RETURNING res.id, res.account_id, res.amount
       ), sums AS (
         SELECT account_id, sum(amount) AS total FROM r GROUP BY account_id
       ), upd AS (
         UPDATE accounts a SET balance = a.balance + s.total FROM sums s WHERE a.id = s.account_id
         RETURNING a.id, a.balance, s.total
       ), led AS (
         INSERT INTO credit_ledger (account_id, kind, amount, balance_after, request_id, note)
         SELECT r.account_id, 'refund', r.amount,
                upd.balance - upd.total + sum(r.amount) OVER (PARTITION BY r.account_id ORDER BY i.ord), r.id, i.note
         FROM r JOIN items i ON i.id = r.id JOIN upd ON upd.id = r.account_id
         ORDER BY i.ord
       )
       SELECT id FROM r`,
      values: [items.map((i) => i.requestId), items.map((i) => i.note.slice(0, 200))],
    });
    return new Set(rows.map((r) => r.id));
  }

  /** What became of a request's reservation: `missing` when Postgres has no record of it (lost in a crash). */
  async reservationState(requestId: string): Promise<'open' | 'settled' | 'refunded' | 'missing'> {
    const { rows } = await this.pool.query<{ status: 'open' | 'settled' | 'refunded' }>('SELECT status FROM reservations WHERE id = $1', [requestId]);
    return rows[0]?.status ?? 'missing';
  }

  /** Open reservations past their expiry: their gateway never settled them. */
  async expiredReservations(limit: number): Promise<string[]> {
    const { rows } = await this.pool.query<{ id: string }>(
      `SELECT id FROM reservations WHERE status = 'open' AND expires_at < now() ORDER BY expires_at LIMIT $1`,
      [limit],
    );
    return rows.map((r) => r.id);
  }

  /** Adds credits outside any request (initial allowance, manual top-up). */
  async grant(accountId: string, amount: number, note: string): Promise<number> {
    const { rows } = await this.pool.query<{ balance: number }>(
      `WITH upd AS (UPDATE accounts SET balance = balance + $2 WHERE id = $1 RETURNING balance)
       , led AS (INSERT INTO credit_ledger (account_id, kind, amount, balance_after, note) SELECT $1, 'grant', $2, balance, $3 FROM upd)
       SELECT balance FROM upd`,
      [accountId, amount, note],
    );
    if (rows.length === 0) throw new Error(`No account ${accountId}`);
    return rows[0].balance;
  }

  /**
   * Starts the next billing period if the current one has ended: the balance becomes the plan's allowance
   * (unused credits do not roll over) minus what open reservations still hold. Idempotent under concurrency.
   */
  async resetPeriodIfEnded(accountId: string, now: Date): Promise<boolean> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      const { rows } = await client.query<{
        balance: number;
        period_start: Date;
        period_end: Date;
        monthly_credits: number;
      }>(
        `SELECT a.balance, a.period_start, a.period_end, p.monthly_credits
         FROM accounts a JOIN plans p ON p.id = a.plan_id WHERE a.id = $1 FOR UPDATE OF a`,
        [accountId],
      );
      const account = rows[0];
      if (!account || account.period_end > now) {
        await client.query('ROLLBACK');
        return false;
      }
      const held = await client.query<{ held: string | null }>(
        `SELECT sum(amount) AS held FROM reservations WHERE account_id = $1 AND status = 'open'`,
        [accountId],
      );
      const newBalance = Math.max(0, account.monthly_credits - Number(held.rows[0]?.held ?? 0));
      let start = account.period_end;
      let end = addMonths(start, 1);
      while (end <= now) {
        start = end;
        end = addMonths(start, 1);
      }
      await client.query(
        `UPDATE accounts SET balance = $2, period_start = $3, period_end = $4, updated_at = now() WHERE id = $1`,
        [accountId, newBalance, start, end],
      );
      await client.query(
        `INSERT INTO credit_ledger (account_id, kind, amount, balance_after, note) VALUES ($1, 'period_reset', $2, $3, $4)`,
        [accountId, newBalance - account.balance, newBalance, `period ${start.toISOString()} – ${end.toISOString()}`],
      );
      await client.query('COMMIT');
      return true;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  async accountsWithEndedPeriod(now: Date, limit: number): Promise<string[]> {
    const { rows } = await this.pool.query<{ id: string }>(
      `SELECT id FROM accounts WHERE period_end <= $1 ORDER BY period_end LIMIT $2`,
      [now, limit],
    );
    return rows.map((r) => r.id);
  }

  /** The account's balance now (credits remaining in this period), or null for an unknown account. */
  async balance(accountId: string): Promise<number | null> {
    const { rows } = await this.pool.query<{ balance: number }>('SELECT balance FROM accounts WHERE id = $1', [accountId]);
    return rows[0]?.balance ?? null;
  }

  /** Sum of the ledger, for checks: must equal the balance. */
  async ledgerSum(accountId: string): Promise<number> {
    const { rows } = await this.pool.query<{ total: string | null }>(
      'SELECT sum(amount) AS total FROM credit_ledger WHERE account_id = $1',
      [accountId],
    );
    return Number(rows[0]?.total ?? 0);
  }
}

/** Adds calendar months in UTC, clamping to the month's last day (Jan 31 + 1 month = Feb 28/29). */
export function addMonths(date: Date, months: number): Date {
  const d = new Date(date.getTime());
  const day = d.getUTCDate();
  d.setUTCDate(1);
  d.setUTCMonth(d.getUTCMonth() + months);
  const lastDay = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();
  d.setUTCDate(Math.min(day, lastDay));
  return d;
}
