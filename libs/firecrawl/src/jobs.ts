/**
 * Crawls and batch scrapes: Firecrawl's bodies onto the bodies of Trawl's `POST /crawls` and `POST /batches` (before
 * Trawl's own schema checks them), and a crawl's status onto Firecrawl's answer (`status`, `completed`, `total`,
 * `creditsUsed`, `expiresAt`, `next`, `data`).
 */
import type { CrawlJobSummary, CrawlStatus } from '#contracts';
import type { BatchScrapeBody, CrawlBody } from './bodies.js';
import type { FirecrawlDocument } from './document.js';
import { plansRendering, scrapePlan, type ScrapeOptionsInput, type ScrapePlan } from './scrape-options.js';

/** Trawl's names for the fields a translated body carries, back to the Firecrawl name a client sent. */
export const FIELD_NAMES: Record<string, string> = {
  include_paths: 'includePaths',
  exclude_paths: 'excludePaths',
  max_depth: 'maxDiscoveryDepth',
  allow_subdomains: 'allowSubdomains',
  allow_external_links: 'allowExternalLinks',
  ignore_query_strings: 'ignoreQueryParameters',
  ignore_robots_txt: 'ignoreRobotsTxt',
  concurrency: 'maxConcurrency',
  delay_ms: 'delay',
  ignore_invalid_urls: 'ignoreInvalidURLs',
};

export interface Translated {
  /** The Trawl body (snake_case), for Trawl's own schema. */
  body: Record<string, unknown>;
  plan: ScrapePlan;
}

/**
 * A crawl's scrapeOptions, or the issue to refuse them with: a crawl stores no screenshots (nor screenshot or pdf
 * actions), and Trawl's site crawls and batches (`POST /crawls`, `/batches`) do not run the LLM formats. Its other
 * actions run on every page, and each stored page keeps what they produced.
 */
export function pagePlan(options: ScrapeOptionsInput | undefined, prefix: string): ScrapePlan | { path: string; message: string } {
  const plan = scrapePlan(options ?? {});
  if ('path' in plan) return { path: `${prefix}${plan.path}`, message: plan.message };
  const llm = llmRefusal(plan, prefix, 'scrape only, not for the pages of a crawl or batch');
  if (llm) return llm;
  if (plan.highlights) return { path: `${prefix}${plan.highlights.path}`, message: 'format highlights is offered by scrape and search only, not for the pages of a crawl or batch' };
  const capture = captureRefusal(plan, prefix, 'the pages of a crawl or batch');
  if (capture) return capture;
  if (plan.proxy === 'stealth') return { path: `${prefix}proxy`, message: 'proxy stealth is offered by scrape only, not for the pages of a crawl or batch' };
  return plan;
}

/**
 * The refusal of a plan's captures — the screenshot format, screenshot and pdf actions — where only scrape publishes
 * them (`where`: what is asked for, "search results").
 */
export function captureRefusal(plan: ScrapePlan, prefix: string, where: string): { path: string; message: string } | undefined {
  if (plan.document.screenshot) return { path: `${prefix}formats`, message: `screenshot is offered by scrape only, not for ${where}` };
  const at = plan.actions?.findIndex((a) => a.type === 'screenshot' || a.type === 'pdf') ?? -1;
  if (at >= 0) return { path: `${prefix}actions.${at}.type`, message: `screenshot and pdf actions are offered by scrape only, not for ${where} (as the screenshot format)` };
  return undefined;
}

/** The refusal of a plan's LLM formats where they are not offered (`where`: what offers them). */
export function llmRefusal(plan: ScrapePlan, prefix: string, where: string): { path: string; message: string } | undefined {
  if (!plan.llm) return undefined;
  const path = plan.llmPaths?.summary ?? plan.llmPaths?.json ?? 'formats';
  const name = plan.llm.summary ? 'summary' : 'json';
  return { path: `${prefix}${path}`, message: `format ${name} (an LLM format) is offered by ${where}` };
}

