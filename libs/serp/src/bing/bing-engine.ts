/**
 * The Bing adapter (default engine of `/search`): `/search?q=&setlang=&cc=&first=` over plain HTTP, and a parser for
 * organic results (`li.b_algo`, 2015-2023 markup), deep links, related searches and the result count.
 */
import { DEVICE_PROFILES, acceptLanguage } from '#contracts';
import { pageVerdict, verdictWithoutResults } from '../detect/page-markers.js';
import {
  attr, closest, findAll, findFirst, hasAnyClass, hasClass, loadDom, textOf, type Element, type SerpDom,
} from '../dom/serp-dom.js';
import type { OrganicResult, SerpEngine, SerpVerdict, UpstreamRequest, WebQuery, WebSearchPage } from '../types.js';
import { splitLeadingDate } from '../util/dates.js';
import { hostOf, unwrapBingLink } from '../util/urls.js';

export interface BingEngineOptions {
  baseUrl: string;
}

export function buildBingWebRequest(opts: BingEngineOptions, q: WebQuery): UpstreamRequest {
  const url = new URL('search', opts.baseUrl.endsWith('/') ? opts.baseUrl : `${opts.baseUrl}/`);
  url.searchParams.set('q', q.query);
  if (q.setLang) url.searchParams.set('setlang', q.setLang);
  if (q.cc) url.searchParams.set('cc', q.cc.toUpperCase());
  const page = Math.max(q.page, 1);
  if (page > 1) url.searchParams.set('first', String((page - 1) * 10 + 1));
  const profile = DEVICE_PROFILES[q.device ?? 'desktop'];
  return {
    url: url.toString(),
    headers: { ...profile.headers, 'user-agent': profile.userAgent, 'accept-language': acceptLanguage(q.setLang ?? 'en', q.cc) },
    transport: 'http',
  };
}

const SNIPPET_CLASSES = ['b_lineclamp1', 'b_lineclamp2', 'b_lineclamp3', 'b_lineclamp4', 'b_algoSlug', 'b_paractl', 'b_snippet'];

function bingSnippet(item: Element): string {
  const caption = findFirst(item, (e) => hasClass(e, 'b_caption')) ?? item;
  const byClass = findFirst(caption, (e) => hasAnyClass(e, SNIPPET_CLASSES));
  if (byClass) return textOf(byClass);
  const p = findFirst(caption, (e) => e.name === 'p' && !closest(e, (x) => hasAnyClass(x, ['b_deep', 'b_vlist2col', 'b_factrow']), caption));
  return textOf(p);
}

export function parseBingOrganic(dom: SerpDom, offset = 0): OrganicResult[] {
  const out: OrganicResult[] = [];
  for (const item of dom.byClass('b_algo')) {
    if (closest(item, (e) => hasClass(e, 'b_ad') || hasClass(e, 'b_adTop')) || item.name === 'div' && closest(item, (e) => hasClass(e, 'b_algo') && e !== item)) continue;
    const h2 = findFirst(item, (e) => e.name === 'h2');
    const a = h2 && (findFirst(h2, (e) => e.name === 'a') ?? closest(h2, (e) => e.name === 'a'));
    if (!a) continue;
    const link = unwrapBingLink(attr(a, 'href'));
    if (!/^https?:/.test(link)) continue;
    const { date, rest } = splitLeadingDate(bingSnippet(item).replace(/^(\S{6,12})\s·\s/, '$1 · '));
    const r: OrganicResult = { title: textOf(a), link, snippet: rest, position: offset + out.length + 1 };
    if (date) r.date = date;
    const deep = findAll(item, (e) => hasClass(e, 'b_deep') || hasClass(e, 'b_vlist2col') && !hasClass(e, 'b_factrow'));
    const sitelinks = deep.flatMap((d) => findAll(d, (e) => e.name === 'a' && !!closest(e, (x) => x.name === 'h3' || hasClass(x, 'deeplink_title'), d)));
    const seen = new Set<string>();
    const sl = sitelinks.map((s) => ({ title: textOf(s), link: unwrapBingLink(attr(s, 'href')) }))
      .filter((s) => s.title && /^https?:/.test(s.link) && !seen.has(s.link) && seen.add(s.link));
    if (sl.length) r.sitelinks = sl;
    out.push(r);
  }
  return out;
}

export function parseBingRelated(dom: SerpDom): string[] {
  const out: string[] = [];
  const boxes = [...dom.byClass('b_rs'), ...dom.byClass('b_rrsr'), ...(dom.byId('brsv3') ? [dom.byId('brsv3') as Element] : [])];
  for (const box of boxes) {
    for (const a of findAll(box, (e) => e.name === 'a')) {
      const t = textOf(a);
      if (t && /[?&]q=/.test(attr(a, 'href')) && !out.includes(t)) out.push(t);
    }
  }
  return out;
}

export function parseBingWeb(body: string, q: Pick<WebQuery, 'page'>): { verdict: SerpVerdict; page?: WebSearchPage } {
  let dom: SerpDom;
  try {
    dom = loadDom(body);
  } catch {
    return { verdict: verdictWithoutResults('bing', body) };
  }
  const organic = parseBingOrganic(dom, (Math.max(q.page, 1) - 1) * 10);
  const verdict = pageVerdict('bing', body, organic.length, dom.text());
  if (!organic.length) return { verdict };
  const count = textOf(dom.byClass('sb_count')[0]);
  const total = /([\d][\d.,\s\u00a0\u202f]*)/.exec(count)?.[1].replace(/[^\d]/g, '') ?? '';
  return {
    verdict,
    page: {
      total_results: total,
      search_results: organic.map((r) => ({ title: r.title, link: r.link, date: r.date ?? null, snippet: r.snippet, source: hostOf(r.link).replace(/^www\./, '') })),
      related_queries: parseBingRelated(dom),
    },
  };
}

export function createBingEngine(opts: BingEngineOptions): SerpEngine {
  return {
    name: 'bing',
    buildWebRequest: (q) => buildBingWebRequest(opts, q),
    parseWeb: (body, q) => parseBingWeb(body, q),
  };
}
