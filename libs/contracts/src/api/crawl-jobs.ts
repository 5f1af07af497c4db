/**
 * Asynchronous crawls: `POST /crawls` (a site crawl that follows links from one URL), `POST /batches` (a list of
 * URLs, no discovery), read at `GET /crawls/{id}` (status, counts and pages by cursor), `/errors`, `/export`,
 * cancelled with `DELETE /crawls/{id}`; and `POST /map` (a site's URLs without their content). JSON bodies, validated
 * before anything is charged: unknown fields are refused by name.
 */
import { z } from 'zod';
import type { PageMetadata } from '../formats.js';
import type { PageActionsOutcome } from '../page-actions.js';
import { normaliseUrl } from './crawl.js';
import { countryCode } from './fields.js';

export const SITEMAP_MODES = ['include', 'only', 'skip'] as const;
export type SitemapMode = (typeof SITEMAP_MODES)[number];

export const WEBHOOK_EVENTS = ['started', 'page', 'completed', 'failed'] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

export const CRAWL_STATUSES = ['queued', 'running', 'completed', 'cancelled', 'failed', 'credits_exhausted'] as const;
export type CrawlStatus = (typeof CRAWL_STATUSES)[number];
/** States a crawl does not leave. */
export const FINISHED_STATUSES: readonly CrawlStatus[] = ['completed', 'cancelled', 'failed', 'credits_exhausted'];

/** The bounds of the deployment (config) that the schemas check. */
export interface CrawlJobLimits {
  /** CRAWL_JOB_MAX_PAGES: the largest `limit` a site crawl may ask for. */
  maxPages: number;
  /** BATCH_MAX_URLS: the longest list a batch may carry. */
  maxBatchUrls: number;
  /** CRAWL_JOB_MAX_CONCURRENCY: pages in flight one crawl may ask for. */
  maxConcurrency: number;
}

/** A body that is not an object is named as such; an unknown field keeps zod's message, which names it. */
const BODY_ERROR = { error: (issue: { code: string }) => (issue.code === 'invalid_type' ? 'the body must be a JSON object' : undefined) };

const url = (name: string) =>
  z.string({ error: `${name} is required: an absolute http(s) URL` }).transform((value, ctx) => {
    const normalised = normaliseUrl(value.trim());
    if (typeof normalised === 'string') return normalised;
    ctx.addIssue({ code: 'custom', message: `${name}: ${normalised.error}` });
    return z.NEVER;
  });

const int = (name: string, min: number, max: number, fallback: number) =>
  z
    .number({ error: `${name} must be an integer from ${min} to ${max}` })
    .int(`${name} must be an integer from ${min} to ${max}`)
    .min(min, `${name} must be an integer from ${min} to ${max}`)
    .max(max, `${name} must be an integer from ${min} to ${max}`)
    .default(fallback);

const bool = (name: string, fallback: boolean) => z.boolean({ error: `${name} must be true or false` }).default(fallback);

const patterns = (name: string) =>
  z
    .array(z.string({ error: `${name} must be a list of regular expressions (strings)` }), { error: `${name} must be a list of regular expressions` })
    .max(100, `${name} has more than 100 patterns`)
    .default([]);

/** Where a crawl's events are POSTed, signed with HMAC-SHA256 (the crawl's `secret`, else the account's). */
const webhookSchema = z.strictObject(
  {
    url: url('webhook.url'),
    events: z
      .array(z.enum(WEBHOOK_EVENTS, { error: `webhook.events: each one of ${WEBHOOK_EVENTS.join(', ')}` }))
      .min(1, 'webhook.events must name at least one event')
      .default([...WEBHOOK_EVENTS]),
    secret: z.string().min(16, 'webhook.secret must be at least 16 characters').max(256, 'webhook.secret is longer than 256 characters').optional(),
  },
  { error: (issue) => (issue.code === 'invalid_type' ? 'webhook must be an object { url, events?, secret? }' : undefined) },
);

/**
 * The least gap (ms) between two of this crawl's requests to one host; unset: the deployment's CRAWL_HOST_MIN_GAP_MS.
 * A host's robots.txt `Crawl-delay` wins when larger.
 */
