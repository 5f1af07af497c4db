/**
 * The answers of site crawls, batches and `/map` as zod schemas, for the OpenAPI document and the MCP tools'
 * `outputSchema`s (the TypeScript types stay those of crawl-jobs.ts; a test holds real answers to these).
 */
import { z } from 'zod';
import { CRAWL_STATUSES } from './crawl-jobs.js';
import { pageMetadataSchema } from './responses.js';

const int = () => z.number().int();
const cursorLink = {
  next: z.string().nullable().describe('The next page of results (an absolute URL), null when there is none yet'),
  next_cursor: z.string().nullable().describe('The cursor `next` carries: pass it as `cursor`'),
};

export const crawlJobPageSchema = z.object({
  url: z.string().describe('The URL the page was fetched at, after redirects'),
  source_url: z.string().describe('The URL as discovered (or as given in a batch)'),
  status_code: int().describe('HTTP status the site answered'),
  depth: int().describe('Link hops from the start URL (sitemap URLs and batch URLs are 0)'),
  raw_html: z.string().optional(),
  enhanced_html: z.string().optional(),
  markdown: z.string().optional(),
  page_text: z.string().optional(),
  metadata: pageMetadataSchema.optional(),
  links: z.array(z.string()).optional().describe("The page's outgoing links (links=true)"),
  truncated: z.boolean().optional().describe('The formats were cut to CRAWL_PAGE_MAX_BYTES (or, in an MCP result, to max_chars)'),
});

export const crawlJobSummarySchema = z.object({
  id: z.string(),
  kind: z.enum(['site', 'batch']),
  status: z.enum(CRAWL_STATUSES),
  url: z.string().optional().describe('The start URL of a site crawl'),
  counts: z
    .object({ discovered: int(), done: int(), failed: int(), skipped: int(), pending: int() })
    .describe('discovered = done + failed + skipped + pending: pages stored, URLs that failed (free), skipped (robots.txt, duplicates, cancelled), still to fetch'),
  credits: int().describe('Credits the stored pages cost so far'),
  created_at: z.string(),
  started_at: z.string().optional(),
  finished_at: z.string().optional(),
  expires_at: z.string().describe('When the results are deleted (CRAWL_RETENTION_MS after it finished)'),
  error: z.string().optional().describe('Why it failed or stopped (`CODE: message`)'),
});

export const crawlJobStatusSchema = crawlJobSummarySchema.extend({
  pages: z.array(crawlJobPageSchema).describe('Stored pages after `cursor`, in the order they were stored: at most `limit`, and 10 MiB'),
  ...cursorLink,
});

export const crawlJobCreatedSchema = z.object({
  id: z.string(),
  status: z.enum(CRAWL_STATUSES),
  url: z.string().describe('Where to read it: GET this URL'),
  invalid_urls: z.array(z.string()).optional().describe("A batch's invalid URLs left out (ignore_invalid_urls=true)"),
});

export const crawlJobListSchema = z.object({ crawls: z.array(crawlJobSummarySchema).describe("The account's queued and running crawls and batches") });

export const crawlJobErrorsSchema = z.object({
  errors: z.array(z.object({ url: z.string(), code: z.string(), message: z.string(), at: z.string() })).describe('URLs whose fetch failed (never charged)'),
  robots_blocked: z.array(z.string()).describe("URLs the site's robots.txt does not allow (never fetched, never charged)"),
  ...cursorLink,
});

export const crawlJobCancelledSchema = z.object({ id: z.string(), status: z.literal('cancelled') });

export const mapResponseSchema = z.object({
  links: z
    .array(z.object({ url: z.string(), title: z.string().optional(), description: z.string().optional() }))
    .describe('The URLs found, normalised and once each; with `search`, the matching ones first'),
  credits: int().describe('2, plus 10 when the web search page was fetched'),
  warning: z.string().optional().describe('A source that failed without failing the call (`start page: CODE: message`, `search: …`)'),
});
