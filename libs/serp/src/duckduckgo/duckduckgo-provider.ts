/**
 * The DuckDuckGo adapter: the JavaScript-free HTML endpoint over plain HTTP (duckduckgo-request.ts), and a parser
 * for saved pages of the HTML, lite and JavaScript pages (duckduckgo-organic.ts, duckduckgo-features.ts) into the
 * `/search` page object with its verdict and pagination facts.
 */
import { loadDom, type SerpDom } from '../dom/serp-dom.js';
import type { SearchPageParse, SearchProvider, UpstreamResponseMeta, SearchPageParams } from '../types.js';
import { searchPageVerdict } from '../web/page-verdict.js';
import { NO_PAGINATION, buildSearchPage, toSearchResult } from '../web/search-page.js';
import { parseDuckDuckGoOrganic } from './duckduckgo-organic.js';
import { parseDuckDuckGoAnswer, parseDuckDuckGoPagination, parseDuckDuckGoRelated, parseDuckDuckGoSidebar } from './duckduckgo-features.js';
import { buildDuckDuckGoWebRequest, duckDuckGoRegion, type DuckDuckGoProviderOptions } from './duckduckgo-request.js';

export { buildDuckDuckGoWebRequest, duckDuckGoRegion, parseDuckDuckGoOrganic, type DuckDuckGoProviderOptions };

/** A DuckDuckGo result page as the `/search` page object, with its verdict and pagination facts. Never throws. */
export function parseDuckDuckGoSearchPage(body: string, _q: Pick<SearchPageParams, 'page'>, meta?: UpstreamResponseMeta): SearchPageParse {
  let dom: SerpDom;
  try {
    dom = loadDom(body);
  } catch {
    return { verdict: searchPageVerdict('duckduckgo', body, 0, undefined, meta), pagination: NO_PAGINATION };
  }
  const organic = parseDuckDuckGoOrganic(dom);
  const pagination = parseDuckDuckGoPagination(dom, organic.length, organic.first);
  const first = organic[0]?.link;
  const verdict = searchPageVerdict('duckduckgo', body, organic.length, dom.text(), meta, first ? { firstResult: first, markup: dom.source } : undefined);
  if (!organic.length) return { verdict, pagination };
  const page = buildSearchPage({
    search_results: organic.map((r) => toSearchResult(r)),
    related_queries: parseDuckDuckGoRelated(dom),
    sidebar: parseDuckDuckGoSidebar(dom),
    direct_answer: parseDuckDuckGoAnswer(dom),
  });
  return { verdict, page, pagination };
}

export function createDuckDuckGoProvider(opts: DuckDuckGoProviderOptions): SearchProvider {
  return {
    name: 'duckduckgo',
    buildSearchPageRequest: (params) => buildDuckDuckGoWebRequest(opts, params),
    parseSearchPage: (body, params, meta) => parseDuckDuckGoSearchPage(body, params, meta),
  };
}
