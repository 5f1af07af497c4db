/**
 * Scores our Google and Bing parsers against the corpus's reference parses (serp-parser output): organic results
 * by link, title, snippet F1 and order (see match.ts), and related searches by query text.
 *
 * The reference is machine output. One known fault is corrected for: its mobile parser lists text ads as organic
 * results. A reference result whose link appears on the page only inside an ad block is reported as
 * `refAds` and left out of the total, instead of being counted as a miss.
 */
import { parseBingOrganic, parseBingRelated } from '#serp/bing/bing-provider.js';
import { attr, closest, hasAnyClass, loadDom, type SerpDom } from '#serp/dom/serp-dom.js';
import { parseRelatedSearches } from '#serp/google/google-features.js';
import { readGoogleOrganic } from '#serp/google/google-results.js';
import { normalizeUrl, unwrapBingLink, unwrapGoogleLink } from '#serp/util/urls.js';
import { readPage, type ReferenceCase } from './corpus.js';
import { matchResults, normTitle, type MatchReport, type ReferenceResult } from './match.js';

export interface ReferenceScore {
  source: string;
  name: string;
  organic: MatchReport;
  refAds: number;
  related: { total: number; matched: number };
}

interface ReferenceJson {
  organic?: ReferenceResult[];
  relatedKeywords?: Array<{ keyword: string }>;
  error?: string;
}

const AD_IDS = new Set(['tads', 'tadsb', 'bottomads', 'tvcap']);

function onlyInAds(dom: SerpDom, url: string, unwrap: (h: string) => string): boolean {
  const key = normalizeUrl(url);
  const anchors = dom.byTag('a').filter((a) => {
    const href = unwrap(attr(a, 'href'));
    return href && normalizeUrl(href) === key;
  });
  if (!anchors.length) return false;
  return anchors.every((a) => !!closest(a, (e) => AD_IDS.has(e.attribs.id ?? '') || e.attribs['data-text-ad'] !== undefined
    || hasAnyClass(e, ['uEierd', 'b_ad', 'ads-ad'])));
}

export function scoreReferenceCase(c: ReferenceCase, engine: 'google' | 'bing'): ReferenceScore | null {
  const ref = JSON.parse(readPage(c.reference)) as ReferenceJson;
  if (!ref.organic) return null; // the reference parser crashed on this page: nothing to compare with
  const dom = loadDom(readPage(c.html));
  const ours = engine === 'google' ? readGoogleOrganic(dom).results : parseBingOrganic(dom);
  const unwrap = engine === 'google' ? unwrapGoogleLink : unwrapBingLink;
  const refs = ref.organic.filter((r) => !onlyInAds(dom, r.url, unwrap));
  const organic = matchResults(ours, refs);
  const relatedRef = (ref.relatedKeywords ?? []).map((k) => normTitle(k.keyword));
  const relatedOurs = new Set((engine === 'google' ? (parseRelatedSearches(dom) ?? []).map((r) => r.query) : parseBingRelated(dom)).map(normTitle));
  return {
    source: c.source,
    name: c.name,
    organic,
    refAds: ref.organic.length - refs.length,
    related: { total: relatedRef.length, matched: relatedRef.filter((k) => relatedOurs.has(k)).length },
  };
}

export interface SourceTotals {
  source: string;
  pages: number;
  total: number;
  matched: number;
  refAds: number;
  relatedTotal: number;
  relatedMatched: number;
}

export function totalsBySource(scores: ReferenceScore[]): SourceTotals[] {
  const by = new Map<string, SourceTotals>();
  for (const s of scores) {
    const t = by.get(s.source) ?? { source: s.source, pages: 0, total: 0, matched: 0, refAds: 0, relatedTotal: 0, relatedMatched: 0 };
    t.pages++;
    t.total += s.organic.total;
    t.matched += s.organic.matched;
    t.refAds += s.refAds;
    t.relatedTotal += s.related.total;
    t.relatedMatched += s.related.matched;
    by.set(s.source, t);
  }
  return [...by.values()];
}
