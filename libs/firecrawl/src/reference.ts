/**
 * The Firecrawl-compatible routes as the OpenAPI document describes them: each route's body or query schema (the
 * same zod schemas the routes parse with), its answer, its error statuses (answered in Firecrawl's shape), and what
 * each body field does here. docs/firecrawl.md has the prose.
 */
import type { z } from 'zod';
import {
  activeCrawlsSchema, cancelAnswerSchema, creditUsageSchema, jobErrorsSchema, jobStartedSchema, jobStatusSchema, mapAnswerV1Schema, mapAnswerV2Schema,
  scrapeAnswerSchema, searchAnswerV1Schema, searchAnswerV2Schema,
} from './answers.js';
import { batchBodySchema, crawlBodySchema, mapBodySchema, scrapeBodySchema, searchBodySchema, statusQuerySchema } from './bodies.js';

export type FirecrawlVersion = 'v1' | 'v2';

export interface FirecrawlRouteError {
  status: number;
  when: string;
}

export interface FirecrawlRoute {
  /** The route as OpenAPI writes it (`/v2/crawl/{id}`). */
  path: string;
  method: 'get' | 'post' | 'delete';
  operationId: string;
  summary: string;
  /** The JSON body, when the route takes one. */
  body?: z.ZodType;
  /** What each body field does here; a field without an entry whose schema is empty is accepted and ignored. */
  fieldDocs?: Record<string, string>;
  /** The query parameters (status pages: skip, limit). */
  query?: z.ZodType;
  pathParams?: Record<string, string>;
  response: z.ZodType;
  /** Error statuses besides 401 and 500 (every route; a route's own 500 is added to the common one). */
  errors: FirecrawlRouteError[];
}

/** A field a body accepts and does nothing with (bookkeeping, caching hints). */
export const IGNORED_FIELD = 'Accepted and ignored (client bookkeeping or a hint that does not change the result here)';

/** What each scrape option does here (scrape and batch bodies, and a crawl's or search's scrapeOptions). */
export const SCRAPE_OPTION_DOCS: Record<string, string> = {
  formats:
    '`markdown` (default), `html` (cleaned), `rawHtml`, `links`, `images`, `screenshot` (viewport; `{ "type": "screenshot", "fullPage": true }` or v1 `screenshot@fullPage` for the whole page; scrape only). The LLM formats, scrape only, through the LLM the operator configured (LLM_BASE_URL; without one a 400): `summary`, and `{ "type": "json", "schema"?, "prompt"? }` (v1: `"json"` with jsonOptions), priced by their tokens on top of the page; a format the LLM fails fails the scrape (500 with the LLM’s code, nothing charged). `{ "type": "highlights", "query" }` (scrape and search results): the page’s passages most relevant to the query, best first, at no extra charge. `question`, `query` and the other formats are refused (400).',
  onlyMainContent: "The page's main content (default true); false: the whole page",
  includeTags: 'CSS selectors: the formats are made of exactly these elements',
  excludeTags: 'CSS selectors removed before the formats are made',
  headers: 'Request headers sent over plain HTTP (not with waitFor, actions, a screenshot or proxy stealth)',
  waitFor: 'Milliseconds to wait after the page settled, in Chromium; at most half of timeout',
  timeout: "The page's budget in milliseconds (default CRAWL_TIMEOUT_MS)",
  mobile: "A phone's user agent, client hints and viewport",
  removeBase64Images: 'Replace inline base64 images in the markdown (default true)',
  location: '`country`: fetched through a proxy of that country (PROXIES); `languages` accepted',
  proxy: '`basic`: the cheapest engine that can do it; `auto` (default): escalates plain HTTP → Chromium → the headed browser while the answer is an anti-bot page; `stealth`/`enhanced`: the headed browser',
  actions:
    'Scrape only: at most 50 of `wait`, `click`, `write`, `press`, `scroll`, `screenshot`, `scrape`, `executeJavascript`, run in order on the rendered page (Chromium; the headed browser with proxy stealth) before its formats are made, all within timeout; waitFor and the waits add up to 60 s at most. Priced as the rendered page (10 credits; 50 on the headed browser). Every request they cause passes the SSRF guard. An action that cannot be done (no element matches, an unknown key, a script that throws) fails the scrape: 500 SCRAPE_ACTION_ERROR naming it, nothing charged. `pdf` is refused.',
  jsonOptions: 'v1: `{ schema?, prompt? }` of the `json` format (scrape only; needs the format `"json"` in formats); `checkPromptInjection` is accepted and ignored, `systemPrompt` refused (this server writes its own)',
};

