/**
 * libs/serp — search providers. Each provider builds the upstream request for a result page (URL, headers,
 * transport) and parses the page it gets back into the `/serp-search` or `/search` shape, with a verdict that tells a
 * real empty result apart from a captcha, consent or block page. Parsers are pure (string in, object out) and never
 * throw. Maps providers (`/serp-maps`) live in ./maps.
 */
import { createBingProvider } from './bing/bing-provider.js';
import { createDuckDuckGoProvider } from './duckduckgo/duckduckgo-provider.js';
import { createGoogleProvider } from './google/google-provider.js';
import { createSearxngProvider } from './searxng/searxng-provider.js';
import type { SearchProvider, SerpVerdict } from './types.js';

export * from './types.js';
export { parseGoogleSerp, parseGoogleSearchPage } from './google/google-provider.js';
export { parseSearxngSerp, parseSearxngSearchPage } from './searxng/searxng-provider.js';
export { parseBingSearchPage, buildBingWebRequest } from './bing/bing-provider.js';
export { parseDuckDuckGoSearchPage, buildDuckDuckGoWebRequest, duckDuckGoRegion } from './duckduckgo/duckduckgo-provider.js';
export { unwrapGoogleLink, normalizeUrl } from './util/urls.js';
export { searchPageFromSerp, buildSearchPage } from './web/search-page.js';
export { isRepeatedPage, repeatedPageReason, looksUnrelated, queryTerms, type RepeatReason } from './web/honest-results.js';

export interface SearchProvidersOptions {
  googleBaseUrl: string;
  bingBaseUrl: string;
  duckduckgoBaseUrl: string;
  searxngBaseUrl?: string;
  /** DuckDuckGo's HTML endpoint takes a form; `post` sends it as a browser does (needs a fetcher that sends bodies). */
  duckduckgoForm?: 'get' | 'post';
}

export function createSearchProviders(opts: SearchProvidersOptions): Record<string, SearchProvider> {
  const providers: Record<string, SearchProvider> = {
    google: createGoogleProvider({ baseUrl: opts.googleBaseUrl }),
    bing: createBingProvider({ baseUrl: opts.bingBaseUrl }),
    duckduckgo: createDuckDuckGoProvider({ baseUrl: opts.duckduckgoBaseUrl, form: opts.duckduckgoForm }),
  };
  if (opts.searxngBaseUrl) providers.searxng = createSearxngProvider({ baseUrl: opts.searxngBaseUrl });
  return providers;
}

const PARSE_ONLY = createSearchProviders({ googleBaseUrl: 'http://127.0.0.1/', bingBaseUrl: 'http://127.0.0.1/', duckduckgoBaseUrl: 'http://127.0.0.1/', searxngBaseUrl: 'http://127.0.0.1/' });

/**
 * The verdict for a page: `ok` when the provider's parser finds results, no_results when the page says so,
 * blocked when the page shows a captcha, consent wall, unusual-traffic notice, anti-bot challenge or rate limit.
 * A page with none of these is `ok` for Google (an unknown layout, flagged `parser: 'none'`) and blocked/'unknown'
 * for the other providers (see detect/page-markers.ts).
 */
export function detectVerdict(provider: string, html: string): SerpVerdict {
  const e = PARSE_ONLY[provider];
  if (!e) return { kind: 'blocked', reason: 'unknown' };
  try {
    if (e.parseSerp) return e.parseSerp(html, { q: '', gl: 'us', hl: 'en', page: 1, num: 10, type: 'search' }).verdict;
    if (e.parseSearchPage) return e.parseSearchPage(html, { query: '', page: 1 }).verdict;
  } catch {
    return { kind: 'blocked', reason: 'unknown' };
  }
  return { kind: 'blocked', reason: 'unknown' };
}
