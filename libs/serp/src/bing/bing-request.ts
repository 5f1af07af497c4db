/**
 * Bing `/search` requests (UPSTREAMS.md A "Request form"): `q`, `setlang`, market as `mkt=<lang>-<CC>` when both a
 * language and a country are known (`cc` alone otherwise; SerpApi documents the two as mutually exclusive),
 * `first`/`count` for paging, `pq` and `FORM=PERE…` as a browser's pagination links send them (without `pq` page 4
 * sometimes repeats page 1), `filters` for freshness. User agent (device), Accept-Language and market always name the
 * same locale.
 */
import { DEVICE_PROFILES, acceptLanguage, primaryLanguage, type Freshness } from '#contracts';
import type { UpstreamRequest, SearchPageParams } from '../types.js';

export interface BingProviderOptions {
  baseUrl: string;
}

/** Bing takes 1..50 results per page ("only a suggestion"); 10 when not asked. */
export function bingCount(q: Pick<SearchPageParams, 'count'>): number {
  return q.count && Number.isFinite(q.count) ? Math.min(Math.max(Math.trunc(q.count), 1), 50) : 10;
}

/** 0-based offset of page `page` (1-based) at `count` results per page. */
export function bingOffset(page: number, count: number): number {
  return (Math.max(page, 1) - 1) * count;
}

const DAY_MS = 86_400_000;

/**
 * Bing's freshness filter (`filters=ex1:"ez…"`): ez1 the past day (its finest, so also the past hour), ez2 the week,
 * ez3 the month; a year is a custom range, ez5_<first day>_<last day> counted in days since 1970-01-01.
 */
export function bingFreshness(tbs: Freshness, now: number): string {
  const today = Math.floor(now / DAY_MS);
  const filter = { 'qdr:h': 'ez1', 'qdr:d': 'ez1', 'qdr:w': 'ez2', 'qdr:m': 'ez3', 'qdr:y': `ez5_${today - 365}_${today}` }[tbs];
  return `ex1:"${filter}"`;
}

export function buildBingWebRequest(opts: BingProviderOptions, q: SearchPageParams, now = Date.now()): UpstreamRequest {
  const url = new URL('search', opts.baseUrl.endsWith('/') ? opts.baseUrl : `${opts.baseUrl}/`);
  const [lang, region] = (q.setLang?.toLowerCase().split(/[-_]/) ?? []) as Array<string | undefined>;
  // `setLang=pt-BR` without `cc` names the market too.
  const cc = q.cc?.toUpperCase() ?? (region && /^[a-z]{2}$/.test(region) ? region.toUpperCase() : undefined);
  const page = Math.max(q.page, 1);
  const count = bingCount(q);
  url.searchParams.set('q', q.query);
  if (lang) url.searchParams.set('setlang', lang);
  if (lang && cc) url.searchParams.set('mkt', `${lang}-${cc}`);
  else if (cc) url.searchParams.set('cc', cc);
  if (q.count !== undefined) url.searchParams.set('count', String(count));
  if (q.tbs) url.searchParams.set('filters', bingFreshness(q.tbs, now));
  if (page > 1) {
    url.searchParams.set('pq', q.query);
    url.searchParams.set('first', String(bingOffset(page, count) + 1));
    url.searchParams.set('FORM', page === 2 ? 'PERE' : `PERE${page - 2}`);
  }
  const profile = DEVICE_PROFILES[q.device ?? 'desktop'];
  return {
    url: url.toString(),
    method: 'GET',
    headers: {
      ...profile.headers,
      'user-agent': profile.userAgent,
      'accept-language': acceptLanguage(lang ?? (cc ? primaryLanguage(cc) : 'en'), cc),
    },
  };
}
