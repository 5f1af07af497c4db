/**
 * The SearXNG adapter, for users who run their own instance: `/search?q=&format=json&language=&pageno=` (the JSON
 * output format must be enabled in the instance's settings.yml). Maps SearXNG's JSON to both response shapes.
 */
import { DEVICE_PROFILES } from '#contracts';
import { blockReason } from '../detect/page-markers.js';
import type {
  AnswerBox, KnowledgeGraph, NewsResult, OrganicResult, SearchPageParse, SearchProvider, SerpPageParams, SerpSearchResponse, SerpVerdict,
  UpstreamRequest, SearchPageParams, ImageResult, VerticalItem,
} from '../types.js';
import { hostOf } from '../util/urls.js';
import { searchPageFromSerp } from '../web/search-page.js';

export interface SearxngProviderOptions {
  baseUrl: string;
}

interface SearxResult {
  url?: string;
  title?: string;
  content?: string;
  publishedDate?: string | null;
  engine?: string;
  img_src?: string;
  thumbnail_src?: string;
  thumbnail?: string;
  resolution?: string;
  category?: string;
}

interface SearxResponse {
  query?: string;
  number_of_results?: number;
  results?: SearxResult[];
  answers?: Array<string | { answer?: string; url?: string }>;
  suggestions?: string[];
  corrections?: string[];
  infoboxes?: Array<{ infobox?: string; content?: string; img_src?: string; urls?: Array<{ title?: string; url?: string }>; attributes?: Array<{ label?: string; value?: string }> }>;
  unresponsive_engines?: unknown[];
}

const CATEGORY: Record<SerpPageParams['type'], string> = {
  search: 'general', news: 'news', images: 'images', places: 'map', shopping: 'shopping',
};

function buildUrl(base: string, params: Record<string, string | undefined>): string {
  const url = new URL('search', base.endsWith('/') ? base : `${base}/`);
  url.searchParams.set('format', 'json');
  for (const [k, v] of Object.entries(params)) if (v) url.searchParams.set(k, v);
  return url.toString();
}

function headers(device: SerpPageParams['device']): Record<string, string> {
  return { 'user-agent': DEVICE_PROFILES[device ?? 'desktop'].userAgent, accept: 'application/json' };
}

export function buildSearxngSerpRequest(opts: SearxngProviderOptions, q: SerpPageParams): UpstreamRequest {
  const language = q.gl ? `${q.hl}-${q.gl.toUpperCase()}` : q.hl;
  const url = buildUrl(opts.baseUrl, {
    q: q.q, language, pageno: String(Math.max(q.page, 1)), categories: CATEGORY[q.type], time_range: timeRange(q.tbs),
  });
  return { url, headers: headers(q.device) };
}

export function buildSearxngWebRequest(opts: SearxngProviderOptions, q: SearchPageParams): UpstreamRequest {
  const language = q.setLang ? (q.cc ? `${q.setLang}-${q.cc.toUpperCase()}` : q.setLang) : undefined;
  return { url: buildUrl(opts.baseUrl, { q: q.query, language, pageno: String(Math.max(q.page, 1)), time_range: timeRange(q.tbs) }), headers: headers(q.device) };
}

/** Google's `tbs=qdr:d` freshness maps onto SearXNG's `time_range` (no hour granularity: hour → day). */
function timeRange(tbs?: string): string | undefined {
  const m = /qdr:([hdwmy])/.exec(tbs ?? '');
  if (!m) return undefined;
  return { h: 'day', d: 'day', w: 'week', m: 'month', y: 'year' }[m[1]];
}

function decode(body: string): SearxResponse | null {
  try {
    const v = JSON.parse(body) as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as SearxResponse) : null;
  } catch {
    return null;
  }
}

function verdictFor(data: SearxResponse | null, body: string, count: number): SerpVerdict {
  if (count > 0) return { kind: 'ok' };
  if (!data) return { kind: 'blocked', reason: blockReason(body) ?? 'unknown' };
  if (Array.isArray(data.results)) {
    // Every engine of the instance failed (rate-limited, captcha): that is not "no results".
    const failed = (data.unresponsive_engines ?? []).length;
    return failed > 0 ? { kind: 'blocked', reason: 'rate_limited' } : { kind: 'no_results' };
  }
  return { kind: 'blocked', reason: 'unknown' };
}

