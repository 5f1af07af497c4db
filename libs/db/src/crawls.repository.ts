/**
 * Asynchronous crawls in Postgres: the job row (status, counts, what its pages cost), its stored pages (read by
 * cursor: the page id) and its errors. A page is stored once per URL key: a retried store of the same page by the
 * same reservation is recognised as its own (`stored: 'again'`), another page under that key is a duplicate.
 */
import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import type { Database } from './database.js';

export type CrawlJobKind = 'site' | 'batch';
export type CrawlJobStatus = 'queued' | 'running' | 'completed' | 'cancelled' | 'failed' | 'credits_exhausted';

export interface CrawlJobRow {
  id: string;
  accountId: string;
  kind: CrawlJobKind;
  status: CrawlJobStatus;
  url: string | null;
  options: Record<string, unknown>;
  discovered: number;
  done: number;
  failed: number;
  skipped: number;
  credits: number;
  error: string | null;
  createdAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
  expiresAt: Date;
}

export interface CrawlPageRow {
  id: string;
  url: string;
  sourceUrl: string;
  statusCode: number;
  depth: number;
  content: Record<string, unknown>;
}

export interface CrawlErrorRow {
  id: string;
  url: string;
  code: string;
  message: string;
  robots: boolean;
  createdAt: Date;
}

/** Increments to a crawl's progress counters. */
export type CrawlCountIncrements = { discovered?: number; failed?: number; skipped?: number };

/** A URL a crawl did not store: a failure, or a robots.txt refusal (`robots`). */
export type CrawlErrorRecord = Pick<CrawlErrorRow, 'url' | 'code' | 'message' | 'robots'>;

export interface NewCrawlPage {
  jobId: string;
  urlKey: string;
  sourceUrl: string;
  url: string;
  statusCode: number;
  depth: number;
  content: Record<string, unknown>;
  bytes: number;
  /** What the page costs (added to the job's credits when it is stored). */
  credits: number;
  /** The page's reservation: a retried store recognises its own row by it. */
  requestId: string;
}

const JOB_COLUMNS = `id, account_id AS "accountId", kind, status, url, options, discovered, done, failed, skipped, credits, error,
  created_at AS "createdAt", started_at AS "startedAt", finished_at AS "finishedAt", expires_at AS "expiresAt"`;

const FINISHED = `('completed', 'cancelled', 'failed', 'credits_exhausted')`;
/** The endpoint a crawl's page charges are counted under in usage (a site crawl's, a batch's), as SQL over `job`. */
const PAGE_ENDPOINT = `CASE job.kind WHEN 'site' THEN '/crawls' ELSE '/batches' END`;

export class CrawlsRepository {
  private readonly pool: pg.Pool;

  constructor(db: Database) {
    this.pool = db.pool;
  }

  async create(job: { id: string; accountId: string; kind: CrawlJobKind; url: string | null; options: Record<string, unknown>; discovered: number; expiresAt: Date }): Promise<CrawlJobRow> {
    const { rows } = await this.pool.query<CrawlJobRow>(
      `INSERT INTO crawl_jobs (id, account_id, kind, url, options, discovered, expires_at) VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING ${JOB_COLUMNS}`,
      [job.id, job.accountId, job.kind, job.url, JSON.stringify(job.options), job.discovered, job.expiresAt],
    );
    return rows[0];
  }

  /** The job, or null; with `accountId`, only that account's job (another account's id reads as missing). */
  async get(id: string, accountId?: string): Promise<CrawlJobRow | null> {
    const { rows } = await this.pool.query<CrawlJobRow>(
      `SELECT ${JOB_COLUMNS} FROM crawl_jobs WHERE id = $1 ${accountId ? 'AND account_id = $2' : ''}`,
      accountId ? [id, accountId] : [id],
    );
    return rows[0] ?? null;
  }

  /** The account's crawls that have not finished, newest first. */
  async active(accountId: string, limit = 100): Promise<CrawlJobRow[]> {
    const { rows } = await this.pool.query<CrawlJobRow>(
      `SELECT ${JOB_COLUMNS} FROM crawl_jobs WHERE account_id = $1 AND status NOT IN ${FINISHED} ORDER BY created_at DESC LIMIT $2`,
      [accountId, limit],
    );
    return rows;
  }

