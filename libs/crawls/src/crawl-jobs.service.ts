/**
 * Site crawls and batches as a service every surface shares (REST, MCP, the Firecrawl-compatible routes): start one,
 * read its status and pages by cursor, its errors, export it, cancel it, list the active ones. Starting is a metered
 * call (logged, concurrency-checked, 0 credits: pages are charged as they are stored); reading is free and never
 * refused for concurrency (clients poll). An account reads only its own crawls: another's id is a 404.
 */
import { randomUUID } from 'node:crypto';
import {
  ErrorCode, FINISHED_STATUSES, TrawlError,
  type BatchBody, type CrawlJobCreated, type CrawlJobErrors, type CrawlJobPage, type CrawlJobStatus, type CrawlJobSummary,
  type CrawlReadQuery, type CrawlStatus, type SiteCrawlBody,
} from '#contracts';
import type { PageOptions } from './crawl-data.js';
import { COSTS, type CallLifecycle, type Caller } from '#billing';
import type { CrawlJobRow, CrawlPageRow, CrawlsRepository, LedgerRepository } from '#db';
import type { CrawlCoordinator } from './coordinator.js';
import type { CrawlOptions } from './crawl-data.js';
import { reportedCounts } from './crawl-counts.js';
import { crawlScope } from './crawl-scope.js';
import type { FrontierStore } from './frontier-store.js';

/** Pages in one status answer at most, and their bytes (Firecrawl's bounds: 100 documents or 10 MiB). */
const PAGE_LIMIT = 100;
const ANSWER_MAX_BYTES = 10 * 1024 * 1024;
const ERRORS_LIMIT = 1000;

export interface CrawlJobsSettings {
  retentionMs: number;
  maxUrlLength: number;
  /** CRAWL_HOST_MIN_GAP_MS: a crawl's gap between two pages of one host when it sets no delay_ms. */
  hostGapMs: number;
}

export class CrawlJobsService {
  constructor(
    private readonly lifecycle: CallLifecycle,
    private readonly repo: CrawlsRepository,
    private readonly ledger: LedgerRepository,
    private readonly store: FrontierStore,
    private readonly coordinator: CrawlCoordinator,
    private readonly settings: CrawlJobsSettings,
  ) {}

  /** Starts a site crawl. `base`: the public origin links in the answer start with. */
  /** Starts a site crawl. `base`: the public origin links in the answer start with; `page`: how each page is fetched beyond the body. */
  async startSite(caller: Caller, body: SiteCrawlBody, base: string, endpoint = '/crawls', page?: PageOptions): Promise<CrawlJobCreated> {
    // Patterns that could hang a worker are refused here, naming the parameter, before anything is recorded.
    crawlScope(body.url, body, this.settings.maxUrlLength);
    const { webhook, ...rest } = body;
    return this.start(caller, endpoint, 'site', body.url, { kind: 'site', ...rest, ...(webhook ? { webhook } : {}), ...(page ? { page } : {}) } as CrawlOptions, body.limit, base);
  }

  async startBatch(caller: Caller, body: BatchBody, base: string, endpoint = '/batches', page?: PageOptions): Promise<CrawlJobCreated> {
    const { webhook, urls, invalid_urls, ...rest } = body;
    const created = await this.start(
      caller,
      endpoint,
      'batch',
      null,
      { kind: 'batch', ...rest, ...(webhook ? { webhook } : {}), ...(page ? { page } : {}), urls } as unknown as CrawlOptions,
      urls.length,
      base,
    );
    return invalid_urls.length ? { ...created, invalid_urls } : created;
  }

