/**
 * The DuckDuckGo adapter: the JavaScript-free HTML endpoint over plain HTTP (duckduckgo-request.ts). The parser also
 * reads the JS-rendered `#links` markup (same `.result` / `.result__a` classes), skips ads (`.result--ad`, `y.js`
 * links), and returns the `/search` page object with its verdict and pagination facts.
 */
import { attr, findFirst, hasClass, loadDom, textOf, type Element, type SerpDom } from '../dom/serp-dom.js';
import type { OrganicResult, ParsedSearchPage, SerpEngine, UpstreamResponseMeta, WebQuery } from '../types.js';
import { looksLikeDate } from '../util/dates.js';
import { unwrapDuckDuckGoLink } from '../util/urls.js';
import { searchPageVerdict } from '../web/page-verdict.js';
import { NO_PAGINATION, buildSearchPage, toLegacyWebPage, toSearchResult } from '../web/search-page.js';
import { parseDuckDuckGoAnswer, parseDuckDuckGoPagination, parseDuckDuckGoRelated, parseDuckDuckGoSidebar } from './duckduckgo-features.js';
import { buildDuckDuckGoWebRequest, duckDuckGoRegion, type DuckDuckGoEngineOptions } from './duckduckgo-request.js';

export { buildDuckDuckGoWebRequest, duckDuckGoRegion, type DuckDuckGoEngineOptions };

const AD_CLASSES = ['result--ad', 'result--sponsored', 'sponsored'];

/** Organic results, and the element of the first one (its id carries the result index on JavaScript pages). */
export function parseDuckDuckGoOrganic(dom: SerpDom, offset = 0): OrganicResult[] & { first?: Element | null } {
  const out: OrganicResult[] & { first?: Element | null } = [];
  const seen = new Set<string>();
  for (const a of dom.byClass('result__a')) {
    if (a.name !== 'a') continue;
    let item = a.parent;
    while (item && !(item.type === 'tag' && hasClass(item, 'result'))) item = item.parent;
    const scope = item && item.type === 'tag' ? item : null;
    if (scope && AD_CLASSES.some((c) => hasClass(scope, c))) continue;
    const href = attr(a, 'href');
    if (/duckduckgo\.com\/y\.js\?/.test(href)) continue; // ad click link
    const link = unwrapDuckDuckGoLink(href);
    if (!/^https?:/.test(link) || seen.has(link)) continue;
    seen.add(link);
    const snippetEl = scope && findFirst(scope, (e) => hasClass(e, 'result__snippet'));
    const dateEl = snippetEl && findFirst(snippetEl, (e) => hasClass(e, 'result__date'));
    const r: OrganicResult = {
      title: textOf(a, (e) => hasClass(e, 'result__check__tt')),
      link,
      snippet: textOf(snippetEl, (e) => e === dateEl),
      position: offset + out.length + 1,
    };
    const date = textOf(dateEl);
    if (date && looksLikeDate(date)) r.date = date;
    if (!out.length) out.first = scope;
    out.push(r);
  }
  return out;
}

/** A DuckDuckGo result page as the `/search` page object, with its verdict and pagination facts. Never throws. */
export function parseDuckDuckGoSearchPage(body: string, _q: Pick<WebQuery, 'page'>, meta?: UpstreamResponseMeta): ParsedSearchPage {
  let dom: SerpDom;
  try {
    dom = loadDom(body);
  } catch {
    return { verdict: searchPageVerdict('duckduckgo', body, 0, undefined, meta), pagination: NO_PAGINATION };
  }
  const organic = parseDuckDuckGoOrganic(dom);
  const pagination = parseDuckDuckGoPagination(dom, organic.length, organic.first);
  const verdict = searchPageVerdict('duckduckgo', body, organic.length, dom.text(), meta);
  if (!organic.length) return { verdict, pagination };
  const page = buildSearchPage({
    search_results: organic.map((r) => toSearchResult(r)),
    related_queries: parseDuckDuckGoRelated(dom),
    sidebar: parseDuckDuckGoSidebar(dom),
    direct_answer: parseDuckDuckGoAnswer(dom),
  });
  return { verdict, page, pagination };
}

/** The older `WebSearchPage` shape, for `SerpEngine.parseWeb` callers. */
export function parseDuckDuckGoWeb(body: string, q: Pick<WebQuery, 'page'>) {
  return toLegacyWebPage(parseDuckDuckGoSearchPage(body, q));
}

export function createDuckDuckGoEngine(opts: DuckDuckGoEngineOptions): SerpEngine {
  return {
    name: 'duckduckgo',
    buildWebRequest: (q) => buildDuckDuckGoWebRequest(opts, q),
    parseWeb: (body, q) => parseDuckDuckGoWeb(body, q),
    parseSearchPage: (body, q, meta) => parseDuckDuckGoSearchPage(body, q, meta),
  };
}
