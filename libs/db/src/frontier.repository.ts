/**
 * The part of a crawl's frontier kept in Postgres: admitted URLs past the bound a crawl keeps pending in Redis
 * (frontier-spill.ts in libs/crawls). Rows are appended in admission order (`seq`) and read back in it; a row stays
 * until the crawl finishes, so a batch written again after a crash (same hashes) adds nothing and nothing is read
 * back twice.
 */
import type pg from 'pg';
import type { Database } from './database.js';

/** One admitted URL: its hash (the frontier's id for it), its host's queue, its pending entry. */
export interface FrontierUrl {
  hash: string;
  host: string;
  entry: string;
}

export interface SpilledUrl extends FrontierUrl {
  /** Its place in admission order (a string: a bigint). */
  seq: string;
}

export class FrontierRepository {
  private readonly pool: pg.Pool;

  constructor(db: Database) {
    this.pool = db.pool;
  }

  /**
   * Appends URLs in order; a hash the crawl has already is skipped. Writers of one crawl take turns (a transaction
   * lock), so `seq` grows in commit order and a reader that went past a `seq` never sees a smaller one appear.
   */
  async append(jobId: string, urls: readonly FrontierUrl[]): Promise<void> {
    if (urls.length === 0) return;
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query(`SELECT pg_advisory_xact_lock(hashtextextended($1::text, 0))`, [`crawl_frontier:${jobId}`]);
      await client.query(
        `INSERT INTO crawl_frontier (job_id, hash, host, entry)
         SELECT $1, u.hash, u.host, u.entry FROM unnest($2::text[], $3::text[], $4::text[]) WITH ORDINALITY AS u(hash, host, entry, n)
         ORDER BY u.n
         ON CONFLICT (job_id, hash) DO NOTHING`,
        [jobId, urls.map((u) => u.hash), urls.map((u) => u.host), urls.map((u) => u.entry)],
      );
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  /** The crawl's URLs after `seq`, in admission order, at most `limit`. */
  async after(jobId: string, seq: string, limit: number): Promise<SpilledUrl[]> {
    const { rows } = await this.pool.query<SpilledUrl>(
      // Ordered by the column, not by the text it is returned as.
      `SELECT f.seq::text AS seq, f.hash, f.host, f.entry FROM crawl_frontier f WHERE f.job_id = $1 AND f.seq > $2::bigint ORDER BY f.seq LIMIT $3`,
      [jobId, seq, limit],
    );
    return rows;
  }

  /** A finished crawl's rows. */
  async drop(jobId: string): Promise<void> {
    await this.pool.query(`DELETE FROM crawl_frontier WHERE job_id = $1`, [jobId]);
  }

  /** Rows the crawl holds (for tests and the memory benchmark). */
  async count(jobId: string): Promise<number> {
    const { rows } = await this.pool.query<{ n: string }>(`SELECT count(*)::text AS n FROM crawl_frontier WHERE job_id = $1`, [jobId]);
    return Number(rows[0].n);
  }
}
