/**
 * Site crawls and batches in the API reference: `POST /crawls`, `POST /batches` (JSON bodies), the reads of
 * `/crawls/{id}` (status and pages by cursor, errors, an NDJSON export), `DELETE /crawls/{id}`, `GET /crawls`.
 * A batch's id is read and cancelled at `/batches/{id}` as well (one id space).
 */
import { ErrorCode } from '../error-codes.js';
import { MAX_URL_LENGTH } from './crawl.js';
import {
  crawlJobCancelledSchema, crawlJobCreatedSchema, crawlJobErrorsSchema, crawlJobListSchema, crawlJobPageSchema, crawlJobStatusSchema,
} from './crawl-job-responses.js';
import { batchBodySchema, crawlReadQuerySchema, siteCrawlBodySchema, WEBHOOK_EVENTS } from './crawl-jobs.js';
import { noParams, type ApiEndpoint, type ParamDoc } from './endpoint-reference.js';

const URL_SCHEMA = { format: 'uri', maxLength: MAX_URL_LENGTH };

/** What every page of a crawl or a batch is fetched and returned as (the `/crawl` options). */
const PAGE_DOCS: Record<string, ParamDoc> = {
  render_js: { description: 'Render each page in headless Chromium (runs JavaScript): 10 credits per stored page instead of 1.' },
  geolocation: {
    description: 'ISO 3166-1 alpha-2 country code: fetch through a proxy of that country (pages fail with PROXY_UNAVAILABLE when none is configured).',
    schema: { pattern: '^[A-Za-z]{2}$', examples: ['us', 'de'] },
  },
  raw_html: { description: 'Store the HTML as fetched or rendered.' },
  enhanced_html: { description: 'Store cleaned HTML (scripts, styles, trackers, ads, cookie banners removed; links absolute).' },
  markdown: { description: 'Store the main content as GitHub-flavoured Markdown.' },
  page_text: { description: 'Store plain text.' },
  links: { description: "Return each page's outgoing links (absolute, in document order, duplicates dropped)." },
};

const POLITENESS_DOCS: Record<string, ParamDoc> = {
  concurrency: {
    description:
      "Pages of this crawl in flight at once, up to CRAWL_JOB_MAX_CONCURRENCY. Each holds one of the account's concurrency slots; a crawl never takes the last one.",
  },
  delay_ms: {
    description: "The least gap (ms) between two of this crawl's requests to one host; unset: the deployment's CRAWL_HOST_MIN_GAP_MS. A larger robots.txt Crawl-delay wins.",
  },
};

const WEBHOOK_DOC: ParamDoc = {
  description:
    `Where to POST the crawl's events: {"url", "events"?: subset of ${WEBHOOK_EVENTS.join(', ')} (default all), "secret"?: 16–256 characters}. ` +
    'Each POST is signed in X-Trawl-Signature: t=<unix s>,v1=<hex HMAC-SHA256 of "<t>.<body>"> with `secret` (set one to verify it); ' +
    'delivered at least once (de-duplicate on its `id`), retried with exponential backoff.',
};

const START_ERRORS: ApiEndpoint['errors'] = [
  { status: 400, codes: [ErrorCode.INVALID_PARAMETER], when: 'a field of the body fails validation, named in the message (nothing is recorded or charged)' },
  { status: 403, codes: [ErrorCode.ACCOUNT_SUSPENDED, ErrorCode.SUBSCRIPTION_EXPIRED], when: 'suspended account or ended subscription' },
  { status: 429, codes: [ErrorCode.CONCURRENCY_LIMIT, ErrorCode.CREDITS_EXHAUSTED], when: "concurrent request limit reached, or the balance does not cover one page's price" },
];
const SUSPENDED = START_ERRORS[1];
const NOT_FOUND = { status: 404, codes: [ErrorCode.NOT_FOUND], when: 'no crawl of this account by that id (another account’s, or expired)' };
const ID = { id: 'The crawl’s (or batch’s) id, as the start answered it.' };

