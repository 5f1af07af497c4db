/**
 * Typed job contracts shared by the gateway and the workers: queue names, job names, and a payload/result per job.
 * Nothing crosses the queue untyped.
 */
import type { DeviceKind } from './devices.js';
import type { OutputFormat, OutputFormats, PageMetadata } from './formats.js';
import type { SerializedError } from './trawl-error.js';

/** One queue per worker kind. */
export const QueueName = {
  http: 'trawl-http',
  render: 'trawl-render',
  headful: 'trawl-headful',
} as const;
export type QueueName = (typeof QueueName)[keyof typeof QueueName];

export const JobName = {
  crawlPage: 'crawl.page',
  serpSearch: 'serp.search',
  headfulPage: 'headful.page',
} as const;
export type JobName = (typeof JobName)[keyof typeof JobName];

export interface CrawlPagePayload {
  /** The metered call this job belongs to (for logs and the ledger). */
  callId: string;
  url: string;
  formats: OutputFormats;
  device: DeviceKind;
  /** ISO 3166-1 alpha-2, lower case; routes the fetch through a proxy of that country. */
  geolocation?: string;
  screenshot?: boolean;
  screenshotFullPage?: boolean;
  /** Budget for the whole page job in the worker (fetch + formats). */
  timeoutMs: number;
}

export interface CrawlPageSuccess {
  ok: true;
  url: string;
  finalUrl: string;
  status_code: number;
  raw_html?: string;
  enhanced_html?: string;
  markdown?: string;
  page_text?: string;
  /** base64 PNG */
  screenshot?: string;
  metadata?: PageMetadata;
}

export interface CrawlPageFailure {
  ok: false;
  url: string;
  error: SerializedError;
  status_code?: number;
}

export type CrawlPageResult = CrawlPageSuccess | CrawlPageFailure;

/** The search engines Trawl can fetch result pages from (SERP_ENGINE, SEARCH_ENGINE). */
export const SEARCH_ENGINES = ['google', 'bing', 'duckduckgo', 'searxng'] as const;
export type SearchEngineName = (typeof SEARCH_ENGINES)[number];

/** `/serp-search` verticals (`type`). */
export const SERP_TYPES = ['search', 'news', 'images', 'places', 'shopping'] as const;
export type SerpType = (typeof SERP_TYPES)[number];

/** One `/serp-search` call: fetch the engine's result page (rotating proxies when blocked) and parse it. */
export interface SerpSearchPayload {
  /** The metered call this job belongs to (for logs and the ledger). */
  callId: string;
  engine: SearchEngineName;
  query: {
    q: string;
    gl: string;
    hl: string;
    tbs?: string;
    page: number;
    num: number;
    type: SerpType;
    device?: DeviceKind;
  };
  timeoutMs: number;
}

/** The parsed `/serp-search` page without `parameters` (libs/serp SerpSearchResponse). */
export type SerpSearchResponseBody = { serp_search_results: unknown[] } & Record<string, unknown>;

/** The parsed page in the endpoint's shape, or why there is none. */
export type SerpSearchResult =
  | { ok: true; verdict: 'ok' | 'no_results'; response: SerpSearchResponseBody }
  | { ok: false; error: SerializedError };

/** One `/headful-browser` URL: headed Chromium through residential proxies of `country`, retried on blocks. */
export interface HeadfulPagePayload {
  /** The metered call this job belongs to (for logs and the ledger). */
  callId: string;
  url: string;
  /** ISO 3166-1 alpha-2, lower case: the residential proxy country (and locale, timezone, Accept-Language). */
  country: string;
  format: OutputFormat;
  /** Capture a full-page screenshot and store it (returned as a signed URL by the gateway). */
  screenshot: boolean;
  /** Budget for the whole job, every attempt included. */
  timeoutMs: number;
}

export type HeadfulPageResult =
  | {
      ok: true;
      url: string;
      finalUrl: string;
      status_code: number;
      /** The page in the one asked-for format. */
      content: string;
      /** Key of the stored screenshot (the gateway signs a link to it). */
      screenshotKey?: string;
      /** Attempts made (a blocked attempt is retried through another proxy and session). */
      attempts: number;
    }
  | {
      ok: false;
      url: string;
      /** True only when every attempt was blocked. */
      blocked: boolean;
      attempts: number;
      error: SerializedError;
    };

/** Job name → queue, payload and result. Producers and consumers are typed from this one table. */
export interface JobContracts {
  [JobName.crawlPage]: { payload: CrawlPagePayload; result: CrawlPageResult };
  [JobName.serpSearch]: { payload: SerpSearchPayload; result: SerpSearchResult };
  [JobName.headfulPage]: { payload: HeadfulPagePayload; result: HeadfulPageResult };
}

export type JobPayload<N extends JobName> = JobContracts[N]['payload'];
export type JobResult<N extends JobName> = JobContracts[N]['result'];
