/** `GET /headful-browser` in the API reference (spec §4.5). */
import { ErrorCode } from '../error-codes.js';
import type { ApiEndpoint } from './endpoint-reference.js';
import { HEADFUL_OUTPUT_FORMATS, headfulBrowserParamsSchema } from './headful-browser.js';
import { headfulBrowserResponseSchema } from './responses.js';

export const headfulBrowserEndpoint: ApiEndpoint = {
  path: '/headful-browser',
  operationId: 'headfulBrowser',
  summary: 'Load URLs in a real headed Chromium behind rotating residential proxies, for sites that block /crawl',
  description:
    '50 credits per URL that loaded unblocked; 0 for a blocked or failed URL (it carries `error`, and `blocked: true` ' +
    'when every attempt was blocked). The worst case (URLs × 50) is reserved first; `credits_remaining` is the balance ' +
    'after the request. Try /crawl first (1 or 10 credits per URL); use /headful-browser only for sites that block it.',
  params: (limits) => headfulBrowserParamsSchema(limits.headfulMaxUrls),
  paramDocs: {
    urls: {
      description: 'The URLs to load: absolute http(s) URLs (in a query string, one URL or a comma-separated list). Duplicates are loaded and charged once.',
      schema: (limits) => ({ items: { type: 'string', format: 'uri', maxLength: 2048 }, minItems: 1, maxItems: limits.headfulMaxUrls }),
    },
    country: {
      description:
        "ISO 3166-1 alpha-2 country of the residential proxy, and the browser's locale, timezone and Accept-Language. Not given and no proxy serves `us`: the browser goes direct (`egress.via: direct` on each result). Given and no proxy serves it: 500 `PROXY_UNAVAILABLE`, nothing charged.",
      schema: { default: 'us', pattern: '^[A-Za-z]{2}$' },
    },
    output_format: { description: 'The one format each page is returned in.', schema: { enum: [...HEADFUL_OUTPUT_FORMATS], default: 'markdown' } },
    screenshot: { description: 'Also capture a full-page PNG, returned as a signed link that expires.' },
  },
  response: headfulBrowserResponseSchema,
  errors: [
    { status: 400, codes: [ErrorCode.INVALID_PARAMETER], when: 'a parameter fails validation (nothing is charged)' },
    { status: 403, codes: [ErrorCode.ACCOUNT_SUSPENDED, ErrorCode.SUBSCRIPTION_EXPIRED], when: 'suspended account or ended subscription' },
    { status: 429, codes: [ErrorCode.CONCURRENCY_LIMIT, ErrorCode.CREDITS_EXHAUSTED], when: 'concurrent request limit reached, or the balance does not cover URLs × 50' },
    {
      status: 500,
      codes: [ErrorCode.HEADFUL_UNAVAILABLE, ErrorCode.PROXY_UNAVAILABLE],
      when: 'the headful browser service is unavailable (nothing charged): no headful worker is alive, its browser or display cannot start (HEADFUL_UNAVAILABLE), or no residential proxy serves the country asked for (PROXY_UNAVAILABLE)',
    },
  ],
};
