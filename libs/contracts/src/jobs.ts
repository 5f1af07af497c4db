/**
 * Typed job contracts shared by the gateway and the workers: queue names, job names, and a payload/result per job.
 * Nothing crosses the queue untyped.
 */
import type { DeviceKind } from './devices.js';
import type { OutputFormat, OutputFormats, PageMetadata, PageScope } from './formats.js';
import type { SearchPage, SerpSearchResponse } from './api/serp-results.js';
import type { SerializedError } from './trawl-error.js';
import type { MapsParams, Place } from './api/maps-place.js';
import type { PageAction, PageActionsOutcome } from './page-actions.js';
import type { Freshness } from './api/fields.js';

/** One queue per worker kind, and the crawl coordinator's (consumed by gateways: it meters and stores). */
export const QueueName = {
  http: 'trawl-http',
  render: 'trawl-render',
  headful: 'trawl-headful',
  crawl: 'trawl-crawl',
} as const;
export type QueueName = (typeof QueueName)[keyof typeof QueueName];

export const JobName = {
  crawlPage: 'crawl.page',
  serpSearch: 'serp.search',
  mapsSearch: 'maps.search',
  serpWeb: 'serp.web',
  headfulPage: 'headful.page',
  /** A resource that is not a page (robots.txt, a sitemap), as bytes. */
  fetchResource: 'fetch.resource',
  /** One signed webhook POST, retried with backoff by the queue. */
  webhookDeliver: 'webhook.deliver',
} as const;
export type JobName = (typeof JobName)[keyof typeof JobName];

export interface CrawlPagePayload {
  /** The metered call this job belongs to (for logs and the ledger). */
  callId: string;
  /**
   * The calling account: browser state (a reset context) is only ever reused between jobs of the same account.
   * Absent on jobs queued before it existed; those render in a context of their own.
   */
  accountId?: string;
  url: string;
  formats: OutputFormats;
  device: DeviceKind;
  /** ISO 3166-1 alpha-2, lower case; routes the fetch through a proxy of that country. */
  geolocation?: string;
  screenshot?: boolean;
  screenshotFullPage?: boolean;
  /** The page's outgoing links and its rel=canonical, from the parse the formats already did (site crawls, map). */
  links?: boolean;
  /**
   * false: a redirect is answered, not followed (`redirect` in the result), so a site crawl checks robots.txt and its
   * scope before requesting the target. Plain HTTP only; a browser follows redirects itself.
   */
  followRedirects?: boolean;
  /** Extra request headers (plain HTTP; a browser engine does not send them). */
  headers?: Record<string, string>;
  /** Browser engines: how long to wait after the page settled before capturing it. */
  waitForMs?: number;
  /** Elements kept or dropped and main content or the whole page, for markdown and text. */
  scope?: PageScope;
  /** The page's chunks most relevant to `query`, `perPage` at most (see PageChunks); needs no Markdown format. */
  chunks?: PageChunksRequest;
  /**
   * Browser engines only: actions run on the page after it settled (and `waitForMs`), before it is captured; the
   * formats and the screenshot are of the page as the actions left it. A plain-HTTP worker refuses the job.
   */
  actions?: PageAction[];
  /**
   * Site crawls: turns the request waits for just before it is sent (the host's gap for every crawl, and the crawl's
   * own when larger), so two requests to a host are spaced where they leave, not only where their pages were granted.
   */
  spacing?: Array<{ key: string; intervalMs: number }>;
  /** Budget for the whole page job in the worker (fetch + formats). */
  timeoutMs: number;
}

export interface PageChunksRequest {
  query: string;
  perPage: number;
}

/**
 * A page's best chunks for a query, as its worker ranked them within the page, with what scoring them against other
 * pages needs: each chunk's BM25 term counts and the page's collection statistics (#chunks `pageCandidates`; the
 * gateway's `selectCandidates` sums the statistics over a response's pages and fills its token budget).
 */
export interface PageChunks {
  /** The query's analysed terms: the order of `df` and of each chunk's `tf`. */
  terms: string[];
  /** Chunks the page was cut into, their summed weighted length, and how many hold each term. */
  count: number;
  length: number;
  df: number[];
  top: Array<{ index: number; text: string; headings: string[]; tokens: number; length: number; tf: number[] }>;
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
  /**
   * With `links`: the page's links (absolute, resolved against its base, document order, no duplicates; `nofollow`
   * when the anchor says rel=nofollow) and its rel=canonical, absolute.
   */
  links?: PageLink[];
  canonical?: string;
  /** With `chunks` asked for: the page's best chunks for the query. */
  chunks?: PageChunks;
  /** With `followRedirects: false`: the page redirected here (absolute); no formats were made. */
  redirect?: string;
  /** With `actions`: what they produced. */
  actions?: PageActionsOutcome;
}

export interface CrawlPageFailure {
  ok: false;
  url: string;
  error: SerializedError;
  status_code?: number;
}

export type CrawlPageResult = CrawlPageSuccess | CrawlPageFailure;

/** A link of a page, from the parse the format pipeline did. */
export interface PageLink {
  url: string;
  nofollow?: true;
}

/** The search providers Trawl can fetch result pages from (chosen by SERP_ENGINE and SEARCH_ENGINE). */
export const SEARCH_PROVIDERS = ['google', 'bing', 'duckduckgo', 'searxng'] as const;
export type SearchProviderName = (typeof SEARCH_PROVIDERS)[number];
/** Those of them with a `/serp-search` parser (Google's result shape); Bing and DuckDuckGo serve `/search` only. */
export const SERP_SEARCH_PROVIDERS = ['google', 'searxng'] as const satisfies readonly SearchProviderName[];