  /** Every running job (for the sweeper that finishes the ones whose frontier drained). */
  async running(limit = 1000): Promise<Array<Pick<CrawlJobRow, 'id' | 'accountId' | 'status' | 'createdAt'>>> {
    const { rows } = await this.pool.query<Pick<CrawlJobRow, 'id' | 'accountId' | 'status' | 'createdAt'>>(
      `SELECT id, account_id AS "accountId", status, created_at AS "createdAt" FROM crawl_jobs WHERE status IN ('queued', 'running') ORDER BY created_at LIMIT $1`,
      [limit],
    );
    return rows;
  }

  /** queued → running; false when it is no longer queued. */
  async start(id: string): Promise<boolean> {
    const { rowCount } = await this.pool.query(`UPDATE crawl_jobs SET status = 'running', started_at = now() WHERE id = $1 AND status = 'queued'`, [id]);
    return rowCount === 1;
  }

  /**
   * Moves an unfinished job to a final status (its results kept `retentionMs` from now); false when it had finished.
   * `admitted`: the URLs its frontier admitted, its final discovered count (increments of a process that died
   * before it wrote them are in it; those a process writes after this are not added again).
   */
  async finish(id: string, status: Exclude<CrawlJobStatus, 'queued' | 'running'>, error: string | null, retentionMs: number, admitted = 0): Promise<boolean> {
    const { rowCount } = await this.pool.query(
      `UPDATE crawl_jobs SET status = $2, error = $3, finished_at = now(), expires_at = now() + ($4::bigint * interval '1 millisecond'),
         discovered = CASE WHEN $5::bigint > 0 THEN $5::bigint ELSE discovered END
       WHERE id = $1 AND status NOT IN ${FINISHED}`,
      [id, status, error?.slice(0, 500) ?? null, retentionMs, admitted],
    );
    return rowCount === 1;
  }

  /**
   * Adds to a crawl's counters, and records the URLs it did not store with them (`errors`: a failure counts failed,
   * a robots.txt refusal skipped) in the same statement.
   */
  async addCounts(id: string, counts: CrawlCountIncrements, errors: readonly CrawlErrorRecord[] = []): Promise<void> {
    if (errors.length > 0) return this.recordErrors(id, counts, errors);
    if (!counts.discovered && !counts.failed && !counts.skipped) return;
    await this.pool.query(
      // A finished crawl's discovered count is its frontier's (`finish`): a late increment is not added to it.
      `UPDATE crawl_jobs SET discovered = discovered + CASE WHEN status IN ${FINISHED} THEN 0 ELSE $2 END, failed = failed + $3, skipped = skipped + $4 WHERE id = $1`,
      [id, counts.discovered ?? 0, counts.failed ?? 0, counts.skipped ?? 0],
    );
  }

