/**
 * What the crawl coordinator's queue carries (`trawl-crawl`, consumed by gateways) and the ids derived from a
 * crawl and a URL: its token in a host's lease and the page's credit reservation id (a retried visit finds its own
 * reservation).
 */
import { createHash } from 'node:crypto';
import type { SiteCrawlBody, BatchBody, CrawlPagePayload } from '#contracts';

/** How each page of a crawl is fetched beyond the body's formats (set by the Firecrawl-compatible routes). */
export type PageOptions = Partial<Pick<CrawlPagePayload, 'device' | 'headers' | 'waitForMs' | 'scope' | 'actions'>>;

export const CrawlJobName = {
  seed: 'crawl.seed',
  url: 'crawl.url',
} as const;

export interface CrawlSeedData {
  crawlId: string;
}

/** One admitted URL: its key (what it is stored under unless it redirects or names a canonical) and its depth. */
export interface CrawlUrlData {
  crawlId: string;
  url: string;
  key: string;
  hash: string;
  /** Link hops from the start URL (a redirect or a canonical is not a hop). */
  depth: number;
  /** Redirects that led here. */
  hops?: number;
}

/** The options a crawl runs with, as stored on its row: the request's body plus what the gateway decided at start. */
export type CrawlOptions = (
  | ({ kind: 'site' } & Omit<SiteCrawlBody, 'webhook'>)
  | ({ kind: 'batch' } & Omit<BatchBody, 'webhook' | 'urls' | 'invalid_urls'>)
) & {
  webhook?: SiteCrawlBody['webhook'];
  /** Credits one stored page costs (render_js: 10, else 1). */
  unitCost: number;
  /** The page options beyond the body (device, headers, wait, scope, actions). */
  page?: PageOptions;
  /** The account's concurrency limit when the crawl started: pages in flight stay within it, leaving one for calls. */
  concurrencyLimit: number;
};

/**
 * What a pending entry keeps so a lost job can be added again: the job's data without the crawl id and hash, and
 * without its key when that is its URL (an admitted URL is its key: the pending URLs are most of a crawl's Redis, and
 * the URL twice was half of each entry).
 */
export function pendingEntry(data: CrawlUrlData): string {
  return JSON.stringify({ url: data.url, ...(data.key !== data.url ? { key: data.key } : {}), depth: data.depth, ...(data.hops ? { hops: data.hops } : {}) });
}

export function fromPendingEntry(crawlId: string, hash: string, entry: string): CrawlUrlData {
  const { url, key, depth, hops } = JSON.parse(entry) as { url: string; key?: string; depth: number; hops?: number };
  return { crawlId, url, key: key ?? url, depth, hash, ...(hops ? { hops } : {}) };
}

/**
 * One URL of one crawl, as it holds a slot of its host's lease: two crawls of the same site have the same URL hashes,
 * and must not take each other's slot for their own.
 */
export function visitToken(crawlId: string, hash: string): string {
  return `${crawlId}.${hash}`;
}

/** A UUID determined by the crawl and the URL hash (the ledger keys reservations by UUID). */
export function pageRequestId(crawlId: string, hash: string): string {
  const h = createHash('sha256').update(`${crawlId}\n${hash}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${((parseInt(h[16], 16) & 0x3) | 0x8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}
