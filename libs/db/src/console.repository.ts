/**
 * What the console reads and writes beyond account administration: usage by day, the request log page by page,
 * named keys, and one-time sign-in links. Every query is scoped to one account (or, for the operator's usage view,
 * bounded by time) and served by the (account_id, created_at) indexes of the request log and the ledger.
 */
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import type { Database } from './database.js';
import type { CallDetail } from './request-log.repository.js';
import { usageRows } from './usage-rows.js';

export interface UsageDay {
  /** UTC day, `YYYY-MM-DD`. */
  day: string;
  endpoint: string;
  calls: number;
  errors: number;
  credits: number;
}

export interface RequestRow {
  id: string;
  requestId: string | null;
  endpoint: string;
  status: number;
  credits: number;
  durationMs: number;
  errorCode: string | null;
  createdAt: Date;
}

export interface RequestFilter {
  endpoint?: string;
  outcome?: 'ok' | 'error';
  /** Rows strictly older than this one (created_at, id): the next page. */
  before?: { createdAt: Date; id: string };
  since?: Date;
  limit: number;
}

export interface KeyRow {
  id: string;
  name: string | null;
  prefix: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

export interface AccountUsageRow {
  accountId: string;
  name: string;
  calls: number;
  errors: number;
  credits: number;
}

const ROW = `id, request_id, endpoint, status, credits, duration_ms, error_code, created_at`;
type DbRow = { id: string; request_id: string | null; endpoint: string; status: number; credits: number; duration_ms: number; error_code: string | null; created_at: Date };
const toRow = (r: DbRow): RequestRow => ({
  id: r.id,
  requestId: r.request_id,
  endpoint: r.endpoint,
  status: r.status,
  credits: r.credits,
  durationMs: r.duration_ms,
  errorCode: r.error_code,
  createdAt: r.created_at,
});

export class ConsoleRepository {
  private readonly pool: pg.Pool;

  constructor(db: Database) {
    this.pool = db.pool;
  }

  async usageByDay(accountId: string, since: Date): Promise<UsageDay[]> {
    return this.byDay(usageRows({ account: '$1', since: '$2' }), [accountId, since]);
  }

  /** Usage rows (`usageRows`) summed by UTC day and endpoint. */
  private async byDay(rows: string, values: unknown[]): Promise<UsageDay[]> {
    const result = await this.pool.query<UsageDay>(
      `SELECT to_char(date_trunc('day', created_at AT TIME ZONE 'UTC'), 'YYYY-MM-DD') AS day, endpoint,
              sum(calls)::int AS calls, sum(errors)::int AS errors, coalesce(sum(credits), 0)::bigint AS credits
       FROM ${rows} AS u GROUP BY 1, 2 ORDER BY 1, 2`,
      values,
    );
    return result.rows;
  }

  async requests(accountId: string, filter: RequestFilter): Promise<RequestRow[]> {
    const where = ['account_id = $1'];
    const values: unknown[] = [accountId];
    if (filter.endpoint) where.push(`endpoint = $${values.push(filter.endpoint)}`);
    if (filter.outcome === 'ok') where.push('status < 400');
    if (filter.outcome === 'error') where.push('status >= 400');
    if (filter.since) where.push(`created_at >= $${values.push(filter.since)}`);
    if (filter.before) {
      const at = values.push(filter.before.createdAt);
      const id = values.push(filter.before.id);
      where.push(`(created_at, id) < ($${at}, $${id}::uuid)`);
    }
    const { rows } = await this.pool.query<DbRow>(
      `SELECT ${ROW} FROM request_log WHERE ${where.join(' AND ')} ORDER BY created_at DESC, id DESC LIMIT $${values.push(filter.limit)}`,
      values,
    );
    return rows.map(toRow);
  }

  async request(accountId: string, id: string): Promise<(RequestRow & { detail: CallDetail | null }) | null> {
    const { rows } = await this.pool.query<DbRow & { detail: CallDetail | null }>(
      `SELECT ${ROW}, detail FROM request_log WHERE account_id = $1 AND id = $2`,
      [accountId, id],
    );
    return rows[0] ? { ...toRow(rows[0]), detail: rows[0].detail } : null;
  }

  async endpoints(accountId: string): Promise<string[]> {
    const { rows } = await this.pool.query<{ endpoint: string }>(
      'SELECT DISTINCT endpoint FROM request_log WHERE account_id = $1 ORDER BY endpoint LIMIT 100',
      [accountId],
    );
    return rows.map((r) => r.endpoint);
  }