  /**
   * Stores pages of one crawl, counts them (done, credits) and charges them in one statement: one outcome per page,
   * in order (`discovered`: URLs the crawl admitted since it last counted them, counted with them). `new`: stored now; `again`: this reservation had stored it already (a retried store); `duplicate`:
   * another page is stored under this key, or goes first under it in this batch (counted as skipped; its
   * reservation is left to the caller to refund). A page stored, now or before, settles its open reservation in the
   * same commit — charged in full, with its `settle` row as the ledger writes it (LedgerRepository.settleFullMany):
   * no page is stored and left unpaid by a process that died between the two. The job's row is locked first, so a
   * crawl's pages take their ids in the order they commit: a reader that saw page N has seen every page before it,
   * and the id is a cursor that skips nothing while the crawl runs.
   */
  async storePages(jobId: string, pages: ReadonlyArray<Omit<NewCrawlPage, 'jobId'>>, discovered = 0): Promise<Array<'new' | 'again' | 'duplicate'>> {
    // One JSON document for the batch: Postgres reads it as rows, and no page's content is escaped twice (as an
    // element of a jsonb[] literal would be).
    const batch = JSON.stringify(
      pages.map((p, i) => ({
        ord: i,
        url_key: p.urlKey,
        source_url: p.sourceUrl,
        url: p.url,
        status_code: p.statusCode,
        depth: p.depth,
        content: p.content,
        bytes: p.bytes,
        credits: p.credits,
        request_id: p.requestId,
      })),
    );
    const { rows } = await this.pool.query<{ outcome: 'new' | 'again' | 'duplicate' }>({
      name: 'crawl-store-pages',
      text: `WITH job AS (
         SELECT id, kind FROM crawl_jobs WHERE id = $1 FOR UPDATE
       ), input AS (
         SELECT * FROM jsonb_to_recordset($2::jsonb) AS t(ord int, url_key text, source_url text, url text, status_code int,
           depth int, content jsonb, bytes int, credits bigint, request_id uuid)
       ), ins AS (
         INSERT INTO crawl_pages (job_id, url_key, source_url, url, status_code, depth, content, bytes, request_id)
         SELECT job.id, i.url_key, i.source_url, i.url, i.status_code, i.depth, i.content, i.bytes, i.request_id
         FROM job, input i ORDER BY i.ord
         ON CONFLICT (job_id, url_key) DO NOTHING RETURNING url_key, request_id
       ), outcome AS (
         -- crawl_pages is read as it was before this statement: a page it did not insert was there already.
         SELECT i.ord, i.credits, i.request_id,
           CASE WHEN EXISTS (SELECT 1 FROM ins WHERE ins.url_key = i.url_key AND ins.request_id = i.request_id) THEN 'new'
                WHEN (SELECT p.request_id FROM crawl_pages p WHERE p.job_id = $1 AND p.url_key = i.url_key) = i.request_id THEN 'again'
                ELSE 'duplicate' END AS outcome
         FROM input i
       ), counted AS (
         UPDATE crawl_jobs SET
           done = done + (SELECT count(*) FROM outcome WHERE outcome = 'new'),
           credits = credits + (SELECT coalesce(sum(credits), 0) FROM outcome WHERE outcome = 'new'),
           skipped = skipped + (SELECT count(*) FROM outcome WHERE outcome = 'duplicate'),
           discovered = discovered + CASE WHEN status IN ${FINISHED} THEN 0 ELSE $3 END
         -- Through the locking CTE, so the row is locked (and the pages inserted) before it is updated.
         WHERE id IN (SELECT id FROM job)
       ), settled AS (
         UPDATE reservations res SET status = 'settled', charged = res.amount, settled_at = now()
         FROM outcome o WHERE o.outcome IN ('new', 'again') AND res.id = o.request_id AND res.status = 'open' AND res.amount <= o.credits
         RETURNING res.id, res.account_id, res.amount
       ), led AS (
         -- A crawl's pages have no request-log row: usage counts them by the endpoint named here.
         INSERT INTO credit_ledger (account_id, kind, amount, balance_after, request_id, note, endpoint)
         SELECT s.account_id, 'settle', 0, a.balance, s.id, 'charged ' || s.amount, ${PAGE_ENDPOINT}
         FROM settled s JOIN accounts a ON a.id = s.account_id, job
       )
       SELECT outcome FROM outcome ORDER BY ord`,
      values: [jobId, batch, discovered],
    });
    // A crawl that is gone (deleted) stores nothing: each of its pages reads as a duplicate.
    return rows.map((r) => r.outcome);
  }

