/**
 * The Bing adapter (default engine of `/search`): plain-HTTP requests (bing-request.ts) and a parser for the organic
 * results (`li.b_algo`, 2015-2023 markup) plus the blocks around them (bing-features.ts), into the `/search` page
 * object with its verdict and pagination facts.
 */
import {
  attr, closest, findAll, findFirst, hasAnyClass, hasClass, loadDom, textOf, type Element, type SerpDom,
} from '../dom/serp-dom.js';
import type { OrganicResult, SearchPageParse, SearchProvider, Sidebar, UpstreamResponseMeta, SearchPageParams } from '../types.js';
import { splitLeadingDate } from '../util/dates.js';
import { hostOf, normalizeUrl, unwrapBingLink } from '../util/urls.js';
import { fallbackOrganicEntries, type StructuralProfile } from '../google/google-fallback.js';
import { searchPageVerdict } from '../web/page-verdict.js';
import { NO_PAGINATION, buildSearchPage, toSearchResult } from '../web/search-page.js';
import {
  bingTotalResults, parseBingAiAnswer, parseBingDirectAnswer, parseBingLocalResults, parseBingPagination, parseBingQuestions, parseBingRelated, parseBingSidebar,
} from './bing-features.js';
import { bingCount, bingOffset, buildBingWebRequest, type BingProviderOptions } from './bing-request.js';
import { parseBingImageResults } from './bing-images.js';

export { buildBingWebRequest, parseBingRelated, type BingProviderOptions };

const SNIPPET_CLASSES = ['b_lineclamp1', 'b_lineclamp2', 'b_lineclamp3', 'b_lineclamp4', 'b_algoSlug', 'b_paractl', 'b_snippet'];
const NOT_SNIPPET = ['b_deep', 'b_vlist2col', 'b_factrow', 'b_attribution', 'b_title', 'b_suffix'];

/** The element holding the snippet: a snippet class in the caption, a caption `<p>`, then the same in the card. */
function snippetElement(item: Element): Element | null {
  const caption = findFirst(item, (e) => hasClass(e, 'b_caption')) ?? item;
  for (const scope of caption === item ? [item] : [caption, item]) {
    const byClass = findFirst(scope, (e) => hasAnyClass(e, SNIPPET_CLASSES) && !closest(e, (x) => hasAnyClass(x, NOT_SNIPPET), item));
    if (byClass) return byClass;
    const p = findFirst(scope, (e) => e.name === 'p' && !closest(e, (x) => hasAnyClass(x, NOT_SNIPPET), scope));
    if (p) return p;
  }
  return null;
}

function bingSnippet(item: Element): string {
  return textOf(snippetElement(item), (e) => hasClass(e, 'algoSlug_icon'));
}

export type BingOrganicResult = OrganicResult & { source?: string };

/**
 * Result cards: `li.b_algo`, and on Copilot layouts (2026) the rank-1 result promoted into the answer widget as a
 * `div.b_wpt_bl` with the same card template — only when its `<h2>` links through `ck/a?…&u=a1…` to another site
 * (the widget's video, topic-strip and sponsored cards have no such title link).
 */
function resultCards(dom: SerpDom): Element[] {
  const promoted = dom.byClass('b_wpt_bl').filter((card) => {
    const a = findFirst(card, (e) => e.name === 'a' && !!closest(e, (x) => x.name === 'h2', card));
    return !!a && /[?&]u=a1/.test(attr(a, 'href')) && !findFirst(card, (e) => hasAnyClass(e, ['mma_acf_label_container', 'mma_badge_slug']));
  });
  const cards = [...dom.byClass('b_algo'), ...promoted];
  return promoted.length ? cards.sort((a, b) => dom.order(a) - dom.order(b)) : cards;
}

/** Snippet and date: the date is `span.news_dt` in front of the text ("1. Aug. 2026 · …"), else a leading date. */
function snippetAndDate(item: Element): { snippet: string; date?: string } {
  const el = snippetElement(item);
  const dateEl = el && findFirst(el, (e) => hasClass(e, 'news_dt'));
  if (el && dateEl) {
    const date = textOf(dateEl);
    const snippet = textOf(el, (e) => e === dateEl || hasClass(e, 'algoSlug_icon')).replace(/^[\s·|—–-]+/, '');
    return date ? { snippet, date } : { snippet };
  }
  const { date, rest } = splitLeadingDate(bingSnippet(item).replace(/^(\S{6,12})\s·\s/, '$1 · '));
  return date ? { snippet: rest, date } : { snippet: rest };
}