const delay = z
  .number({ error: 'delay_ms must be an integer from 0 to 60000' })
  .int('delay_ms must be an integer from 0 to 60000')
  .min(0, 'delay_ms must be an integer from 0 to 60000')
  .max(60_000, 'delay_ms must be an integer from 0 to 60000')
  .optional();

/** What every page of a crawl or a batch is fetched and returned as: the formats and engine of `/crawl`. */
const pageOptions = {
  render_js: bool('render_js', false),
  geolocation: countryCode('geolocation').optional(),
  raw_html: bool('raw_html', false),
  enhanced_html: bool('enhanced_html', true),
  markdown: bool('markdown', true),
  page_text: bool('page_text', false),
  /** The page's outgoing links (absolute, in document order, duplicates dropped). */
  links: bool('links', true),
};

export function siteCrawlBodySchema(limits: CrawlJobLimits) {
  return z.strictObject(
    {
      url: url('url'),
      limit: int('limit', 1, limits.maxPages, Math.min(100, limits.maxPages)),
      max_depth: int('max_depth', 0, 100, 10),
      include_paths: patterns('include_paths'),
      exclude_paths: patterns('exclude_paths'),
      allow_subdomains: bool('allow_subdomains', false),
      allow_external_links: bool('allow_external_links', false),
      sitemap: z.enum(SITEMAP_MODES, { error: `sitemap must be one of ${SITEMAP_MODES.join(', ')}` }).default('include'),
      ignore_query_strings: bool('ignore_query_strings', false),
      ignore_robots_txt: bool('ignore_robots_txt', false),
      concurrency: int('concurrency', 1, limits.maxConcurrency, Math.min(5, limits.maxConcurrency)),
      delay_ms: delay,
      ...pageOptions,
      webhook: webhookSchema.optional(),
    },
    BODY_ERROR,
  );
}

export function batchBodySchema(limits: CrawlJobLimits) {
  return z.strictObject(
    {
      urls: z
        .array(z.string({ error: 'urls must be a list of URLs (strings)' }), { error: 'urls is required: a list of absolute http(s) URLs' })
        .min(1, 'urls is required: a list of absolute http(s) URLs')
        .max(limits.maxBatchUrls, `urls has more than ${limits.maxBatchUrls} URLs (BATCH_MAX_URLS)`),
      /** Invalid URLs are left out and listed in the answer instead of refusing the batch. */
      ignore_invalid_urls: bool('ignore_invalid_urls', false),
      concurrency: int('concurrency', 1, limits.maxConcurrency, Math.min(5, limits.maxConcurrency)),
      delay_ms: delay,
      ...pageOptions,
      webhook: webhookSchema.optional(),
    },
    BODY_ERROR,
  ).transform((body, ctx) => {
    const urls: string[] = [];
    const invalid: string[] = [];
    const seen = new Set<string>();
    for (const [i, raw] of body.urls.entries()) {
      const normalised = normaliseUrl(raw.trim());
      if (typeof normalised !== 'string') {
        if (!body.ignore_invalid_urls) {
          ctx.addIssue({ code: 'custom', path: ['urls'], message: `urls[${i}]: ${normalised.error} (or set ignore_invalid_urls)` });
          return z.NEVER;
        }
        invalid.push(raw);
      } else if (!seen.has(normalised)) {
        seen.add(normalised);
        urls.push(normalised);
      }
    }
    if (urls.length === 0) {
      ctx.addIssue({ code: 'custom', path: ['urls'], message: 'urls has no valid URL' });
      return z.NEVER;
    }
    return { ...body, urls, invalid_urls: invalid };
  });
}

export type SiteCrawlBody = z.output<ReturnType<typeof siteCrawlBodySchema>>;
export type BatchBody = z.output<ReturnType<typeof batchBodySchema>>;
export type WebhookOptions = NonNullable<SiteCrawlBody['webhook']>;

/** `GET /crawls/{id}` and `/errors`: the page of results after `cursor`. */
export const crawlReadQuerySchema = z.strictObject({
  cursor: z
    .string()
    .regex(/^\d{1,18}$/, 'cursor must be the `next_cursor` of an earlier answer')
    .optional(),
  limit: z
    .string()
    .regex(/^\d{1,4}$/, 'limit must be an integer from 1 to 1000')
    .transform(Number)
    .refine((n) => n >= 1 && n <= 1000, 'limit must be an integer from 1 to 1000')
    .optional(),
});
export type CrawlReadQuery = z.output<typeof crawlReadQuerySchema>;