  /** Records URLs that were not stored, each a failure (counted failed) or a robots.txt refusal (counted skipped). */
  private async recordErrors(jobId: string, counts: CrawlCountIncrements, errors: readonly CrawlErrorRecord[]): Promise<void> {
    const batch = JSON.stringify(errors.map((e, ord) => ({ ord, url: e.url, code: e.code.slice(0, 64), message: e.message.slice(0, 500), robots: e.robots })));
    await this.pool.query({
      name: 'crawl-record-errors',
      text: `WITH job AS (
         SELECT id FROM crawl_jobs WHERE id = $1 FOR UPDATE
       ), ins AS (
         INSERT INTO crawl_errors (job_id, url, code, message, robots)
         SELECT job.id, e.url, e.code, e.message, e.robots
         FROM job, jsonb_to_recordset($2::jsonb) AS e(ord int, url text, code varchar, message varchar, robots boolean)
         ORDER BY e.ord
         RETURNING robots
       )
       -- The job row is locked once, by the first CTE; the counts read the insert's output.
       UPDATE crawl_jobs SET
         discovered = discovered + CASE WHEN status IN ${FINISHED} THEN 0 ELSE $3 END,
         failed = failed + $4 + (SELECT count(*) FROM ins WHERE NOT robots),
         skipped = skipped + $5 + (SELECT count(*) FROM ins WHERE robots)
       WHERE id IN (SELECT id FROM job)`,
      values: [jobId, batch, counts.discovered ?? 0, counts.failed ?? 0, counts.skipped ?? 0],
    });
  }

  /** The links stored with the page fetched for `sourceUrl` (discovery after a crash). */
  async pageLinks(jobId: string, sourceUrl: string): Promise<string[]> {
    const { rows } = await this.pool.query<{ links: string[] | null }>(
      `SELECT content->'links' AS links FROM crawl_pages WHERE job_id = $1 AND source_url = $2 LIMIT 1`,
      [jobId, sourceUrl],
    );
    return rows[0]?.links ?? [];
  }

  /** Stored pages after `afterId`, oldest first, at most `limit` (the cursor never loads a whole crawl). */
  async pages(jobId: string, afterId: string, limit: number): Promise<CrawlPageRow[]> {
    const { rows } = await this.pool.query<CrawlPageRow>(
      `SELECT id::text, url, source_url AS "sourceUrl", status_code AS "statusCode", depth, content
       FROM crawl_pages WHERE job_id = $1 AND id > $2::bigint ORDER BY crawl_pages.id LIMIT $3`,
      [jobId, afterId, limit],
    );
    return rows;
  }

  /** The pages after the first `skip` of them, in the same order (offsets stay valid: pages are only appended). */
  async pagesFrom(jobId: string, skip: number, limit: number): Promise<CrawlPageRow[]> {
    const { rows } = await this.pool.query<CrawlPageRow>(
      `SELECT id::text, url, source_url AS "sourceUrl", status_code AS "statusCode", depth, content
       FROM crawl_pages WHERE job_id = $1 ORDER BY crawl_pages.id OFFSET $2 LIMIT $3`,
      [jobId, skip, limit],
    );
    return rows;
  }

  async errors(jobId: string, afterId: string, limit: number): Promise<CrawlErrorRow[]> {
    const { rows } = await this.pool.query<CrawlErrorRow>(
      `SELECT id::text, url, code, message, robots, created_at AS "createdAt"
       FROM crawl_errors WHERE job_id = $1 AND id > $2::bigint ORDER BY crawl_errors.id LIMIT $3`,
      [jobId, afterId, limit],
    );
    return rows;
  }

  /** Jobs whose results outlived their retention (`expires_at`), oldest first. */
  async expired(limit: number): Promise<string[]> {
    const { rows } = await this.pool.query<{ id: string }>(`SELECT id FROM crawl_jobs WHERE expires_at < now() ORDER BY expires_at LIMIT $1`, [limit]);
    return rows.map((r) => r.id);
  }

  /** Deletes jobs with their pages and errors. */
  async delete(ids: string[]): Promise<number> {
    if (ids.length === 0) return 0;
    const { rowCount } = await this.pool.query(`DELETE FROM crawl_jobs WHERE id = ANY($1::uuid[])`, [ids]);
    return rowCount ?? 0;
  }

  /** The account's webhook signing key, made on first use (concurrent first uses agree on one). */
  async webhookSecret(accountId: string): Promise<string> {
    const candidate = `whsec_${randomBytes(24).toString('base64url')}`;
    const { rows } = await this.pool.query<{ secret: string }>(
      `UPDATE accounts SET webhook_secret = COALESCE(webhook_secret, $2) WHERE id = $1 RETURNING webhook_secret AS secret`,
      [accountId, candidate],
    );
    if (!rows[0]) throw new Error(`No account ${accountId}`);
    return rows[0].secret;
  }
}