function answerOf(data: SearxResponse): AnswerBox | undefined {
  const a = data.answers?.[0];
  if (!a) return undefined;
  // A SearXNG answer is a direct answer: it is its own snippet (the contract wants both strings).
  if (typeof a === 'string') return a ? { answer: a, snippet: a } : undefined;
  return a.answer ? { answer: a.answer, snippet: a.answer, ...(a.url ? { link: a.url } : {}) } : undefined;
}

function infoboxOf(data: SearxResponse): KnowledgeGraph | undefined {
  const box = data.infoboxes?.[0];
  if (!box?.infobox) return undefined;
  const kg: KnowledgeGraph = { title: box.infobox, type: '', description: box.content ?? '', attributes: {} };
  for (const at of box.attributes ?? []) if (at.label && at.value) kg.attributes[at.label] = at.value;
  if (box.img_src) kg.imageUrl = box.img_src;
  const site = box.urls?.find((u) => /official|website/i.test(u.title ?? ''));
  if (site?.url) kg.website = site.url;
  return kg;
}

export function parseSearxngSerp(body: string, q: Pick<SerpPageParams, 'type' | 'page' | 'num'>): { verdict: SerpVerdict; result?: SerpSearchResponse } {
  const data = decode(body);
  const results = (data?.results ?? []).filter((r) => typeof r.url === 'string' && /^https?:/.test(r.url));
  const offset = (Math.max(q.page, 1) - 1) * Math.max(q.num, 1);
  const items: VerticalItem[] = results.map((r, i): VerticalItem => {
    const position = offset + i + 1;
    const link = r.url as string;
    if (q.type === 'images') {
      const img: ImageResult = { title: r.title ?? '', imageUrl: r.img_src ?? link, source: hostOf(link).replace(/^www\./, ''), domain: hostOf(link), link, position };
      const thumb = r.thumbnail_src ?? r.thumbnail;
      if (thumb) img.thumbnailUrl = thumb;
      const dims = /(\d+)\s*x\s*(\d+)/.exec(r.resolution ?? '');
      if (dims) Object.assign(img, { imageWidth: Number(dims[1]), imageHeight: Number(dims[2]) });
      return img;
    }
    if (q.type === 'news') {
      const news: NewsResult = { title: r.title ?? '', link, snippet: r.content ?? '', date: r.publishedDate ?? '', source: hostOf(link).replace(/^www\./, ''), position };
      if (r.thumbnail) news.imageUrl = r.thumbnail;
      return news;
    }
    const o: OrganicResult = { title: r.title ?? '', link, snippet: r.content ?? '', position };
    if (r.publishedDate) o.date = r.publishedDate;
    return o;
  });
  const verdict = verdictFor(data, body, items.length);
  if (verdict.kind !== 'ok' || !data) return { verdict };
  const result: SerpSearchResponse = { serp_search_results: items.slice(0, Math.max(q.num, 1)) };
  const answer = answerOf(data);
  if (answer) result.answerBox = answer;
  const kg = infoboxOf(data);
  if (kg) result.knowledgeGraph = kg;
  if (data.suggestions?.length) result.relatedSearches = data.suggestions.map((query) => ({ query }));
  if (typeof data.number_of_results === 'number' && data.number_of_results > 0) result.searchInformation = { totalResults: data.number_of_results };
  return { verdict, result };
}

/**
 * The `/search` page object from the JSON API. The API reports neither the offset nor a next page: a page with
 * results may have a successor (the gateway's repeat check catches an instance that serves page 1 again).
 */
export function parseSearxngSearchPage(body: string, q: Pick<SearchPageParams, 'page'>): SearchPageParse {
  const { verdict, result } = parseSearxngSerp(body, { type: 'search', page: q.page, num: 100 });
  const pagination = { offset: null, hasNext: !!result?.serp_search_results.length };
  return result ? { verdict, page: searchPageFromSerp(result), pagination } : { verdict, pagination };
}

export function createSearxngProvider(opts: SearxngProviderOptions): SearchProvider {
  return {
    name: 'searxng',
    buildSerpRequest: (params) => buildSearxngSerpRequest(opts, params),
    parseSerp: (body, params) => parseSearxngSerp(body, params),
    buildSearchPageRequest: (params) => buildSearxngWebRequest(opts, params),
    parseSearchPage: (body, params) => parseSearxngSearchPage(body, params),
  };
}