const URL_DOC = 'The page: an absolute http(s) URL';

const SCRAPE_DOCS: Record<string, string> = { url: URL_DOC, ...SCRAPE_OPTION_DOCS };

const BATCH_DOCS: Record<string, string> = {
  ...SCRAPE_OPTION_DOCS,
  urls: 'The pages to scrape (up to BATCH_MAX_URLS)',
  ignoreInvalidURLs: 'Leave invalid URLs out and list them in invalidURLs (default true); false refuses the batch',
  maxConcurrency: 'Pages in flight at once (capped at CRAWL_JOB_MAX_CONCURRENCY)',
  timeout: "Each page's budget in milliseconds",
};

const CRAWL_DOCS: Record<string, string> = {
  url: 'The start page: an absolute http(s) URL',
  includePaths: 'Regular expressions (RE2) on the path and query: only matching URLs are crawled',
  excludePaths: 'Regular expressions (RE2) on the path and query: matching URLs are not crawled',
  maxDiscoveryDepth: 'Link hops from the start page',
  maxDepth: 'v1: taken as link hops from the start page',
  sitemap: '`include` (default), `skip` or `only`',
  ignoreSitemap: 'v1: true is sitemap `skip`',
  limit: 'The most pages to store (default 10 000, capped at CRAWL_JOB_MAX_PAGES)',
  crawlEntireDomain: 'Follow links outside the start path (default false: a crawl below `/` stays under its start path unless includePaths is given)',
  allowBackwardLinks: 'v1 name of crawlEntireDomain',
  allowExternalLinks: 'Follow links to other sites',
  allowSubdomains: "Follow links to the start host's subdomains",
  ignoreRobotsTxt: 'Crawl what robots.txt disallows',
  ignoreQueryParameters: 'Drop the query of every URL',
  deduplicateSimilarURLs: 'Accepted: a page that is the same as one stored (redirects, canonicals) is dropped either way',
  regexOnFullURL: 'Only false: patterns match the path and query',
  delay: 'Seconds between two pages of one host (0–60)',
  maxConcurrency: 'Pages in flight at once (capped at CRAWL_JOB_MAX_CONCURRENCY)',
  scrapeOptions: 'Scrape options for every page, as scrape takes them (no screenshot, no proxy stealth, no LLM formats)',
};

const MAP_DOCS: Record<string, string> = {
  url: 'The site: an absolute http(s) URL, its start page',
  search: 'Words: URLs whose address or title contains them come first',
  sitemap: '`include` (default), `skip` or `only`',
  ignoreSitemap: 'v1: true is sitemap `skip`',
  sitemapOnly: 'v1: true is sitemap `only`',
  includeSubdomains: "Keep URLs on the site's other subdomains (default true)",
  ignoreQueryParameters: 'Drop the query of every URL (default true)',
  limit: 'The most links (default 5000, capped at MAP_MAX_LINKS)',
  timeout: IGNORED_FIELD,
};