/** The page fields every crawl and batch body carries, from the plan. */
function pageFields(plan: ScrapePlan, limit: number | undefined, maxConcurrency: number | undefined): Record<string, unknown> {
  return {
    render_js: plansRendering(plan),
    markdown: plan.formats.markdown,
    enhanced_html: plan.formats.enhanced_html,
    raw_html: plan.formats.raw_html,
    page_text: false,
    links: plan.document.links,
    ...(plan.geolocation ? { geolocation: plan.geolocation } : {}),
    ...(maxConcurrency !== undefined ? { concurrency: limit !== undefined ? Math.min(maxConcurrency, limit) : maxConcurrency } : {}),
  };
}

const escapeRegex = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export function crawlBody(body: CrawlBody, maxPages: number, maxConcurrency: number): Translated | { path: string; message: string } {
  const plan = pagePlan(body.scrapeOptions, 'scrapeOptions.');
  if ('path' in plan) return plan;
  const include = body.includePaths ?? [];
  // Firecrawl follows only the start URL's path and below unless crawlEntireDomain; with patterns of the client's
  // own, those decide (Trawl's patterns cannot be combined with a prefix into one list).
  const start = new URL(body.url, 'http://invalid');
  const wholeSite = body.crawlEntireDomain ?? body.allowBackwardLinks ?? false;
  if (!wholeSite && include.length === 0 && start.pathname !== '/' && start.hostname !== 'invalid') include.push(`^${escapeRegex(start.pathname)}`);
  const depth = body.maxDiscoveryDepth ?? body.maxDepth;
  const sitemap = body.sitemap ?? (body.ignoreSitemap ? 'skip' : 'include');
  return {
    plan,
    body: {
      url: body.url,
      limit: Math.min(body.limit ?? 10_000, maxPages),
      ...(depth !== undefined ? { max_depth: Math.min(depth, 100) } : {}),
      include_paths: include,
      exclude_paths: body.excludePaths ?? [],
      allow_subdomains: body.allowSubdomains ?? false,
      allow_external_links: body.allowExternalLinks ?? false,
      sitemap,
      ignore_query_strings: body.ignoreQueryParameters ?? false,
      ignore_robots_txt: body.ignoreRobotsTxt ?? false,
      ...(body.delay !== undefined ? { delay_ms: Math.round(body.delay * 1000) } : {}),
      ...pageFields(plan, undefined, body.maxConcurrency !== undefined ? Math.min(body.maxConcurrency, maxConcurrency) : undefined),
    },
  };
}

export function batchBody(body: BatchScrapeBody, maxConcurrency: number): Translated | { path: string; message: string } {
  const { urls, ignoreInvalidURLs, maxConcurrency: asked, webhook: _webhook, appendToId: _append, ...options } = body;
  const plan = pagePlan(options, '');
  if ('path' in plan) return plan;
  return {
    plan,
    body: {
      urls,
      // Firecrawl's server leaves invalid URLs out by default (and lists them as invalidURLs).
      ignore_invalid_urls: ignoreInvalidURLs ?? true,
      ...pageFields(plan, undefined, asked !== undefined ? Math.min(asked, maxConcurrency) : undefined),
    },
  };
}

/** Firecrawl's status words: scraping until the crawl ends. */
export function firecrawlStatus(status: CrawlStatus): 'scraping' | 'completed' | 'failed' | 'cancelled' {
  switch (status) {
    case 'queued':
    case 'running':
      return 'scraping';
    case 'completed':
      return 'completed';
    case 'cancelled':
      return 'cancelled';
    default:
      return 'failed';
  }
}

export interface JobStatusAnswer {
  success: true;
  status: 'scraping' | 'completed' | 'failed' | 'cancelled';
  completed: number;
  total: number;
  creditsUsed: number;
  expiresAt: string;
  next?: string;
  data: FirecrawlDocument[];
  error?: string;
}

/**
 * `next` only when pages are already stored past this answer: a client following it while a crawl runs (the SDK's
 * status call, firecrawl-mcp's) would otherwise loop on empty pages, and v1's SDK breaks on `next: null`.
 */
export function jobStatus(summary: CrawlJobSummary, data: FirecrawlDocument[], next: string | undefined): JobStatusAnswer {
  const c = summary.counts;
  const answer: JobStatusAnswer = {
    success: true,
    status: firecrawlStatus(summary.status),
    completed: c.done,
    total: c.done + c.failed + c.pending,
    creditsUsed: summary.credits,
    expiresAt: summary.expires_at,
    data,
  };
  if (next) answer.next = next;
  if (summary.error) answer.error = summary.error;
  return answer;
}
