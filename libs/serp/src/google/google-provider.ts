/**
 * The Google adapter: builds `/search` requests (locale from gl/hl, paging, freshness, vertical) and turns a result
 * page into the `/serp-search` body or a `/search` page. Whether the page is rendered or fetched plainly is a routing
 * fact of the contracts (`searchEngineNeeds`, from GOOGLE_TRANSPORT), not of the request built here.
 */
import { DEVICE_PROFILES, acceptLanguage } from '#contracts';
import { attr, loadDom, type SerpDom } from '../dom/serp-dom.js';
import { blockReason, pageVerdict, verdictWithoutResults } from '../detect/page-markers.js';
import type {
  SearchPageParams, SearchPageParse, SearchProvider, SerpPageParams, SerpSearchResponse, SerpVerdict, UpstreamRequest, UpstreamResponseMeta,
} from '../types.js';
import { searchPageFromSerp } from '../web/search-page.js';
import {
  parseAnswerBox, parseKnowledgeGraph, parsePeopleAlsoAsk, parseRelatedSearches, parseTopStories, parseTotalResults,
} from './google-features.js';
import { readGoogleOrganic } from './google-results.js';
import { parseGoogleLocalPack, parseGoogleVertical } from './google-verticals.js';

const VERTICAL_PARAM: Record<SerpPageParams['type'], Record<string, string>> = {
  search: {},
  news: { tbm: 'nws' },
  images: { tbm: 'isch' },
  places: { tbm: 'lcl' },
  shopping: { tbm: 'shop' },
};

export interface GoogleProviderOptions {
  baseUrl: string;
}

function buildUrl(base: string, path: string, params: Record<string, string | number | undefined>): string {
  const url = new URL(path, base.endsWith('/') ? base : `${base}/`);
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== '') url.searchParams.set(k, String(v));
  return url.toString();
}

function headersFor(device: SerpPageParams['device'], language: string, country?: string): Record<string, string> {
  const profile = DEVICE_PROFILES[device ?? 'desktop'];
  return { ...profile.headers, 'user-agent': profile.userAgent, 'accept-language': acceptLanguage(language, country) };
}

export function buildGoogleSerpRequest(opts: GoogleProviderOptions, q: SerpPageParams): UpstreamRequest {
  const num = Math.min(Math.max(q.num, 1), 100);
  const page = Math.max(q.page, 1);
  const url = buildUrl(opts.baseUrl, 'search', {
    q: q.q,
    gl: q.gl.toLowerCase(),
    hl: q.hl,
    num,
    start: (page - 1) * num || undefined,
    tbs: q.tbs,
    ...VERTICAL_PARAM[q.type],
  });
  return { url, headers: headersFor(q.device, q.hl, q.gl), browserTls: true };
}

export function buildGoogleWebRequest(opts: GoogleProviderOptions, q: SearchPageParams): UpstreamRequest {
  const page = Math.max(q.page, 1);
  const url = buildUrl(opts.baseUrl, 'search', {
    q: q.query,
    hl: q.setLang,
    gl: q.cc?.toLowerCase(),
    start: (page - 1) * 10 || undefined,
    tbs: q.tbs,
  });
  return { url, headers: headersFor(q.device, q.setLang ?? 'en', q.cc), browserTls: true };
}

/**
 * True when the page's search box searches images: Google's forms carry the vertical as a hidden field (`tbm=isch`;
 * `udm=2` since 2024).
 */
function searchesImages(dom: SerpDom): boolean {
  return dom.byTag('input').some((i) => (attr(i, 'name') === 'tbm' && attr(i, 'value') === 'isch') || (attr(i, 'name') === 'udm' && attr(i, 'value') === '2'));
}

export function parseGoogleSerp(body: string, q: Pick<SerpPageParams, 'type' | 'page' | 'num'>): {
  verdict: SerpVerdict;
  result?: SerpSearchResponse;
} {
  // A body without markup (empty, JSON, a truncated transfer) is no result page to read.
  if (!/<[a-z][a-z0-9-]*[\s/>]/i.test(body)) return { verdict: { kind: 'blocked', reason: blockReason(body) ?? 'unknown' } };
  let dom;
  try {
    dom = loadDom(body);
  } catch {
    return { verdict: verdictWithoutResults('google', body) };
  }
  const offset = (Math.max(q.page, 1) - 1) * Math.max(q.num, 1);
  // An Images page read as a web search (a saved page, a link followed from one) is read as what it is.
  const type = q.type === 'search' && searchesImages(dom) ? 'images' : q.type;
  if (type !== 'search') {
    const items = parseGoogleVertical(dom, type, offset);
    const verdict = pageVerdict('google', body, items.length, dom.text());
    if (!items.length) return verdict.kind === 'ok' ? { verdict, result: { serp_search_results: [], parser: 'none' } } : { verdict };
    const result: SerpSearchResponse = { serp_search_results: items };
    const info = parseTotalResults(dom);
    if (info) result.searchInformation = info;
    return { verdict, result };
  }
  const organic = readGoogleOrganic(dom, offset);
  const result: SerpSearchResponse = { serp_search_results: organic.results };
  const kg = parseKnowledgeGraph(dom);
  if (kg) result.knowledgeGraph = kg;
  const answerBox = parseAnswerBox(dom);
  if (answerBox) result.answerBox = answerBox;
  const paa = parsePeopleAlsoAsk(dom);
  if (paa) result.peopleAlsoAsk = paa;
  const related = parseRelatedSearches(dom);
  if (related) result.relatedSearches = related;
  const stories = parseTopStories(dom);
  if (stories) result.topStories = stories;
  const places = parseGoogleLocalPack(dom);
  if (places) result.places = places;
  const info = parseTotalResults(dom);
  if (info) result.searchInformation = info;
  const found = result.serp_search_results.length + (kg ? 1 : 0) + (answerBox ? 1 : 0);
  const first = organic.results[0]?.link;
  const verdict = pageVerdict('google', body, found, dom.text(), first ? { firstResult: first, markup: dom.source } : undefined);
  if (organic.parser) result.parser = organic.parser;
  // An ordinary page without results (unknown layout, not a block) still gets a body, flagged `parser: 'none'`.
  return found || verdict.kind === 'ok' ? { verdict, result } : { verdict };
}

/** A `/search` page from Google: the `/serp-search` result mapped onto the page object, plus the pager's "next" link. */
export function parseGoogleSearchPage(body: string, params: Pick<SearchPageParams, 'page'>, meta?: UpstreamResponseMeta): SearchPageParse {
  const { verdict, result } = parseGoogleSerp(body, { type: 'search', page: params.page, num: 10 });
  // Google prints no result range on its pages, so the offset stays unknown (null).
  const pagination = { offset: null, hasNext: /id=["']?pnnext\b|aria-label=["']Next page["']/.test(body) };
  if (meta?.status === 429 || (meta?.finalUrl && /\/sorry\//.test(meta.finalUrl))) return { verdict: { kind: 'blocked', reason: 'unusual_traffic' }, pagination };
  return result ? { verdict, page: searchPageFromSerp(result), pagination } : { verdict, pagination };
}

export function createGoogleProvider(opts: GoogleProviderOptions): SearchProvider {
  return {
    name: 'google',
    buildSerpRequest: (params) => buildGoogleSerpRequest(opts, params),
    parseSerp: (body, params) => parseGoogleSerp(body, params),
    buildSearchPageRequest: (params) => buildGoogleWebRequest(opts, params),
    parseSearchPage: (body, params, meta) => parseGoogleSearchPage(body, params, meta),
  };
}