const SEARCH_DOCS: Record<string, string> = {
  query: 'The search words',
  sources: 'v2: web (default), news, images — as strings or {type}; a source of a client\'s own is ignored, a list naming none of these is a 400. v1: web only',
  limit: 'Results (default 5, 1–100)',
  tbs: "Freshness, as Google writes it: qdr:h, qdr:d, qdr:w, qdr:m or qdr:y (the past hour … year); each engine gets its own filter (Bing's and DuckDuckGo's finest is the day). Date ranges (cdr) are a 400",
  location: 'Read for the country its last part names in English ("Berlin,Germany" → de): the market, as country; a location naming no country is a 400. country wins when both are sent',
  country: "A country code: the search engine's market",
  lang: "v1: the results' language",
  ignoreInvalidURLs: IGNORED_FIELD,
  timeout: IGNORED_FIELD,
  scrapeOptions: 'With formats, the results are scraped in the same call (plain HTTP, 1 credit each; rendered, 10 each, with waitFor or actions; no screenshot, screenshot or pdf actions, or LLM formats)',
};

const ID = { id: 'The job id, as the start answer gave it' };

/** The status pages' query parameters. */
export const STATUS_QUERY_DOCS: Record<string, string> = {
  skip: 'Stored documents to skip: where this answer starts (`next` carries it)',
  limit: 'The most documents in this answer (1–1000; 100 by default, and at most 10 MiB)',
};

const BAD_BODY: FirecrawlRouteError = { status: 400, when: 'BAD_REQUEST: the body fails validation or names an option this server does not offer; every issue in details, nothing charged' };
const CREDITS: FirecrawlRouteError = { status: 402, when: 'the credits are gone' };
const FORBIDDEN: FirecrawlRouteError = { status: 403, when: 'a suspended account or an ended subscription; an address the SSRF guard refuses' };
const BUSY: FirecrawlRouteError = { status: 429, when: 'the concurrency limit is reached (Retry-After)' };
const NO_JOB: FirecrawlRouteError = { status: 404, when: 'no such job, or not the caller’s' };
const BAD_QUERY: FirecrawlRouteError = { status: 400, when: 'BAD_REQUEST: skip or limit is not a number in range' };

