/** `GET /headful-browser` in the API reference (spec §4.5). */
import { ErrorCode } from '../error-codes.js';
import type { ApiEndpoint } from './endpoint-reference.js';
import { HEADFUL_OUTPUT_FORMATS, headfulBrowserParamsSchema, type ResidentialCoverage } from './headful-browser.js';
import { headfulBrowserResponseSchema } from './responses.js';

/** The reference describes the parameters' shape; which countries a deployment serves is checked at request time. */
const ANY_COUNTRY: ResidentialCoverage = { serves: () => true, describe: () => 'any' };

export const headfulBrowserEndpoint: ApiEndpoint = {
  path: '/headful-browser',
  operationId: 'headfulBrowser',
  summary: 'Load URLs in a real headed Chromium behind rotating residential proxies, for sites that block /crawl',
  description:
    '50 credits per URL that loaded unblocked; 0 for a blocked or failed URL (it carries `error`, and `blocked: true` ' +
    'when every attempt was blocked). The worst case (URLs × 50) is reserved first; `credits_remaining` is the balance ' +
    'after the request. Try /crawl first (1 or 10 credits per URL); use /headful-browser only for sites that block it.',
  params: (limits) => headfulBrowserParamsSchema(limits.headfulMaxUrls, ANY_COUNTRY),
  paramDocs: {
    urls: {
      description: 'The URLs to load: absolute http(s) URLs (in a query string, one URL or a comma-separated list). Duplicates are loaded and charged once.',
      schema: (limits) => ({ items: { type: 'string', format: 'uri', maxLength: 2048 }, minItems: 1, maxItems: limits.headfulMaxUrls }),
    },
    country: {
      description:
        "ISO 3166-1 alpha-2 country of the residential proxy, and the browser's locale, timezone and Accept-Language. 400 when no configured residential proxy serves it.",
      schema: { default: 'us', pattern: '^[A-Za-z]{2}$' },
    },
    output_format: { description: 'The one format each page is returned in.', schema: { enum: [...HEADFUL_OUTPUT_FORMATS], default: 'markdown' } },
    screenshot: { description: 'Also capture a full-page PNG, returned as a signed link that expires.' },
  },
  response: headfulBrowserResponseSchema,
  errors: [
    { status: 400, codes: [ErrorCode.INVALID_PARAMETER], when: 'a parameter fails validation, including a country no residential proxy serves (nothing is charged)' },
    { status: 403, codes: [ErrorCode.ACCOUNT_SUSPENDED, ErrorCode.SUBSCRIPTION_EXPIRED], when: 'suspended account or ended subscription' },
    { status: 429, codes: [ErrorCode.CONCURRENCY_LIMIT, ErrorCode.CREDITS_EXHAUSTED], when: 'concurrent request limit reached, or the balance does not cover URLs × 50' },
    { status: 500, codes: [ErrorCode.HEADFUL_UNAVAILABLE], when: 'no headful worker is alive, or its browser or display cannot start (nothing charged)' },
  ],
};
