/**
 * The request bodies of Firecrawl's scrape, batch scrape, crawl, map and search (v2, with v1's spellings), as zod
 * schemas: strict, like Firecrawl's own, so an option this server does not know is refused by name — except the
 * fields clients add for bookkeeping (IGNORED_CLIENT_FIELDS), which are accepted and ignored.
 */
import { z } from 'zod';
import { SITEMAP_MODES, countryNamed, freshness } from '#contracts';
import { IGNORED_CLIENT_FIELDS, SCRAPE_OPTION_FIELDS, scrapeOptionsSchema } from './scrape-options.js';

const BODY = { error: (issue: { code: string }) => (issue.code === 'invalid_type' ? 'the body must be a JSON object' : undefined) };

const url = z.string({ error: 'url is required: an absolute http(s) URL' }).min(1, 'url is required: an absolute http(s) URL');
const bool = (name: string) => z.boolean({ error: `${name} must be true or false` }).optional();
const int = (name: string, min: number, max = Number.MAX_SAFE_INTEGER) =>
  z.number({ error: `${name} must be an integer of at least ${min}` }).int(`${name} must be an integer`).min(min, `${name} must be at least ${min}`).max(max, `${name} must be at most ${max}`).optional();
const patterns = (name: string) => z.array(z.string({ error: `${name} must be a list of regular expressions` }), { error: `${name} must be a list of regular expressions` }).optional();
/** Firecrawl's webhooks post their own payloads; Trawl's differ, so one is refused rather than sent in another shape. */
const webhook = z.undefined({ error: 'webhook: this server posts its own webhook payloads; use POST /crawls or /batches with webhook for them' }).optional();

export const scrapeBodySchema = z.strictObject({ url, ...SCRAPE_OPTION_FIELDS }, BODY);
export type ScrapeBody = z.output<typeof scrapeBodySchema>;

export const batchBodySchema = z.strictObject(
  {
    urls: z.array(z.string({ error: 'urls must be a list of URLs' }), { error: 'urls is required: a list of URLs' }).min(1, 'urls is required: a list of URLs'),
    ...SCRAPE_OPTION_FIELDS,
    ignoreInvalidURLs: bool('ignoreInvalidURLs'),
    maxConcurrency: int('maxConcurrency', 1),
    appendToId: z.undefined({ error: 'appendToId is not supported by this server' }).optional(),
    webhook,
  },
  BODY,
);
export type BatchScrapeBody = z.output<typeof batchBodySchema>;

export const crawlBodySchema = z.strictObject(
  {
    url,
    includePaths: patterns('includePaths'),
    excludePaths: patterns('excludePaths'),
    /** v2: link hops from the start. */
    maxDiscoveryDepth: int('maxDiscoveryDepth', 0),
    /** v1: taken as link hops too (see docs/firecrawl.md). */
    maxDepth: int('maxDepth', 0),
    sitemap: z.enum(SITEMAP_MODES, { error: `sitemap must be one of ${SITEMAP_MODES.join(', ')}` }).optional(),
    /** v1 */
    ignoreSitemap: bool('ignoreSitemap'),
    limit: int('limit', 1),
    crawlEntireDomain: bool('crawlEntireDomain'),
    /** v1 name of crawlEntireDomain. */
    allowBackwardLinks: bool('allowBackwardLinks'),
    allowExternalLinks: bool('allowExternalLinks'),
    allowSubdomains: bool('allowSubdomains'),
    ignoreRobotsTxt: bool('ignoreRobotsTxt'),
    ignoreQueryParameters: bool('ignoreQueryParameters'),
    /** Trawl drops a page that is the same as one stored (redirects, canonicals) whatever this says. */
    deduplicateSimilarURLs: bool('deduplicateSimilarURLs'),
    regexOnFullURL: z.literal(false, { error: 'regexOnFullURL is not supported: patterns match the path and query' }).optional(),
    robotsUserAgent: z.undefined({ error: 'robotsUserAgent is not supported by this server' }).optional(),
    prompt: z.undefined({ error: 'prompt (crawl options written by an LLM) is not offered by this server: give includePaths, excludePaths, limit and the other options' }).optional(),
    delay: z.number({ error: 'delay must be a number of seconds from 0 to 60' }).min(0, 'delay must be from 0 to 60 seconds').max(60, 'delay must be from 0 to 60 seconds').optional(),
    maxConcurrency: int('maxConcurrency', 1),
    scrapeOptions: scrapeOptionsSchema.optional(),
    webhook,
    ...IGNORED_CLIENT_FIELDS,
  },
  BODY,
);
export type CrawlBody = z.output<typeof crawlBodySchema>;