const READ_DOCS: Record<string, ParamDoc> = {
  cursor: { description: 'The `next_cursor` of an earlier answer: what was stored after it.', schema: { pattern: '^\\d{1,18}$' } },
  limit: {
    description: 'Items per answer, 1 to 1000 (default 100 pages, or 1000 errors); an answer of pages also stops at 10 MiB.',
    schema: { type: 'integer', minimum: 1, maximum: 1000, pattern: undefined },
  },
};

export const startCrawlEndpoint: ApiEndpoint = {
  path: '/crawls',
  method: 'post',
  operationId: 'startCrawl',
  summary: 'Start a site crawl: follow links (and sitemaps) from one URL, in the background',
  description:
    'Answers at once (201) with the crawl id; read its status and pages at `GET /crawls/{id}`. A page is charged as it is ' +
    'stored: 1 credit, 10 with `render_js=true`; failed pages, robots.txt-blocked URLs and duplicates cost 0. Starting is ' +
    "refused when the balance does not cover one page; a crawl whose account runs out of credits stops as `credits_exhausted`, its pages kept.",
  params: (limits) => siteCrawlBodySchema(limits.crawlJobs),
  body: true,
  paramDocs: {
    url: { description: 'The start URL: an absolute http(s) URL. Its host, with or without `www.`, is the site.', schema: URL_SCHEMA },
    limit: { description: 'Pages to store at most, the start URL and sitemap URLs included (up to CRAWL_JOB_MAX_PAGES).' },
    max_depth: { description: 'Link hops from the start URL to follow (0: the start URL and the sitemap URLs only).' },
    include_paths: {
      description:
        "Regular expressions (JavaScript, no flags) on a URL's path and query: when given, a URL must match one. At most 100, each ≤ 500 characters; a pattern with nested repetition is refused.",
    },
    exclude_paths: { description: 'Regular expressions on the path and query: a URL matching one is left out (exclude wins over include).' },
    allow_subdomains: { description: "Follow links to other subdomains of the start host's registrable domain (blog.example.com from www.example.com)." },
    allow_external_links: { description: 'Follow links to any host (still bounded by limit and max_depth).' },
    sitemap: {
      description:
        "`include`: the start URL and the site's sitemaps (robots.txt Sitemap lines, else /sitemap.xml; indexes and gzipped sitemaps followed, at most 20); `only`: the sitemaps' URLs alone; `skip`: links only.",
    },
    ignore_query_strings: { description: 'Treat URLs that differ only in their query as one page (the query is dropped).' },
    ignore_robots_txt: {
      description:
        "Also fetch URLs the site's robots.txt disallows for CRAWL_ROBOTS_USER_AGENT, and ignore its Crawl-delay. Honouring the site's terms is then the operator's and the caller's responsibility.",
    },
    ...POLITENESS_DOCS,
    ...PAGE_DOCS,
    webhook: WEBHOOK_DOC,
  },
  response: crawlJobCreatedSchema,
  status: 201,
  errors: START_ERRORS,
};

export const startBatchEndpoint: ApiEndpoint = {
  path: '/batches',
  method: 'post',
  operationId: 'startBatch',
  summary: 'Fetch a list of URLs in the background (no link discovery)',
  description:
    'Answers at once (201) with the batch id; read it at `GET /crawls/{id}` (or `/batches/{id}`). Each page is charged as it ' +
    'is stored: 1 credit, 10 with `render_js=true`; failed pages 0. robots.txt is not consulted: the URLs are the caller’s own list.',
  params: (limits) => batchBodySchema(limits.crawlJobs),
  body: true,
  paramDocs: {
    urls: {
      description: 'The URLs to fetch: absolute http(s) URLs, at most BATCH_MAX_URLS. Duplicates are fetched and charged once.',
      schema: { items: { type: 'string', format: 'uri', maxLength: MAX_URL_LENGTH } },
    },
    ignore_invalid_urls: { description: 'Leave invalid URLs out (listed in the answer’s `invalid_urls`) instead of refusing the batch.' },
    ...POLITENESS_DOCS,
    ...PAGE_DOCS,
    webhook: WEBHOOK_DOC,
  },
  response: crawlJobCreatedSchema,
  status: 201,
  errors: START_ERRORS,
};

