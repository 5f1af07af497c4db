/**
 * The links of a fetched page a crawl may follow, from anchors another step already parsed (the page pipeline's
 * parse, not a second one): resolved, normalised to seen-set keys, nofollow left out, bounded in number.
 */
import { urlKey, type UrlKeyOptions } from './url-key.js';

/** Distinct links taken from one page at most: a page of a million anchors costs no more than this. */
export const MAX_LINKS_PER_PAGE = 10_000;

/**
 * The base URL relative links of a page resolve against: its `<base href>` (resolved against the page URL) when
 * that is an http(s) URL, else the page URL (after redirects).
 */
export function documentBase(pageUrl: string, baseHref?: string | null): string {
  if (baseHref) {
    try {
      const base = new URL(baseHref.trim(), pageUrl);
      if (base.protocol === 'http:' || base.protocol === 'https:') return base.href;
    } catch {
      // an unusable <base href> is ignored, as browsers do
    }
  }
  return pageUrl;
}

const hasRel = (rel: string | undefined, token: string): boolean =>
  rel !== undefined && rel.toLowerCase().split(/\s+/).includes(token);

/**
 * The anchors of an HTML page worth following: href of <a>/<area> resolved against the base (<base href> honoured:
 * pass `documentBase(...)`), rel=nofollow ones left out, and the page's rel=canonical (pass it with
 * `rel: 'canonical'`) kept; for pages parsed elsewhere too (takes hrefs, not HTML). Returns seen-set keys (urlKey),
 * once each, in document order, at most MAX_LINKS_PER_PAGE; javascript:, mailto:, tel:, data: and malformed hrefs
 * are dropped.
 */
export function followableLinks(hrefs: Array<{ href: string; rel?: string }>, base: string, options: UrlKeyOptions): string[] {
  const out = new Set<string>();
  for (const { href, rel } of hrefs) {
    if (out.size >= MAX_LINKS_PER_PAGE) break;
    if (hasRel(rel, 'nofollow')) continue;
    const key = urlKey(href, base, options);
    if (key !== null) out.add(key);
  }
  return [...out];
}

/**
 * The page's canonical key from its `<link rel="canonical" href>` (resolved against the base), or null when it has
 * none or an unusable one. A page whose canonical key differs from its own is a duplicate: the crawl stores the
 * canonical page instead, once (the semantics are spelled out in bench/support/crawl-site.ts).
 */
export function canonicalKey(href: string | null | undefined, base: string, options: UrlKeyOptions): string | null {
  return href ? urlKey(href.trim(), base, options) : null;
}
