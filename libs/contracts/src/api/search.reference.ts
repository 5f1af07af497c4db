/** `GET /search` in the API reference (spec §4.1). */
import { ErrorCode } from '../error-codes.js';
import { chunkParamDocs } from './chunks.js';
import type { ApiEndpoint } from './endpoint-reference.js';
import { searchResponseSchema } from './responses.js';
import { MAX_QUERY_LENGTH, MAX_SEARCH_COUNT, MAX_SEARCH_PAGES, SEARCH_DEVICES, searchParamsSchema } from './search.js';

const block = (name: string) => ({ description: `Include the ${name} block on each page when the engine shows it (false removes it).` });
const format = (what: string) => ({
  description: `Return ${what}: of each crawled result with auto_crawling=true, otherwise of the search result page itself (in page_content).`,
});

export const searchEndpoint: ApiEndpoint = {
  path: '/search',
  operationId: 'search',
  summary: 'Web search for LLM/RAG: result pages from the configured engine, optionally with every result crawled into Markdown, HTML or text',
  description:
    '10 credits per result page fetched, plus 1 per result crawled successfully with `auto_crawling=true`. A page the ' +
    'engine blocked or failed costs 0, and so does a result whose crawl failed (it carries `error`). The worst case ' +
    '(`max_pages × 10`, or `max_pages × (10 + 50)` with auto-crawling) is reserved first; the unused part is refunded. ' +
    'Prefer /search to read what the web says about a query (results and their content in one call); /serp-search for ' +
    'structured search-engine data (ranks, verticals); /crawl for URLs you already have.',
  params: () => searchParamsSchema,
  paramDocs: {
    query: { description: 'The search query (trimmed before its length is checked).', schema: { minLength: 1, maxLength: MAX_QUERY_LENGTH } },
    max_pages: { description: `Result pages to fetch, in order, 1 to ${MAX_SEARCH_PAGES}; stops early when the engine shows no next page.` },
    setLang: {
      description: 'Language of the results, a code such as en, de or pt-BR (Bing setlang and market, DuckDuckGo region, Accept-Language).',
      schema: { pattern: '^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8}){0,3}$' },
    },
    cc: { description: 'Country of the results, ISO 3166-1 alpha-2 (Bing mkt or cc, DuckDuckGo kl).', schema: { pattern: '^[A-Za-z]{2}$' } },
    geolocation: {
      description:
        'Fetch the result pages (and auto-crawls) through a proxy of this ISO 3166-1 alpha-2 country (none serves it: 500 `PROXY_UNAVAILABLE`, nothing charged), or `random`: a country picked among those the configured proxies name, or, with none, the usual route (direct on a fresh install). The response\'s `egress` says which.',
      schema: { examples: ['us', 'de', 'random'] },
    },
    device: { description: 'The device the engine sees (user agent and client hints), so the layout it serves.', schema: { enum: [...SEARCH_DEVICES], default: 'desktop' } },
    ai_answer: block('ai_answer (generative answer with its sources)'),
    questions_answers: block('questions_answers (people also ask)'),
    related_queries: block('related_queries'),
    sidebar: block('sidebar (knowledge panel, local results)'),
    direct_answer: block('direct_answer (answer box, instant answer)'),
    raw_html: format('raw HTML'),
    enhanced_html: format('cleaned HTML'),
    page_text: format('plain text'),
    markdown: format('main-content Markdown (page_markdown)'),
    auto_crawling: {
      description:
        'Crawl every result (plain HTTP, at most 50 per page) and attach its content in the asked formats, its metadata and status_code; 1 credit per result crawled successfully. Without a format flag results carry only metadata and status_code.',
    },
    count: { description: `Results per page, 1 to ${MAX_SEARCH_COUNT}: a suggestion sent to engines that take it (Bing count); others ignore it.` },
    chunks_per_page: {
      ...chunkParamDocs.chunks_per_page,
      description: `Give each crawled result \`chunks\`: its passages most relevant to the query (Markdown cut on structure, ranked with BM25), at most this many; no extra credits. Needs auto_crawling=true; setting either this or max_tokens asks for chunks.`,
    },
    max_tokens: { ...chunkParamDocs.max_tokens, description: `${chunkParamDocs.max_tokens.description} Needs auto_crawling=true.` },
  },
  response: searchResponseSchema,
  errors: [
    { status: 400, codes: [ErrorCode.INVALID_PARAMETER], when: 'a parameter fails validation, e.g. missing query (nothing is charged)' },
    { status: 403, codes: [ErrorCode.ACCOUNT_SUSPENDED, ErrorCode.SUBSCRIPTION_EXPIRED], when: 'suspended account or ended subscription' },
    { status: 429, codes: [ErrorCode.CONCURRENCY_LIMIT, ErrorCode.CREDITS_EXHAUSTED], when: 'concurrent request limit reached, or the balance does not cover the worst case' },
    { status: 500, codes: [ErrorCode.UPSTREAM_BLOCKED, ErrorCode.UPSTREAM_FAILED], when: 'the first result page was blocked or failed (0 credits); a later one ends pagination and is reported in page_errors' },
    { status: 500, codes: [ErrorCode.PROXY_UNAVAILABLE], when: 'no proxy serves the geolocation country asked for (nothing fetched, 0 credits)' },
  ],
};
