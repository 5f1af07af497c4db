/**
 * The request log, written in batches off the request path: one multi-row INSERT per flush.
 */
import type pg from 'pg';
import type { Database } from './database.js';

/** Per-URL outcomes of a call over URLs (a crawl), bounded by its writer; shown in the console's request detail. */
export interface CallDetail {
  urls: Array<{ url: string; status_code?: number; error?: string; cache_state?: 'hit' | 'miss' }>;
  /** URLs left out past the bound. */
  more?: number;
  /** The LLM formats' tokens and price (a /crawl with summary or json). */
  llm?: { model: string; prompt_tokens: number; completion_tokens: number; credits: number };
  /** Where the call's traffic left from (`/search` with geolocation, `/headful-browser`): the response's `egress`. */
  egress?: { via: 'proxy' | 'direct'; country?: string };
}

export interface RequestLogEntry {
  id: string;
  accountId: string | null;
  endpoint: string;
  status: number;
  credits: number;
  durationMs: number;
  errorCode: string | null;
  createdAt: Date;
  /** The HTTP request's id (`x-request-id`) when it is not `id`. */
  requestId?: string | null;
  detail?: CallDetail | null;
}

export class RequestLogRepository {
  private readonly pool: pg.Pool;

  constructor(db: Database) {
    this.pool = db.pool;
  }

  async insertMany(entries: RequestLogEntry[]): Promise<void> {
    if (entries.length === 0) return;
    const values: unknown[] = [];
    const tuples = entries.map((e, i) => {
      values.push(e.id, e.accountId, e.endpoint, e.status, e.credits, e.durationMs, e.errorCode, e.createdAt, e.requestId ?? null, e.detail ? JSON.stringify(e.detail) : null);
      const o = i * 10;
      return `($${o + 1}, $${o + 2}, $${o + 3}, $${o + 4}, $${o + 5}, $${o + 6}, $${o + 7}, $${o + 8}, $${o + 9}, $${o + 10})`;
    });
    await this.pool.query(
      `INSERT INTO request_log (id, account_id, endpoint, status, credits, duration_ms, error_code, created_at, request_id, detail)
       VALUES ${tuples.join(', ')} ON CONFLICT (id) DO NOTHING`,
      values,
    );
  }
}
