/**
 * The links of a `/map` answer, pure: candidates from every source merged in a fixed order (so the answer does not
 * depend on which source answered first), kept when in scope, keyed once each (the first title and description a
 * source knows wins), then ranked by the `search` words — a stable sort, so equal scores keep the order found.
 */
import type { MapLink } from '#contracts';
import { inScope, urlKey, type CrawlScope, type UrlKeyOptions } from '#frontier';

export interface MapCandidate {
  url: string;
  title?: string;
  description?: string;
}

const clean = (text: string | undefined): string | undefined => {
  const value = text?.replace(/\s+/g, ' ').trim();
  return value ? value : undefined;
};

/** At most `max` distinct in-scope links, as their keys (normalised, fetchable URLs), in the order given. */
export function mergeLinks(candidates: Iterable<MapCandidate>, scope: CrawlScope, keys: UrlKeyOptions, max: number): MapLink[] {
  const links = new Map<string, MapLink>();
  for (const candidate of candidates) {
    const key = urlKey(candidate.url, undefined, keys);
    if (!key) continue;
    const title = clean(candidate.title);
    const description = clean(candidate.description);
    const known = links.get(key);
    if (known) {
      if (!known.title && title) known.title = title;
      if (!known.description && description) known.description = description;
      continue;
    }
    if (links.size >= max || !inScope(key, scope).ok) continue;
    links.set(key, { url: key, ...(title ? { title } : {}), ...(description ? { description } : {}) });
  }
  return [...links.values()];
}

/** The distinct lower-case words of a search. */
export function searchWords(search: string | undefined): string[] {
  return [...new Set((search ?? '').toLowerCase().split(/\s+/).filter(Boolean))];
}

/** How many of the words a link's address (decoded) or title contains. */
function score(link: MapLink, words: string[]): number {
  let address = link.url;
  try {
    address = decodeURI(link.url);
  } catch {
    // a malformed escape: match the address as written
  }
  const haystack = `${address}\n${link.title ?? ''}`.toLowerCase();
  return words.filter((word) => haystack.includes(word)).length;
}

/** Links matching more of the search words first; without words, the order found. */
export function rankLinks(links: MapLink[], search: string | undefined): MapLink[] {
  const words = searchWords(search);
  if (words.length === 0) return links;
  return links
    .map((link, i) => ({ link, i, score: score(link, words) }))
    .sort((a, b) => b.score - a.score || a.i - b.i)
    .map(({ link }) => link);
}
