/**
 * The DuckDuckGo adapter: the JavaScript-free HTML endpoint `/html/?q=&kl=&s=` over plain HTTP. The parser also
 * reads the JS-rendered `#links` markup (same `.result` / `.result__a` classes), and skips ads (`.result--ad`).
 */
import { DEVICE_PROFILES, acceptLanguage } from '#contracts';
import { pageVerdict, verdictWithoutResults } from '../detect/page-markers.js';
import { attr, findAll, findFirst, hasClass, loadDom, textOf, type SerpDom } from '../dom/serp-dom.js';
import type { OrganicResult, SerpEngine, SerpVerdict, UpstreamRequest, WebQuery, WebSearchPage } from '../types.js';
import { looksLikeDate } from '../util/dates.js';
import { hostOf, unwrapDuckDuckGoLink } from '../util/urls.js';

export interface DuckDuckGoEngineOptions {
  baseUrl: string;
}

/** DuckDuckGo region codes are `<country>-<language>` (e.g. `de-de`, `us-en`); `wt-wt` means no region. */
export function duckDuckGoRegion(cc?: string, lang?: string): string | undefined {
  if (!cc && !lang) return undefined;
  const country = (cc ?? 'wt').toLowerCase();
  const language = (lang ?? (country === 'wt' ? 'wt' : 'en')).toLowerCase().split('-')[0];
  return `${country}-${language}`;
}

export function buildDuckDuckGoWebRequest(opts: DuckDuckGoEngineOptions, q: WebQuery): UpstreamRequest {
  const url = new URL('html/', opts.baseUrl.endsWith('/') ? opts.baseUrl : `${opts.baseUrl}/`);
  url.searchParams.set('q', q.query);
  const kl = duckDuckGoRegion(q.cc, q.setLang);
  if (kl) url.searchParams.set('kl', kl);
  const page = Math.max(q.page, 1);
  // The HTML endpoint shows 30 results on the first page and pages by `s` (offset) afterwards.
  if (page > 1) url.searchParams.set('s', String(30 + (page - 2) * 50));
  const profile = DEVICE_PROFILES[q.device ?? 'desktop'];
  return {
    url: url.toString(),
    headers: { ...profile.headers, 'user-agent': profile.userAgent, 'accept-language': acceptLanguage(q.setLang ?? 'en', q.cc) },
    transport: 'http',
  };
}

export function parseDuckDuckGoOrganic(dom: SerpDom, offset = 0): OrganicResult[] {
  const out: OrganicResult[] = [];
  const seen = new Set<string>();
  for (const a of dom.byClass('result__a')) {
    if (a.name !== 'a') continue;
    let item = a.parent;
    while (item && !(item.type === 'tag' && hasClass(item, 'result'))) item = item.parent;
    if (item && item.type === 'tag' && (hasClass(item, 'result--ad') || hasClass(item, 'result--sponsored') || hasClass(item, 'sponsored'))) continue;
    const link = unwrapDuckDuckGoLink(attr(a, 'href'));
    if (!/^https?:/.test(link) || seen.has(link)) continue;
    seen.add(link);
    const scope = item && item.type === 'tag' ? item : null;
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
    out.push(r);
  }
  return out;
}

export function parseDuckDuckGoWeb(body: string, q: Pick<WebQuery, 'page'>): { verdict: SerpVerdict; page?: WebSearchPage } {
  let dom: SerpDom;
  try {
    dom = loadDom(body);
  } catch {
    return { verdict: verdictWithoutResults('duckduckgo', body) };
  }
  const page = Math.max(q.page, 1);
  const organic = parseDuckDuckGoOrganic(dom, page === 1 ? 0 : 30 + (page - 2) * 50);
  const verdict = pageVerdict('duckduckgo', body, organic.length, dom.text());
  if (!organic.length) return { verdict };
  const related = findAll(dom.root, (e) => e.name === 'a' && !!e.parent && hasClass(e.parent as never, 'related-searches__item'))
    .map((a) => textOf(a)).filter(Boolean);
  return {
    verdict,
    page: {
      total_results: '',
      search_results: organic.map((r) => ({ title: r.title, link: r.link, date: r.date ?? null, snippet: r.snippet, source: hostOf(r.link).replace(/^www\./, '') })),
      related_queries: related,
    },
  };
}

export function createDuckDuckGoEngine(opts: DuckDuckGoEngineOptions): SerpEngine {
  return {
    name: 'duckduckgo',
    buildWebRequest: (q) => buildDuckDuckGoWebRequest(opts, q),
    parseWeb: (body, q) => parseDuckDuckGoWeb(body, q),
  };
}
