/**
 * libs/serp — search-engine adapters. Each engine builds the upstream request (URL, headers, transport) and parses
 * the page it gets back into the `/serp-search` or `/search` shape, with a verdict that tells a real empty result
 * apart from a captcha, consent or block page. Parsers are pure (string in, object out) and never throw.
 */
import { createBingEngine } from './bing/bing-engine.js';
import { createDuckDuckGoEngine } from './duckduckgo/duckduckgo-engine.js';
import { createGoogleEngine } from './google/google-engine.js';
import { createSearxngEngine } from './searxng/searxng-engine.js';
import { parseGoogleSearchPage } from './web/google-search-page.js';
import type { SerpEngine, SerpVerdict } from './types.js';

export * from './types.js';
export { parseGoogleSerp, toWebSearchPage } from './google/google-engine.js';
export { parseBingWeb } from './bing/bing-engine.js';
export { parseDuckDuckGoWeb } from './duckduckgo/duckduckgo-engine.js';
export { parseSearxngSerp, parseSearxngWeb } from './searxng/searxng-engine.js';
export { unwrapGoogleLink, normalizeUrl } from './util/urls.js';
// `/search` page objects (issue 11): parsers, request builders and the honest-result checks.
export { parseBingSearchPage, buildBingWebRequest } from './bing/bing-engine.js';
export { parseDuckDuckGoSearchPage, buildDuckDuckGoWebRequest, duckDuckGoRegion } from './duckduckgo/duckduckgo-engine.js';
export { parseSearxngSearchPage } from './searxng/searxng-engine.js';
export { parseGoogleSearchPage } from './web/google-search-page.js';
export { searchPageFromSerp, buildSearchPage } from './web/search-page.js';
export { isRepeatedPage, repeatedPageReason, looksUnrelated, queryTerms, type RepeatReason } from './web/honest-results.js';

export interface CreateEnginesOptions {
  googleBaseUrl: string;
  bingBaseUrl: string;
  duckduckgoBaseUrl: string;
  searxngBaseUrl?: string;
  /** Google needs JavaScript since 2025; a fixture or self-hosted upstream may serve plain HTML. Default 'render'. */
  googleTransport?: 'http' | 'render';
  /** DuckDuckGo's HTML endpoint takes a form; `post` sends it as a browser does (needs a fetcher that sends bodies). */
  duckduckgoForm?: 'get' | 'post';
}

export function createEngines(opts: CreateEnginesOptions): Record<string, SerpEngine> {
  const engines: Record<string, SerpEngine> = {
    google: { ...createGoogleEngine({ baseUrl: opts.googleBaseUrl, transport: opts.googleTransport }), parseSearchPage: parseGoogleSearchPage },
    bing: createBingEngine({ baseUrl: opts.bingBaseUrl }),
    duckduckgo: createDuckDuckGoEngine({ baseUrl: opts.duckduckgoBaseUrl, form: opts.duckduckgoForm }),
  };
  if (opts.searxngBaseUrl) engines.searxng = createSearxngEngine({ baseUrl: opts.searxngBaseUrl });
  return engines;
}

const PARSE_ONLY = createEngines({ googleBaseUrl: 'http://127.0.0.1/', bingBaseUrl: 'http://127.0.0.1/', duckduckgoBaseUrl: 'http://127.0.0.1/', searxngBaseUrl: 'http://127.0.0.1/' });

/**
 * The verdict for a page: `ok` when the engine's parser finds results, no_results when the engine says so,
 * blocked when the page shows a captcha, consent wall, unusual-traffic notice, anti-bot challenge or rate limit.
 * A page with none of these is `ok` for Google (an unknown layout, flagged `parser: 'none'`) and blocked/'unknown'
 * for the other engines (see detect/page-markers.ts).
 */
export function detectVerdict(engine: string, html: string): SerpVerdict {
  const e = PARSE_ONLY[engine];
  if (!e) return { kind: 'blocked', reason: 'unknown' };
  try {
    if (e.parseSerp) return e.parseSerp(html, { q: '', gl: 'us', hl: 'en', page: 1, num: 10, type: 'search' }).verdict;
    if (e.parseWeb) return e.parseWeb(html, { query: '', page: 1 }).verdict;
  } catch {
    return { kind: 'blocked', reason: 'unknown' };
  }
  return { kind: 'blocked', reason: 'unknown' };
}
