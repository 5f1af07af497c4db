/**
 * Organic results as the API returns them, from the three Google readers: the layout reader (google-organic.ts,
 * results titled by headings), the headingless reader (google-headingless.ts, the same results found by the shape
 * of their links when the page has no heading titles) and the structural reader (google-fallback.ts).
 */
import { attr, type SerpDom } from '../dom/serp-dom.js';
import type { OrganicResult, SerpParser } from '../types.js';
import { normalizeUrl } from '../util/urls.js';
import { fallbackOrganicEntries, isOwnOrAd } from './google-fallback.js';
import { headinglessEntries } from './google-headingless.js';
import { layoutOrganicEntries, resultLink } from './google-organic.js';

/** Distinct outside pages the document links to, besides `known` (no tree walk: one pass over the links). */
function otherTargets(dom: SerpDom, known: Set<string>): number {
  const seen = new Set<string>();
  for (const a of dom.byTag('a')) {
    const href = attr(a, 'href');
    if (!href) continue;
    const link = resultLink(a);
    if (!/^https?:\/\//i.test(link) || isOwnOrAd(href, link)) continue;
    const key = normalizeUrl(link);
    if (!known.has(key)) seen.add(key);
  }
  return seen.size;
}

/**
 * Organic results as the API returns them: the layout reader's — or, on a page where no result is titled by a
 * heading, the headingless reader's — completed by the fallback reader when they found none, or clearly fewer than
 * the result blocks the page shows (at least 3 more, and as many more as they found: carousels and tweet cards on a
 * known page must not pull in the fallback). Merged results keep page order; `parser` says whether the page needed
 * a reader other than the layout reader ('fallback') or gave nothing to any ('none').
 */
export function readGoogleOrganic(dom: SerpDom, offset = 0): { results: OrganicResult[]; parser?: SerpParser } {
  const headed = layoutOrganicEntries(dom, offset);
  const layout = headed.length ? headed : headinglessEntries(dom, offset);
  const parser: SerpParser | undefined = headed.length ? undefined : 'fallback';
  const known = new Set(layout.map((e) => normalizeUrl(e.result.link)));
  // Cheap bound first: the fallback can only add pages the page links to and the layout reader did not take.
  if (layout.length && otherTargets(dom, known) < Math.max(3, layout.length)) {
    return parser ? { results: layout.map((e) => e.result), parser } : { results: layout.map((e) => e.result) };
  }
  const fallback = fallbackOrganicEntries(dom, offset);
  const missing = fallback.filter((e) => e.showsUrl && !known.has(normalizeUrl(e.result.link)));
  const useFallback = layout.length === 0 ? fallback.length > 0 : missing.length >= 3 && missing.length >= layout.length;
  if (!useFallback) return { results: layout.map((e) => e.result), parser: layout.length ? parser : 'none' };
  const merged = [...layout, ...(layout.length ? missing : fallback)].sort((a, b) => dom.order(a.anchor) - dom.order(b.anchor));
  return {
    results: merged.map((e, i) => ({ ...e.result, position: offset + i + 1 })),
    parser: 'fallback',
  };
}