export const listCrawlsEndpoint: ApiEndpoint = {
  path: '/crawls',
  operationId: 'listCrawls',
  summary: "The account's queued and running crawls and batches",
  description: 'Free. Finished crawls are not listed; read them by id until they expire.',
  params: noParams,
  paramDocs: {},
  response: crawlJobListSchema,
  errors: [SUSPENDED],
};

export const crawlStatusEndpoint: ApiEndpoint = {
  path: '/crawls/{id}',
  operationId: 'crawlStatus',
  summary: 'A crawl’s status, counts and stored pages, by cursor',
  description:
    'Free, and never refused for concurrency (poll it). Pages come in the order they were stored; follow `next` (or pass ' +
    '`next_cursor` as `cursor`) for the next ones. While the crawl runs, `next` is always set (pages stored later come ' +
    'after it); once it has finished, `next` is null after the last page. `/batches/{id}` answers the same.',
  params: () => crawlReadQuerySchema,
  pathParams: ID,
  paramDocs: READ_DOCS,
  response: crawlJobStatusSchema,
  errors: [{ status: 400, codes: [ErrorCode.INVALID_PARAMETER], when: 'cursor or limit is malformed' }, SUSPENDED, NOT_FOUND],
};

export const crawlErrorsEndpoint: ApiEndpoint = {
  path: '/crawls/{id}/errors',
  operationId: 'crawlErrors',
  summary: 'The URLs of a crawl that failed, and those robots.txt did not allow',
  description: 'Free. Failed URLs and robots.txt-blocked URLs cost nothing. `/batches/{id}/errors` answers the same.',
  params: () => crawlReadQuerySchema,
  pathParams: ID,
  paramDocs: READ_DOCS,
  response: crawlJobErrorsSchema,
  errors: [{ status: 400, codes: [ErrorCode.INVALID_PARAMETER], when: 'cursor or limit is malformed' }, SUSPENDED, NOT_FOUND],
};

export const crawlExportEndpoint: ApiEndpoint = {
  path: '/crawls/{id}/export',
  operationId: 'crawlExport',
  summary: 'Every stored page of a crawl as NDJSON (one page a line), streamed',
  description: 'Free. Each line is one page, as in `pages` of the status. `/batches/{id}/export` answers the same.',
  params: noParams,
  pathParams: ID,
  paramDocs: {},
  response: crawlJobPageSchema,
  mediaType: 'application/x-ndjson',
  errors: [SUSPENDED, NOT_FOUND],
};

export const cancelCrawlEndpoint: ApiEndpoint = {
  path: '/crawls/{id}',
  method: 'delete',
  operationId: 'cancelCrawl',
  summary: 'Cancel a crawl: no URL of it starts from now on; its stored pages stay readable',
  description: 'Free. No URL starts after it; a page already being fetched may still be stored (and charged). `DELETE /batches/{id}` does the same.',
  params: noParams,
  pathParams: ID,
  paramDocs: {},
  response: crawlJobCancelledSchema,
  errors: [SUSPENDED, NOT_FOUND, { status: 409, codes: [ErrorCode.CONFLICT], when: 'the crawl has already finished' }],
};

export const CRAWL_JOB_ENDPOINTS: readonly ApiEndpoint[] = [
  startCrawlEndpoint, startBatchEndpoint, listCrawlsEndpoint, crawlStatusEndpoint, crawlErrorsEndpoint, crawlExportEndpoint, cancelCrawlEndpoint,
];