/** `/serp-search` verticals (`type`). */
export const SERP_TYPES = ['search', 'news', 'images', 'places', 'shopping'] as const;
export type SerpType = (typeof SERP_TYPES)[number];

/** One `/serp-search` call: fetch the engine's result page (rotating proxies when blocked) and parse it. */
export interface SerpSearchPayload {
  /** The metered call this job belongs to (for logs and the ledger). */
  callId: string;
  provider: SearchProviderName;
  /** The result page's parameters (`q` is the query string). */
  params: {
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

/** The parsed `/serp-search` page without `parameters`. */
export type SerpSearchResponseBody = SerpSearchResponse;

/** The parsed page in the endpoint's shape, or why there is none. */
export type SerpSearchResult =
  | { ok: true; verdict: 'ok' | 'no_results'; response: SerpSearchResponseBody }
  | { ok: false; error: SerializedError };

/** The `/serp-maps` providers (MAPS_PROVIDER). */
export const MAPS_PROVIDERS = ['google', 'osm'] as const;
export type MapsProviderName = (typeof MAPS_PROVIDERS)[number];

/** One `/serp-maps` call: a search, or a `placeId` / `cid` lookup when either is set (`q` is then not sent upstream). */
export interface MapsSearchPayload {
  /** The metered call this job belongs to (for logs and the ledger). */
  callId: string;
  provider: MapsProviderName;
  params: MapsParams;
  timeoutMs: number;
}

/** The places in `serp_maps_results` order; `not_found` only for a lookup, with the provider's reason. */
export type MapsSearchResult =
  | { ok: true; verdict: 'ok'; places: Place[] }
  | { ok: true; verdict: 'not_found'; reason: string }
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
  /** Load the page without a proxy (no residential proxy serves the default country: see `egressFor`); one attempt. */
  direct?: boolean;
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

/** A resource that is not a page (robots.txt, a sitemap): any content type, as base64 bytes, bounded. */
export interface FetchResourcePayload {
  callId: string;
  url: string;
  maxBytes: number;
  timeoutMs: number;
}

export type FetchResourceResult =
  | { ok: true; finalUrl: string; status: number; contentType: string; /** base64 */ body: string }
  | { ok: false; error: SerializedError };

/** One webhook POST of a crawl event: `body` is the exact JSON signed in `headers`. */
export interface WebhookDeliverPayload {
  url: string;
  body: string;
  headers: Record<string, string>;
  timeoutMs: number;
}

export interface WebhookDeliverResult {
  ok: true;
  status: number;
}

/** Job name → queue, payload and result. Producers and consumers are typed from this one table. */
export interface JobContracts {
  [JobName.crawlPage]: { payload: CrawlPagePayload; result: CrawlPageResult };
  [JobName.serpSearch]: { payload: SerpSearchPayload; result: SerpSearchResult };
  [JobName.mapsSearch]: { payload: MapsSearchPayload; result: MapsSearchResult };
  [JobName.serpWeb]: { payload: WebSearchPayload; result: WebSearchJobResult };
  [JobName.headfulPage]: { payload: HeadfulPagePayload; result: HeadfulPageResult };
  [JobName.fetchResource]: { payload: FetchResourcePayload; result: FetchResourceResult };
  [JobName.webhookDeliver]: { payload: WebhookDeliverPayload; result: WebhookDeliverResult };
}

export type JobPayload<N extends JobName> = JobContracts[N]['payload'];
export type JobResult<N extends JobName> = JobContracts[N]['result'];

// ---- `/search` (issue 11): one result page per `serp.web` job. ----


/** Fetch and parse one `/search` result page, rotating proxies on blocks and soft failures. */
export interface WebSearchPayload {
  /** The metered call this job belongs to (for logs and the ledger). */
  callId: string;
  provider: SearchProviderName;
  /** The result page's parameters (`query` is the query string). */
  params: {
    query: string;
    /** 1-based page number. */
    page: number;
    setLang?: string;
    cc?: string;
    device: DeviceKind;
    count?: number;
    /** Results of the past hour, day, week, month or year only, written as Google's `tbs` (each engine maps it). */
    tbs?: Freshness;
    /** The previous page's next-page parameters (DuckDuckGo's form with its `vqd`). */
    nextParams?: Record<string, string>;
  };
  /** Result links of the previous page: a page that repeats them is page 1 again (a soft block). */
  previousLinks?: string[];
  /** ISO 3166-1 alpha-2 country of the proxy to fetch through; none = any proxy the pool hands out, or direct. */
  proxyCountry?: string;
  /** The result page itself in these formats (`page_content` without auto-crawling); omitted = none. */
  formats?: OutputFormats;
  timeoutMs: number;
}

/** Where the page sits in the result list, as the page itself says. */
export interface SearchPagination {
  offset: number | null;
  hasNext: boolean;
  nextParams?: Record<string, string>;
}

export type WebSearchJobResult =
  | {
      ok: true;
      page: SearchPage;
      pagination: SearchPagination;
      /** The result page in the asked-for formats. */
      content?: { raw_html?: string; enhanced_html?: string; markdown?: string; page_text?: string };
      /** Fetch attempts it took (proxy rotations + 1). */
      attempts: number;
    }
  | { ok: false; error: SerializedError };