  private async start(caller: Caller, endpoint: string, kind: 'site' | 'batch', url: string | null, partial: CrawlOptions, limit: number, base: string): Promise<CrawlJobCreated> {
    const { body } = await this.lifecycle.run(caller, { endpoint, reserve: 0, insufficient: ErrorCode.CREDITS_EXHAUSTED }, async () => {
      const unitCost = partial.render_js ? COSTS.crawlRender : COSTS.crawlHttp;
      const balance = await this.ledger.balance(caller.accountId);
      if (balance === null || balance < unitCost) {
        throw new TrawlError(ErrorCode.CREDITS_EXHAUSTED, `Not enough credits to crawl a page (${unitCost} a page, ${balance ?? 0} left)`);
      }
      const id = randomUUID();
      const options: CrawlOptions = { ...partial, unitCost, concurrencyLimit: caller.concurrencyLimit };
      await this.repo.create({ id, accountId: caller.accountId, kind, url, options: options as unknown as Record<string, unknown>, discovered: 0, expiresAt: new Date(Date.now() + this.settings.retentionMs) });
      await this.store.init(id, limit, options.concurrency, options.delay_ms ?? this.settings.hostGapMs);
      await this.coordinator.enqueueSeed(id);
      return { body: { id, status: 'queued' as CrawlStatus, url: `${base}/crawls/${id}` }, charge: 0 };
    });
    return body;
  }

  async status(caller: Caller, id: string, query: CrawlReadQuery, base: string): Promise<CrawlJobStatus> {
    const row = await this.own(caller, id);
    const limit = Math.min(query.limit ?? PAGE_LIMIT, PAGE_LIMIT * 10);
    const rows = await this.repo.pages(id, query.cursor ?? '0', limit);
    const pages: CrawlJobPage[] = [];
    let bytes = 0;
    let last: string | null = null;
    for (const page of rows) {
      const item = pageItem(page, row);
      bytes += Buffer.byteLength(JSON.stringify(item));
      if (pages.length > 0 && bytes > ANSWER_MAX_BYTES) break;
      pages.push(item);
      last = page.id;
    }
    // More may follow a full answer; a crawl still running stores pages after this read, which come after the cursor.
    const full = pages.length === limit || pages.length < rows.length;
    const cursor = this.finished(row) ? (full ? last : null) : (last ?? query.cursor ?? '0');
    return {
      ...summary(row),
      pages,
      next: cursor ? `${base}/crawls/${id}?cursor=${cursor}${query.limit ? `&limit=${query.limit}` : ''}` : null,
      next_cursor: cursor,
    };
  }

  /**
   * The pages after the first `skip` (offsets, as Firecrawl's status pages count), at most `limit` and ANSWER_MAX_BYTES;
   * `more`: the answer was cut short, so pages after it are already stored.
   */
  async pagesAt(caller: Caller, id: string, skip: number, limit = PAGE_LIMIT): Promise<{ summary: CrawlJobSummary; pages: CrawlJobPage[]; more: boolean }> {
    const row = await this.own(caller, id);
    const rows = await this.repo.pagesFrom(id, skip, Math.min(limit, PAGE_LIMIT * 10) + 1);
    const pages: CrawlJobPage[] = [];
    let bytes = 0;
    for (const page of rows.slice(0, Math.min(limit, PAGE_LIMIT * 10))) {
      const item = pageItem(page, row);
      bytes += Buffer.byteLength(JSON.stringify(item));
      if (pages.length > 0 && bytes > ANSWER_MAX_BYTES) break;
      pages.push(item);
    }
    return { summary: summary(row), pages, more: rows.length > pages.length };
  }

  /**
   * A watcher's read: the crawl's summary and the pages stored after `cursor` (a page id, '0' for the first), at most
   * `limit`; `cursor` in the answer is the last page's id (the one given when none followed). Pages are only appended,
   * in the order their ids say, so reading on from the answer's cursor skips none.
   */
  async pagesAfter(owner: Pick<Caller, 'accountId'>, id: string, cursor: string, limit = PAGE_LIMIT): Promise<{ summary: CrawlJobSummary; pages: CrawlJobPage[]; cursor: string }> {
    const row = await this.own(owner, id);
    const rows = await this.repo.pages(id, cursor, Math.min(limit, PAGE_LIMIT * 10));
    return { summary: summary(row), pages: rows.map((page) => pageItem(page, row)), cursor: rows.length ? rows[rows.length - 1].id : cursor };
  }