  async keys(accountId: string): Promise<KeyRow[]> {
    const { rows } = await this.pool.query<{ id: string; name: string | null; prefix: string; created_at: Date; last_used_at: Date | null; revoked_at: Date | null }>(
      `SELECT id, name, prefix, created_at, last_used_at, revoked_at FROM api_keys WHERE account_id = $1
       ORDER BY revoked_at IS NOT NULL, created_at DESC`,
      [accountId],
    );
    return rows.map((r) => ({ id: r.id, name: r.name, prefix: r.prefix, createdAt: r.created_at, lastUsedAt: r.last_used_at, revokedAt: r.revoked_at }));
  }

  async liveKeyCount(accountId: string): Promise<number> {
    const { rows } = await this.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM api_keys WHERE account_id = $1 AND revoked_at IS NULL', [accountId]);
    return rows[0].n;
  }

  async addNamedKey(accountId: string, prefix: string, hash: string, name: string | null): Promise<KeyRow> {
    const { rows } = await this.pool.query<{ id: string; created_at: Date }>(
      'INSERT INTO api_keys (id, account_id, prefix, hash, name) VALUES ($1, $2, $3, $4, $5) RETURNING id, created_at',
      [randomUUID(), accountId, prefix, hash, name],
    );
    return { id: rows[0].id, name, prefix, createdAt: rows[0].created_at, lastUsedAt: null, revokedAt: null };
  }

  /** Revokes one live key of the account; its hash (for cache invalidation), or null when there was none. */
  async revokeKey(accountId: string, keyId: string, at: Date): Promise<string | null> {
    const { rows } = await this.pool.query<{ hash: string }>(
      'UPDATE api_keys SET revoked_at = $3 WHERE account_id = $1 AND id = $2 AND revoked_at IS NULL RETURNING hash',
      [accountId, keyId, at],
    );
    return rows[0]?.hash ?? null;
  }

  /** The key a console session was opened with: its account's status and whether it was revoked since. */
  async keyState(keyId: string): Promise<{ accountId: string; revoked: boolean; status: string } | null> {
    const { rows } = await this.pool.query<{ account_id: string; revoked: boolean; status: string }>(
      'SELECT k.account_id, k.revoked_at IS NOT NULL AS revoked, a.status FROM api_keys k JOIN accounts a ON a.id = k.account_id WHERE k.id = $1',
      [keyId],
    );
    return rows[0] ? { accountId: rows[0].account_id, revoked: rows[0].revoked, status: rows[0].status } : null;
  }

  async keyIdByHash(hash: string): Promise<string | null> {
    const { rows } = await this.pool.query<{ id: string }>('SELECT id FROM api_keys WHERE hash = $1', [hash]);
    return rows[0]?.id ?? null;
  }

  async accountStatus(accountId: string): Promise<string | null> {
    const { rows } = await this.pool.query<{ status: string }>('SELECT status FROM accounts WHERE id = $1', [accountId]);
    return rows[0]?.status ?? null;
  }

  async createLink(accountId: string, hash: string, expiresAt: Date): Promise<void> {
    await this.pool.query('INSERT INTO console_links (id, account_id, hash, expires_at) VALUES ($1, $2, $3, $4)', [randomUUID(), accountId, hash, expiresAt]);
  }

  /** Marks the link used if it is unused and unexpired, in one statement (two tabs cannot both use it). */
  async consumeLink(hash: string, now: Date): Promise<string | null> {
    const { rows } = await this.pool.query<{ account_id: string }>(
      'UPDATE console_links SET used_at = $2 WHERE hash = $1 AND used_at IS NULL AND expires_at > $2 RETURNING account_id',
      [hash, now],
    );
    // Spent and expired links are no use to anyone: drop them while here.
    await this.pool.query('DELETE FROM console_links WHERE expires_at < $1', [new Date(now.getTime() - 86_400_000)]);
    return rows[0]?.account_id ?? null;
  }

  /** The operator's view: usage by day over every account since `since`. */
  async usageByDayAll(since: Date): Promise<UsageDay[]> {
    return this.byDay(usageRows({ since: '$1' }), [since]);
  }

  async usageByAccount(since: Date, limit: number): Promise<AccountUsageRow[]> {
    const { rows } = await this.pool.query<{ account_id: string; name: string; calls: number; errors: number; credits: number }>(
      `SELECT a.id AS account_id, a.name, coalesce(sum(u.calls), 0)::int AS calls, coalesce(sum(u.errors), 0)::int AS errors,
              coalesce(sum(u.credits), 0)::bigint AS credits
       FROM accounts a LEFT JOIN ${usageRows({ since: '$1' })} AS u ON u.account_id = a.id
       GROUP BY a.id, a.name ORDER BY credits DESC, calls DESC, a.name LIMIT $2`,
      [since, limit],
    );
    return rows.map((r) => ({ accountId: r.account_id, name: r.name, calls: r.calls, errors: r.errors, credits: r.credits }));
  }
}