export const mapBodySchema = z.strictObject(
  {
    url,
    search: z.string({ error: 'search must be a string' }).max(500, 'search is longer than 500 characters').optional(),
    sitemap: z.enum(SITEMAP_MODES, { error: `sitemap must be one of ${SITEMAP_MODES.join(', ')}` }).optional(),
    /** v1 */
    ignoreSitemap: bool('ignoreSitemap'),
    sitemapOnly: bool('sitemapOnly'),
    includeSubdomains: bool('includeSubdomains'),
    ignoreQueryParameters: bool('ignoreQueryParameters'),
    limit: int('limit', 1),
    timeout: int('timeout', 1),
    location: z.unknown().optional(),
    threatProtection: z.unknown().optional(),
    auditMetadata: z.unknown().optional(),
    useIndex: z.unknown().optional(),
    ...IGNORED_CLIENT_FIELDS,
  },
  BODY,
);
export type MapBody = z.output<typeof mapBodySchema>;

/**
 * Search's `location` ("Germany", "San Francisco,California,United States"), read for the country its last part names
 * (results are targeted by country, not by city); empty means none.
 */
const searchLocation = z.string({ error: 'location must be a string' }).transform((value, ctx) => {
  if (value.trim() === '') return undefined;
  const country = countryNamed(value.split(',').pop() ?? '');
  if (!country) {
    ctx.addIssue({ code: 'custom', message: `location must end with a country named in English, such as "Berlin,Germany" or "United States" (got "${value.slice(0, 80)}")` });
    return z.NEVER;
  }
  return country;
});

export const searchBodySchema = z.strictObject(
  {
    query: z.string({ error: 'query is required' }).trim().min(1, 'query is required').max(2048, 'query is longer than 2048 characters'),
    /** web (default), news, images; a source of a client's own is ignored (search-sources.ts). */
    sources: z.array(z.union([z.string(), z.looseObject({ type: z.string() })]), { error: 'sources must be a list' }).optional(),
    categories: z.unknown().optional(),
    limit: int('limit', 1, 100),
    /** Freshness, Google's `qdr:h` … `qdr:y` (date ranges, `cdr:1,…`, are not offered). */
    tbs: freshness('tbs').optional(),
    location: searchLocation.optional(),
    country: z.string({ error: 'country must be a country code' }).optional(),
    /** v1 */
    lang: z.string({ error: 'lang must be a language code' }).optional(),
    filter: z.unknown().optional(),
    ignoreInvalidURLs: bool('ignoreInvalidURLs'),
    timeout: int('timeout', 1),
    highlights: z.unknown().optional(),
    enterprise: z.unknown().optional(),
    threatProtection: z.unknown().optional(),
    includeDomains: z.undefined({ error: 'includeDomains is not supported by this server' }).optional(),
    excludeDomains: z.undefined({ error: 'excludeDomains is not supported by this server' }).optional(),
    scrapeOptions: scrapeOptionsSchema.optional(),
    ...IGNORED_CLIENT_FIELDS,
  },
  BODY,
);
export type SearchBody = z.output<typeof searchBodySchema>;

/** `GET …/{id}?skip=&limit=`: where a status answer starts and how many documents it holds at most. */
export const statusQuerySchema = z.strictObject({
  skip: z.string().regex(/^\d{1,9}$/, 'skip must be a non-negative integer').transform(Number).optional(),
  limit: z.string().regex(/^\d{1,4}$/, 'limit must be an integer from 1 to 1000').transform(Number).refine((n) => n >= 1 && n <= 1000, 'limit must be an integer from 1 to 1000').optional(),
});
export type StatusQuery = z.output<typeof statusQuerySchema>;
