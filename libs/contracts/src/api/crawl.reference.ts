/** `GET /crawl` in the API reference (spec §4.4). */
import { ErrorCode } from '../error-codes.js';
import { chunkParamDocs } from './chunks.js';
import { MAX_CRAWL_QUERY_LENGTH, MAX_JSON_SCHEMA_BYTES, MAX_LLM_PROMPT_LENGTH, crawlParamsSchema } from './crawl.js';
import type { ApiEndpoint } from './endpoint-reference.js';
import { crawlResponseSchema } from './responses.js';

export const crawlEndpoint: ApiEndpoint = {
  path: '/crawl',
  operationId: 'crawl',
  summary: 'Fetch one or more given URLs and return their content as Markdown, clean HTML, text or screenshots',
  description:
    'Crawls each URL over plain HTTP (1 credit per successful URL) or in headless Chromium with `render_js=true` ' +
    '(10 credits per successful URL). Failed URLs cost 0 and carry `error`. The worst case (URLs × unit cost) is ' +
    'reserved before any work; the unused part is refunded. With `summary` or `json_schema`/`json_prompt`, each crawled page also ' +
    "goes to the server's LLM, priced by tokens (the worst case reserved too; a failed LLM format costs 0 and carries `summary_error`/`json_error`). " +
    'Use /crawl first; /headful-browser only for sites that block it.',
  params: (limits) => crawlParamsSchema(limits.crawlMaxUrls, limits.pageCacheMaxAgeS),
  paramDocs: {
    urls: {
      description:
        'The URLs to crawl: absolute http(s) URLs (in a query string, one URL or a comma-separated list; encode a comma inside a URL as %2C). Duplicates are crawled and charged once.',
      schema: (limits) => ({ items: { type: 'string', format: 'uri', maxLength: 2048 }, minItems: 1, maxItems: limits.crawlMaxUrls }),
    },
    render_js: { description: 'Render in headless Chromium (runs JavaScript): 10 credits per successful URL instead of 1.' },
    geolocation: {
      description: 'ISO 3166-1 alpha-2 country code: fetch through a proxy of that country, with a matching Accept-Language (URLs fail with PROXY_UNAVAILABLE when none is configured).',
      schema: { pattern: '^[A-Za-z]{2}$', examples: ['us', 'de'] },
    },
    raw_html: { description: 'Return the HTML as fetched or rendered.' },
    enhanced_html: { description: 'Return cleaned HTML (scripts, styles, trackers, ads, cookie banners removed; links absolute).' },
    page_text: { description: 'Return plain text.' },
    markdown: { description: 'Return the main content as GitHub-flavoured Markdown (best for LLMs).' },
    screenshot: { description: 'Return a base64 PNG of the viewport (1366×768); only effective with render_js=true, otherwise ignored (no screenshot, the plain price).' },
    screenshot_full_page: { description: 'With screenshot=true and render_js=true: capture the whole page instead of the viewport. Does not ask for a screenshot by itself.' },
    query: {
      description:
        'Return, per page, the passages most relevant to this text (`chunks`: Markdown cut on headings, paragraphs, lists and tables, ranked with BM25) and the response\'s token total; no extra credits. Set markdown=false and enhanced_html=false to get the chunks alone.',
      schema: { minLength: 1, maxLength: MAX_CRAWL_QUERY_LENGTH },
    },
    chunks_per_page: { ...chunkParamDocs.chunks_per_page, description: `${chunkParamDocs.chunks_per_page.description} Needs query.` },
    max_tokens: { ...chunkParamDocs.max_tokens, description: `${chunkParamDocs.max_tokens.description} Needs query.` },
    summary: {
      description:
        "Return `summary`: the page summarised by the server's LLM (needs LLM_BASE_URL configured; 400 otherwise). Priced by tokens: LLM_CREDITS_PER_1K_TOKENS (default 1) per 1,000, on top of the page's credit.",
    },
    json_schema: {
      description:
        'Return `json`: data extracted from the page by the LLM, valid against this JSON Schema (draft 2020-12 or draft-07; JSON text in a query string). Checked before anything is charged; priced like summary.',
      schema: { maxLength: MAX_JSON_SCHEMA_BYTES },
    },
    json_prompt: {
      description: 'Return `json`: what to extract, in words (alone, or with json_schema). Priced like summary.',
      schema: { minLength: 1, maxLength: MAX_LLM_PROMPT_LENGTH },
    },
    max_age: {
      description:
        'Seconds: accept a copy of each page from the page cache fetched at most this long ago, for the same options (formats, render_js, geolocation, screenshot, query and chunks_per_page, …) and the same URL once normalised; `cache_state` says `hit` or `miss`, `cached_at` when the page was fetched. A hit costs 1 credit whatever the engine. Pages fetched are stored for the next call (0: always fetch, and refresh the stored copy). Absent: the cache is neither read nor written. The largest value is PAGE_CACHE_MAX_AGE_MS in seconds; entries are per account unless the operator set PAGE_CACHE_SCOPE=shared.',
      schema: (limits) => ({ minimum: 0, maximum: limits.pageCacheMaxAgeS, examples: [3600] }),
    },
  },
  response: crawlResponseSchema,
  errors: [
    { status: 400, codes: [ErrorCode.INVALID_PARAMETER], when: 'a parameter fails validation (nothing is charged)' },
    { status: 403, codes: [ErrorCode.ACCOUNT_SUSPENDED, ErrorCode.SUBSCRIPTION_EXPIRED], when: 'suspended account or ended subscription' },
    { status: 429, codes: [ErrorCode.CONCURRENCY_LIMIT, ErrorCode.CREDITS_EXHAUSTED], when: 'concurrent request limit reached, or the balance does not cover URLs × unit cost' },
  ],
};
