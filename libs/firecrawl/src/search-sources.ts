/**
 * Firecrawl's search `sources` (`web`, `news`, `images`, as strings or `{type}`) and the news and image items of its
 * answer, from the items of Trawl's `/serp-search` verticals (Serper's shapes: `link` is Firecrawl's `url`).
 */
import type { ImageResult, NewsResult } from '#contracts';

export const SEARCH_SOURCES = ['web', 'news', 'images'] as const;
export type SearchSource = (typeof SEARCH_SOURCES)[number];

/**
 * The sources asked for, each once (default: web). A source this server does not know (a client's own, such as
 * firecrawl-mcp's `alexandria`) is ignored, as Firecrawl ignores it; a list naming none it knows is refused rather
 * than answered empty.
 */
export function searchSources(sources: Array<string | { type: string }> | undefined): SearchSource[] | { path: string; message: string } {
  if (sources === undefined) return ['web'];
  const names = new Set(sources.map((s) => (typeof s === 'string' ? s : s.type)));
  const known = SEARCH_SOURCES.filter((s) => names.has(s));
  if (!known.length) return { path: 'sources', message: `must name at least one of ${SEARCH_SOURCES.join(', ')} (a source of a client's own is ignored)` };
  return known;
}

export interface NewsItem {
  title: string;
  url: string;
  snippet: string;
  date: string;
  source: string;
  imageUrl?: string;
  position: number;
}

export interface ImageItem {
  title: string;
  imageUrl: string;
  imageWidth?: number;
  imageHeight?: number;
  url: string;
  position: number;
}

export function newsItem(r: NewsResult, position: number): NewsItem {
  return { title: r.title, url: r.link, snippet: r.snippet, date: r.date, source: r.source, ...(r.imageUrl ? { imageUrl: r.imageUrl } : {}), position };
}

export function imageItem(r: ImageResult, position: number): ImageItem {
  return {
    title: r.title,
    imageUrl: r.imageUrl,
    ...(r.imageWidth ? { imageWidth: r.imageWidth } : {}),
    ...(r.imageHeight ? { imageHeight: r.imageHeight } : {}),
    url: r.link,
    position,
  };
}
