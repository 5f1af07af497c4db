/** `GET /serp-search` in the API reference (spec §4.2). */
import { ErrorCode } from '../error-codes.js';
import { SERP_TYPES } from '../jobs.js';
import { serpSearchParamsSchema } from './serp-search.js';
import type { ApiEndpoint } from './endpoint-reference.js';
import { serpSearchResponseSchema } from './responses.js';

export const serpSearchEndpoint: ApiEndpoint = {
  path: '/serp-search',
  operationId: 'serpSearch',
  summary: 'Structured search-engine results: organic results, knowledge graph, people-also-ask, related searches, answer box; news, images, places and shopping verticals',
  description:
    '10 credits per request when the engine answered (a genuine "no results" page included); 0 when the engine failed or ' +
    'kept blocking us (502). Use it for structured SERP data (ranks, SEO, research); to read the pages themselves, pass ' +
    'their links to /crawl.',
  params: () => serpSearchParamsSchema,
  paramDocs: {
    q: { description: 'The search query (trimmed before its length is checked).', schema: { minLength: 1, maxLength: 2048 } },
    gl: { description: 'Country of the search, ISO 3166-1 alpha-2.', schema: { default: 'us', pattern: '^[A-Za-z]{2}$' } },
    hl: { description: 'Result language, an IETF language tag such as en, de or pt-BR.', schema: { pattern: '^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8}){0,3}$' } },
    tbs: {
      description: 'Freshness filter: qdr:h past hour, qdr:d past day, qdr:w past week, qdr:m past month, qdr:y past year.',
      schema: { enum: ['qdr:h', 'qdr:d', 'qdr:w', 'qdr:m', 'qdr:y'] },
    },
    page: { description: 'Result page, 1-indexed.' },
    num: { description: 'Results per page, 1 to 100.' },
    type: { description: 'Vertical: search (web), news, images, places or shopping.', schema: { enum: [...SERP_TYPES], default: 'search' } },
  },
  response: serpSearchResponseSchema,
  errors: [
    { status: 400, codes: [ErrorCode.INVALID_PARAMETER], when: 'a parameter fails validation, e.g. missing q (nothing is charged)' },
    { status: 402, codes: [ErrorCode.INSUFFICIENT_CREDITS], when: 'the balance does not cover 10 credits' },
    { status: 403, codes: [ErrorCode.ACCOUNT_SUSPENDED, ErrorCode.SUBSCRIPTION_EXPIRED], when: 'suspended account or ended subscription' },
    { status: 429, codes: [ErrorCode.CONCURRENCY_LIMIT], when: 'concurrent request limit reached' },
    { status: 500, codes: [ErrorCode.UPSTREAM_BLOCKED, ErrorCode.UPSTREAM_FAILED], when: 'the engine kept answering with a captcha/block page, or failed (0 credits)' },
  ],
};