/**
 * The card's title link: the link in (or around) its `h2` (or `h3`, `role=heading` on older cards); on a page whose
 * cards have no heading at all (a build that titles with a styled div), the first link to an outside page whose text
 * is not the URL line.
 */
function titleLink(item: Element, headed: boolean): Element | null {
  const h = findFirst(item, (e) => e.name === 'h2') ?? findFirst(item, (e) => e.name === 'h3' || attr(e, 'role') === 'heading');
  const inHeading = h && (findFirst(h, (e) => e.name === 'a') ?? closest(h, (e) => e.name === 'a'));
  // On a page whose cards have heading titles, a card without one is no result (the cards "People also ask" quotes).
  if (inHeading || headed) return inHeading;
  return findFirst(item, (e) => e.name === 'a' && /^https?:/.test(unwrapBingLink(attr(e, 'href'))) && !closest(e, (x) => x.name === 'cite', item)
    && !!textOf(e) && !/^(https?:\/\/|www\.)\S+$/.test(textOf(e)));
}

/** The parent that most of `els` share (null for none). */
function mostCommonParent(els: Element[]): Element | null {
  const counts = new Map<Element, number>();
  for (const e of els) if (e.parent) counts.set(e.parent as Element, (counts.get(e.parent as Element) ?? 0) + 1);
  let best: Element | null = null;
  for (const [p, n] of counts) if (!best || n > (counts.get(best) ?? 0)) best = p;
  return best;
}

function layoutBingOrganic(dom: SerpDom, offset = 0): BingOrganicResult[] {
  const out: BingOrganicResult[] = [];
  const seen = new Set<string>();
  const cards = resultCards(dom);
  const headed = cards.some((c) => !!findFirst(c, (e) => e.name === 'h2' || e.name === 'h3'));
  // Without headings to tell them apart, the cards "People also ask" quotes are the ones outside the results list:
  // the element most cards are items of.
  const list = headed ? null : mostCommonParent(cards);
  for (const item of cards) {
    if (list && item.parent !== list) continue;
    if (closest(item, (e) => hasAnyClass(e, ['b_ad', 'b_adTop', 'b_adBottom'])) || item.name === 'div' && closest(item, (e) => hasClass(e, 'b_algo') && e !== item)) continue;
    const a = titleLink(item, headed);
    if (!a) continue;
    const link = unwrapBingLink(attr(a, 'href'));
    if (!/^https?:/.test(link) || /^https?:\/\/(www\.)?bing\.com\/(aclick|aclk)\b/i.test(link)) continue;
    const key = normalizeUrl(link);
    if (seen.has(key)) continue;
    seen.add(key);
    const { snippet, date } = snippetAndDate(item);
    const r: BingOrganicResult = { title: textOf(a), link, snippet, position: offset + out.length + 1 };
    if (date) r.date = date;
    // 2023+ markup prints the site name above the title (`.tptt`); older pages only the URL.
    const site = textOf(findFirst(item, (e) => hasClass(e, 'tptt')));
    if (site) r.source = site;
    const deep = findAll(item, (e) => hasClass(e, 'b_deep') || hasClass(e, 'b_vlist2col') && !hasClass(e, 'b_factrow'));
    const sitelinks = deep.flatMap((d) => findAll(d, (e) => e.name === 'a' && !!closest(e, (x) => x.name === 'h3' || hasClass(x, 'deeplink_title'), d)));
    const seenLinks = new Set<string>();
    const sl = sitelinks.map((s) => ({ title: textOf(s), link: unwrapBingLink(attr(s, 'href')) }))
      .filter((s) => s.title && /^https?:/.test(s.link) && !seenLinks.has(s.link) && seenLinks.add(s.link));
    if (sl.length) r.sitelinks = sl;
    out.push(r);
  }
  return out;
}