export const mapBodySchema = (maxLinks: number) =>
  z.strictObject(
    {
      url: url('url'),
      /** URLs whose address or title contains these words come first; the others follow. */
      search: z.string().trim().max(500, 'search is longer than 500 characters').optional(),
      sitemap: z.enum(SITEMAP_MODES, { error: `sitemap must be one of ${SITEMAP_MODES.join(', ')}` }).default('include'),
      include_subdomains: bool('include_subdomains', true),
      ignore_query_strings: bool('ignore_query_strings', true),
      limit: int('limit', 1, maxLinks, Math.min(5000, maxLinks)),
      /** Also ask Trawl's web search (`site:` the host) for URLs it knows: 10 credits more. */
      use_search: bool('use_search', false),
    },
    BODY_ERROR,
  ).refine((body) => !(body.use_search && body.sitemap === 'only'), {
    path: ['use_search'],
    message: 'use_search cannot be combined with sitemap=only (which maps the sitemaps alone)',
  });
export type MapBody = z.output<ReturnType<typeof mapBodySchema>>;

/** One stored page of a crawl. */
export interface CrawlJobPage {
  /** The URL the page was fetched at, after redirects. */
  url: string;
  /** The URL as discovered (or as given in a batch). */
  source_url: string;
  status_code: number;
  /** Link hops from the start URL (sitemap URLs are 0). */
  depth: number;
  raw_html?: string;
  enhanced_html?: string;
  markdown?: string;
  page_text?: string;
  metadata?: PageMetadata;
  links?: string[];
  /** What the page's actions produced (crawls started with actions: the Firecrawl-compatible routes). */
  actions?: Pick<PageActionsOutcome, 'scrapes' | 'javascriptReturns'>;
  /** Set when the stored formats were cut to CRAWL_PAGE_MAX_BYTES. */
  truncated?: boolean;
}

/** discovered = done + failed + skipped + pending. */
export interface CrawlJobCounts {
  /** URLs admitted to the frontier (found, in scope, under the limit). */
  discovered: number;
  /** Pages stored (and charged). */
  done: number;
  /** URLs whose fetch failed (see /errors; never charged). */
  failed: number;
  /** URLs not fetched or not stored: refused by robots.txt, the same page as one stored (a redirect or canonical), or cancelled. */
  skipped: number;
  /** URLs still to fetch. */
  pending: number;
}

export interface CrawlJobSummary {
  id: string;
  kind: 'site' | 'batch';
  status: CrawlStatus;
  /** The start URL of a site crawl. */
  url?: string;
  counts: CrawlJobCounts;
  /** Credits the stored pages cost so far. */
  credits: number;
  created_at: string;
  started_at?: string;
  finished_at?: string;
  /** When the results are deleted. */
  expires_at: string;
  /** Why it failed or stopped (`CODE: message`). */
  error?: string;
}

export interface CrawlJobStatus extends CrawlJobSummary {
  pages: CrawlJobPage[];
  /** The next page of results (absolute URL), null when none is stored yet after this one. */
  next: string | null;
  /** The cursor `next` carries. */
  next_cursor: string | null;
}

export interface CrawlJobCreated {
  id: string;
  status: CrawlStatus;
  /** Where to read it. */
  url: string;
  /** A batch's invalid URLs left out (with `ignore_invalid_urls`). */
  invalid_urls?: string[];
}

export interface CrawlJobErrors {
  errors: Array<{ url: string; code: string; message: string; at: string }>;
  /** URLs robots.txt did not allow (never fetched, never charged). */
  robots_blocked: string[];
  next: string | null;
  next_cursor: string | null;
}

export interface MapLink {
  url: string;
  title?: string;
  description?: string;
}

export interface MapResponse {
  links: MapLink[];
  credits: number;
  /** A source that failed without failing the call: `start page: CODE: message`, `search: CODE: message`. */
  warning?: string;
}