  async errors(caller: Caller, id: string, query: CrawlReadQuery, base: string): Promise<CrawlJobErrors> {
    await this.own(caller, id);
    const limit = Math.min(query.limit ?? ERRORS_LIMIT, ERRORS_LIMIT);
    const rows = await this.repo.errors(id, query.cursor ?? '0', limit);
    const last = rows.length === limit ? rows[rows.length - 1].id : null;
    return {
      errors: rows.filter((r) => !r.robots).map((r) => ({ url: r.url, code: r.code, message: r.message, at: r.createdAt.toISOString() })),
      robots_blocked: rows.filter((r) => r.robots).map((r) => r.url),
      next: last ? `${base}/crawls/${id}/errors?cursor=${last}` : null,
      next_cursor: last,
    };
  }

  /** Every stored page as one JSON line each, read a batch at a time (never the whole crawl in memory). */
  async *export(caller: Caller, id: string): AsyncGenerator<string> {
    const row = await this.own(caller, id);
    let cursor = '0';
    for (;;) {
      const rows = await this.repo.pages(id, cursor, 200);
      for (const page of rows) yield `${JSON.stringify(pageItem(page, row))}\n`;
      if (rows.length < 200) return;
      cursor = rows[rows.length - 1].id;
    }
  }

  /** Cancels a crawl: no URL of it starts from now on; its stored pages stay readable. */
  async cancel(caller: Caller, id: string): Promise<{ id: string; status: CrawlStatus }> {
    const row = await this.own(caller, id);
    if (this.finished(row)) throw new TrawlError(ErrorCode.CONFLICT, `The crawl has already finished (${row.status})`);
    if (await this.coordinator.stop(id, 'cancelled', null)) return { id, status: 'cancelled' };
    // Another process ended it first: as cancelled (the stop's reason), or completed or failed just before this.
    const now = await this.repo.get(id, caller.accountId);
    return { id, status: now?.status ?? 'cancelled' };
  }

  async active(caller: Caller): Promise<{ crawls: CrawlJobSummary[] }> {
    return { crawls: (await this.repo.active(caller.accountId)).map(summary) };
  }

  /** The crawl's row, when it belongs to the caller's account. */
  async own(caller: Pick<Caller, 'accountId'>, id: string): Promise<CrawlJobRow> {
    const row = /^[0-9a-f-]{36}$/i.test(id) ? await this.repo.get(id, caller.accountId) : null;
    if (!row) throw new TrawlError(ErrorCode.NOT_FOUND, `No crawl ${id.slice(0, 64)} (it may have expired)`);
    return row;
  }

  private finished(row: CrawlJobRow): boolean {
    return FINISHED_STATUSES.includes(row.status as CrawlStatus);
  }
}

function summary(row: CrawlJobRow): CrawlJobSummary {
  const finished = FINISHED_STATUSES.includes(row.status as CrawlStatus);
  return {
    id: row.id,
    kind: row.kind,
    status: row.status as CrawlStatus,
    ...(row.url ? { url: row.url } : {}),
    counts: reportedCounts(row, finished),
    credits: row.credits,
    created_at: row.createdAt.toISOString(),
    ...(row.startedAt ? { started_at: row.startedAt.toISOString() } : {}),
    ...(row.finishedAt ? { finished_at: row.finishedAt.toISOString() } : {}),
    expires_at: row.expiresAt.toISOString(),
    ...(row.error ? { error: row.error } : {}),
  };
}

function pageItem(page: CrawlPageRow, row: CrawlJobRow): CrawlJobPage {
  const { links, ...content } = page.content as { links?: string[] } & Record<string, unknown>;
  const wantsLinks = (row.options as { links?: boolean }).links !== false;
  return {
    url: page.url,
    source_url: page.sourceUrl,
    status_code: page.statusCode,
    depth: page.depth,
    ...(content as Omit<CrawlJobPage, 'url' | 'source_url' | 'status_code' | 'depth' | 'links'>),
    ...(wantsLinks && links ? { links } : {}),
  };
}
