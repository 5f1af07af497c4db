/**
 * DuckDuckGo HTML-endpoint requests (UPSTREAMS.md B): `html/` with `q`, `b`, `kl` (region) on page 1; later pages
 * repeat the previous page's next-page form (`s`, `dc`, `nextParams`, `v`, `o`, `api`, `vqd`) — DuckDuckGo reads a
 * page-2 request without the page-1 `vqd` as a bot signal, so the gateway passes `SearchPagination.nextParams` back
 * as `SearchPageParams.nextParams`. Without them the offsets are derived (s=10 for page 2, +15 after, dc=s+1).
 * GET by default (what worker-http sends today); `form: 'post'` sends the form as a browser and SearXNG do, and
 * needs a fetcher that sends `UpstreamRequest.body`. No results-per-page parameter exists: `count` is ignored.
 * Freshness is `df`.
 */
import { DEVICE_PROFILES, acceptLanguage, primaryLanguage } from '#contracts';
import type { UpstreamRequest, SearchPageParams } from '../types.js';

export interface DuckDuckGoProviderOptions {
  baseUrl: string;
  form?: 'get' | 'post';
}

/**
 * DuckDuckGo's regions (`kl`), `<country>-<language>`, from its region menu. A country with several languages lists
 * them all; the first is its default. `uk` is Great Britain, `xa` the Arab countries, `wt-wt` no region.
 */
const REGIONS: Record<string, string[]> = {
  ar: ['es'], at: ['de'], au: ['en'], be: ['fr', 'nl'], bg: ['bg'], br: ['pt'], ca: ['en', 'fr'], ch: ['de', 'fr', 'it'],
  cl: ['es'], cn: ['zh'], co: ['es'], cz: ['cs'], de: ['de'], dk: ['da'], ee: ['et'], es: ['es', 'ca'], fi: ['fi'],
  fr: ['fr'], gr: ['el'], hk: ['tzh'], hr: ['hr'], hu: ['hu'], id: ['id', 'en'], ie: ['en'], il: ['he'], in: ['en'],
  it: ['it'], jp: ['jp'], kr: ['kr'], lt: ['lt'], lv: ['lv'], mx: ['es'], my: ['ms', 'en'], nl: ['nl'], no: ['no'],
  nz: ['en'], pe: ['es'], ph: ['en', 'tl'], pk: ['en'], pl: ['pl'], pt: ['pt'], ro: ['ro'], ru: ['ru'], se: ['sv'],
  sg: ['en'], sk: ['sk'], sl: ['sl'], th: ['th'], tr: ['tr'], tw: ['tzh'], ua: ['uk'], uk: ['en'], us: ['en', 'es'],
  vn: ['vi'], xa: ['ar', 'en'], za: ['en'],
};
const COUNTRY_ALIASES: Record<string, string> = { gb: 'uk', si: 'sl', ae: 'xa', sa: 'xa', eg: 'xa', qa: 'xa', kw: 'xa' };
const LANGUAGE_ALIASES: Record<string, string> = { ja: 'jp', ko: 'kr', zh: 'tzh' };

/** `kl` for a country and language: the country's region in that language when it has one, else its default. */
export function duckDuckGoRegion(cc?: string, lang?: string): string {
  if (!cc) return 'wt-wt';
  const country = COUNTRY_ALIASES[cc.toLowerCase()] ?? cc.toLowerCase();
  const langs = REGIONS[country];
  if (!langs) return 'wt-wt';
  const l = lang?.toLowerCase().split(/[-_]/)[0];
  const wanted = l && (langs.includes(l) ? l : langs.find((x) => x === LANGUAGE_ALIASES[l]));
  return `${country}-${wanted || langs[0]}`;
}

/** Offsets DuckDuckGo's own next-page forms use (SearXNG duckduckgo.py): page 2 starts at 10, then +15. */
export function duckDuckGoOffset(page: number): number {
  return page <= 1 ? 0 : 10 + (page - 2) * 15;
}

export function buildDuckDuckGoWebRequest(opts: DuckDuckGoProviderOptions, q: SearchPageParams): UpstreamRequest {
  const base = opts.baseUrl.endsWith('/') ? opts.baseUrl : `${opts.baseUrl}/`;
  const url = new URL('html/', base);
  const page = Math.max(q.page, 1);
  const [lang, region] = (q.setLang?.toLowerCase().split(/[-_]/) ?? []) as Array<string | undefined>;
  // `setLang=pt-BR` without `cc` names the market too.
  const cc = q.cc?.toUpperCase() ?? (region && /^[a-z]{2}$/.test(region) ? region.toUpperCase() : undefined);
  const form = new URLSearchParams();
  if (page === 1) {
    form.set('q', q.query);
    form.set('b', '');
  } else if (q.nextParams && Object.keys(q.nextParams).length) {
    for (const [k, v] of Object.entries(q.nextParams)) form.set(k, v);
    form.set('q', q.query);
  } else {
    const s = duckDuckGoOffset(page);
    for (const [k, v] of Object.entries({ q: q.query, s: String(s), nextParams: '', v: 'l', o: 'json', dc: String(s + 1), api: 'd.js' })) form.set(k, v);
  }
  if (!form.get('kl')) form.set('kl', duckDuckGoRegion(cc, lang));
  // Freshness: `df` d, w, m or y (its finest is the day, so the past hour is the past day).
  if (q.tbs) form.set('df', q.tbs === 'qdr:h' ? 'd' : q.tbs.slice(4));
  const profile = DEVICE_PROFILES[q.device ?? 'desktop'];
  const headers: Record<string, string> = {
    ...profile.headers,
    'user-agent': profile.userAgent,
    'accept-language': acceptLanguage(lang ?? (cc ? primaryLanguage(cc) : 'en'), cc),
    referer: new URL('/', base).toString(),
    'sec-fetch-site': 'same-origin',
  };
  if (opts.form === 'post') {
    return {
      url: url.toString(), method: 'POST', body: form.toString(),
      headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' }, browserTls: true,
    };
  }
  url.search = form.toString();
  return { url: url.toString(), method: 'GET', headers, browserTls: true };
}
