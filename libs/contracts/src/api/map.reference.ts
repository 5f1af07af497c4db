/** `POST /map` in the API reference: a site's URLs, fast, without their content. */
import { ErrorCode } from '../error-codes.js';
import { MAX_URL_LENGTH } from './crawl.js';
import { mapResponseSchema } from './crawl-job-responses.js';
import { mapBodySchema } from './crawl-jobs.js';
import type { ApiEndpoint } from './endpoint-reference.js';

export const mapEndpoint: ApiEndpoint = {
  path: '/map',
  method: 'post',
  operationId: 'map',
  summary: "A site's URLs, fast and without their content: its sitemaps, the start page's links, optionally a web search",
  description:
    'Reads robots.txt for its Sitemap lines (else /sitemap.xml; sitemap indexes and gzipped sitemaps followed, at most ' +
    "20 sitemaps), the start page's links and title, and with `use_search` Trawl's own web search (`site:` the host), " +
    'which titles and describes what it finds. 2 credits, plus 10 when the web search page was fetched; 2 (+ 10) are ' +
    'reserved first. A call that found nothing because the start page failed costs 0.',
  params: (limits) => mapBodySchema(limits.mapMaxLinks),
  body: true,
  paramDocs: {
    url: { description: 'The site: an absolute http(s) URL, its start page. Its host, with or without `www.`, is the site.', schema: { format: 'uri', maxLength: MAX_URL_LENGTH } },
    search: {
      description:
        'Words: URLs whose address or title contains them come first (the more words, the earlier), the others follow in the order found. With use_search, also sent to the web search.',
    },
    sitemap: { description: "`include`: the sitemaps and the start page's links; `only`: the sitemaps' URLs alone; `skip`: no sitemaps." },
    include_subdomains: { description: "Keep URLs on other subdomains of the start host's registrable domain (blog.example.com for www.example.com)." },
    ignore_query_strings: { description: 'Drop the query of every URL (URLs that differ only in their query become one).' },
    limit: { description: 'The most URLs to return (up to MAP_MAX_LINKS).' },
    use_search: {
      description:
        "Also ask Trawl's web search (SEARCH_ENGINE) for `site:<host> <search>`: up to 50 more URLs, titled and described by the engine. 10 credits more, charged only when its result page was fetched; not with sitemap=only.",
    },
  },
  response: mapResponseSchema,
  errors: [
    { status: 400, codes: [ErrorCode.INVALID_PARAMETER], when: 'a field of the body fails validation, named in the message (nothing is charged)' },
    { status: 403, codes: [ErrorCode.ACCOUNT_SUSPENDED, ErrorCode.SUBSCRIPTION_EXPIRED], when: 'suspended account or ended subscription' },
    { status: 429, codes: [ErrorCode.CONCURRENCY_LIMIT, ErrorCode.CREDITS_EXHAUSTED], when: 'concurrent request limit reached, or the balance does not cover 2 (12 with use_search)' },
    { status: 500, codes: [ErrorCode.UPSTREAM_FAILED], when: 'the start page could not be fetched and no other source found a URL (nothing charged)' },
  ],
};