function routes(version: FirecrawlVersion): FirecrawlRoute[] {
  const V = version.toUpperCase();
  const op = (name: string) => `firecrawl${V}${name}`;
  const p = (path: string) => `/${version}${path}`;
  const list: FirecrawlRoute[] = [
    {
      path: p('/scrape'),
      method: 'post',
      operationId: op('Scrape'),
      summary: "Firecrawl's scrape: one page on Trawl's engines, as a Document",
      body: scrapeBodySchema,
      fieldDocs: SCRAPE_DOCS,
      response: scrapeAnswerSchema,
      errors: [
        BAD_BODY,
        CREDITS,
        FORBIDDEN,
        { status: 408, when: 'SCRAPE_TIMEOUT: the page ran out of time (nothing charged)' },
        BUSY,
        { status: 500, when: 'the page could not be fetched (DNS_FAILED, CONNECTION_FAILED, UPSTREAM_BLOCKED, …; nothing charged)' },
        { status: 500, when: 'an LLM format failed: the LLM’s code (LLM_UNAVAILABLE, LLM_INVALID_OUTPUT, LLM_TIMEOUT, LLM_REJECTED) and its message; an action failed: SCRAPE_ACTION_ERROR naming it (`actions.1.selector: no element matches "#more"`); nothing charged' },
      ],
    },
    {
      path: p('/crawl'),
      method: 'post',
      operationId: op('StartCrawl'),
      summary: 'Start a site crawl (as POST /crawls)',
      body: crawlBodySchema,
      fieldDocs: CRAWL_DOCS,
      response: jobStartedSchema,
      errors: [BAD_BODY, CREDITS, FORBIDDEN, BUSY],
    },
    { path: p('/crawl/active'), method: 'get', operationId: op('ActiveCrawls'), summary: "The account's crawls that have not finished", response: activeCrawlsSchema, errors: [] },
    {
      path: p('/crawl/{id}'),
      method: 'get',
      operationId: op('CrawlStatus'),
      summary: "A crawl's status and up to 100 stored documents from skip; next links on while more are stored",
      query: statusQuerySchema,
      pathParams: ID,
      response: jobStatusSchema,
      errors: [BAD_QUERY, NO_JOB],
    },
    {
      path: p('/crawl/{id}'),
      method: 'delete',
      operationId: op('CancelCrawl'),
      summary: 'Cancel a crawl (a crawl that has already finished answers the same, and stays as it finished)',
      pathParams: ID,
      response: cancelAnswerSchema,
      errors: [NO_JOB],
    },
    { path: p('/crawl/{id}/errors'), method: 'get', operationId: op('CrawlErrors'), summary: "A crawl's failed URLs and the URLs robots.txt refused", pathParams: ID, response: jobErrorsSchema, errors: [NO_JOB] },
    {
      path: p('/batch/scrape'),
      method: 'post',
      operationId: op('StartBatchScrape'),
      summary: 'Start a batch scrape (as POST /batches)',
      body: batchBodySchema,
      fieldDocs: BATCH_DOCS,
      response: jobStartedSchema,
      errors: [BAD_BODY, CREDITS, FORBIDDEN, BUSY],
    },
    {
      path: p('/batch/scrape/{id}'),
      method: 'get',
      operationId: op('BatchScrapeStatus'),
      summary: "A batch scrape's status and documents, read as a crawl's",
      query: statusQuerySchema,
      pathParams: ID,
      response: jobStatusSchema,
      errors: [BAD_QUERY, NO_JOB],
    },
    { path: p('/batch/scrape/{id}'), method: 'delete', operationId: op('CancelBatchScrape'), summary: 'Cancel a batch scrape', pathParams: ID, response: cancelAnswerSchema, errors: [NO_JOB] },
    { path: p('/batch/scrape/{id}/errors'), method: 'get', operationId: op('BatchScrapeErrors'), summary: "A batch scrape's failed URLs", pathParams: ID, response: jobErrorsSchema, errors: [NO_JOB] },
    {
      path: p('/map'),
      method: 'post',
      operationId: op('Map'),
      summary: `A site's URLs (as POST /map): links as ${version === 'v1' ? 'strings' : '{ url, title?, description? }'}`,
      body: mapBodySchema,
      fieldDocs: MAP_DOCS,
      response: version === 'v1' ? mapAnswerV1Schema : mapAnswerV2Schema,
      errors: [BAD_BODY, CREDITS, FORBIDDEN, BUSY, { status: 500, when: 'the start page could not be fetched and no other source found a URL' }],
    },
    {
      path: p('/search'),
      method: 'post',
      operationId: op('Search'),
      summary: `Trawl's web search; with scrapeOptions.formats the first limit results are scraped in the same call (${version === 'v1' ? 'data' : 'data.web'})`,
      body: searchBodySchema,
      fieldDocs: SEARCH_DOCS,
      response: version === 'v1' ? searchAnswerV1Schema : searchAnswerV2Schema,
      errors: [BAD_BODY, CREDITS, FORBIDDEN, BUSY, { status: 500, when: 'the search engine refused or failed (UPSTREAM_BLOCKED, UPSTREAM_FAILED)' }],
    },
    { path: p('/team/credit-usage'), method: 'get', operationId: op('CreditUsage'), summary: 'The credits left in the period, the plan’s, and the period’s bounds', response: creditUsageSchema, errors: [] },
  ];
  if (version === 'v1') {
    list.push({
      path: p('/crawl/{id}/errors'),
      method: 'delete',
      operationId: op('CrawlErrorsByDelete'),
      summary: "A crawl's errors, as the v1 SDK's checkCrawlErrors asks with DELETE (nothing is cancelled)",
      pathParams: ID,
      response: jobErrorsSchema,
      errors: [NO_JOB],
    });
  }
  return list;
}

export const FIRECRAWL_REFERENCE: readonly FirecrawlRoute[] = [...routes('v2'), ...routes('v1')];