/** Bing's own endpoints (searches, verticals, ad and click redirects, account pages): never results. */
const BING_OWN_PATH = /^\/(search|images|videos|maps|news|shop|travel|aclk|aclick|ck\/|account|rewards|fd\/|th\b|profile|translator|copilot|chat|settings|sa\/|spotlight|academic|local|alink|\?)/i;

/**
 * Bing pages read by structure when no card of a known layout is found (older `sa_wr`/`sb_tlst` pages, newer
 * builds, renamed classes): a result is an outside link in a heading (h2, or h3 on older pages) whose block shows
 * the URL; links through `ck/a?u=a1…` are unwrapped, Bing's own pages and ad clicks left out.
 */
export const BING_STRUCTURE: StructuralProfile = {
  linkOf: (a) => unwrapBingLink(attr(a, 'href')),
  ownOrAd: (href, link) => {
    const host = hostOf(link);
    if (!/(^|\.)bing\.com$/.test(host)) return /(^|\.)(bingads\.microsoft\.com|doubleclick\.net)$/.test(host);
    const path = link.replace(/^https?:\/\/[^/?#]+/i, '') || '/';
    return BING_OWN_PATH.test(path) || /\/ck\/a\?/.test(href);
  },
  headings: new Set(['h2', 'h3']),
  root: (dom) => dom.byTag('main')[0] ?? dom.byId('b_results') ?? dom.byId('results') ?? dom.byTag('body')[0] ?? null,
};

/**
 * Organic results: the cards of the known layouts (`li.b_algo` and the promoted rank-1 card), on an Images page its
 * images' source pages (bing-images.ts), or, on a page where none is found, the structural reader's results
 * (google/google-fallback.ts with BING_STRUCTURE).
 */
export function parseBingOrganic(dom: SerpDom, offset = 0): BingOrganicResult[] {
  const layout = layoutBingOrganic(dom, offset);
  if (layout.length) return layout;
  const images = parseBingImageResults(dom, offset);
  if (images.length) return images;
  return fallbackOrganicEntries(dom, offset, BING_STRUCTURE).map((e) => e.result);
}

/** The knowledge panel with the local pack attached, or a panel made of the local pack alone. */
function withLocalResults(panel: Sidebar | null, local: ReturnType<typeof parseBingLocalResults>): Sidebar | null {
  if (!local) return panel;
  if (panel) return { ...panel, local_results: local.places };
  return { title: local.heading, type: 'local_results', description: '', attributes: {}, local_results: local.places };
}

/** A Bing result page as the `/search` page object, with its verdict and pagination facts. Never throws. */
export function parseBingSearchPage(body: string, q: Pick<SearchPageParams, 'page' | 'count'>, meta?: UpstreamResponseMeta): SearchPageParse {
  let dom: SerpDom;
  try {
    dom = loadDom(body);
  } catch {
    return { verdict: searchPageVerdict('bing', body, 0, undefined, meta), pagination: NO_PAGINATION };
  }
  const organic = parseBingOrganic(dom);
  const pagination = parseBingPagination(dom, organic.length);
  const offset = pagination.offset ?? bingOffset(q.page, bingCount(q));
  organic.forEach((r, i) => (r.position = offset + i + 1));
  const first = organic[0]?.link;
  const verdict = searchPageVerdict('bing', body, organic.length, dom.text(), meta, first ? { firstResult: first, markup: dom.source } : undefined);
  if (!organic.length) return { verdict, pagination };
  const page = buildSearchPage({
    total_results: bingTotalResults(dom),
    search_results: organic.map(toSearchResult),
    related_queries: parseBingRelated(dom),
    ai_answer: parseBingAiAnswer(dom),
    questions_answers: parseBingQuestions(dom),
    sidebar: withLocalResults(parseBingSidebar(dom), parseBingLocalResults(dom)),
    direct_answer: parseBingDirectAnswer(dom),
  });
  return { verdict, page, pagination };
}

export function createBingProvider(opts: BingProviderOptions): SearchProvider {
  return {
    name: 'bing',
    buildSearchPageRequest: (params) => buildBingWebRequest(opts, params),
    parseSearchPage: (body, params, meta) => parseBingSearchPage(body, params, meta),
  };
}
