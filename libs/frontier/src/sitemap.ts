/**
 * Sitemaps as a crawl reads them: XML urlsets and sitemap indexes (sitemaps.org), plain-text sitemaps (one URL a
 * line), RSS and Atom feeds (their items' links), gzipped or not. Input is untrusted bytes: inflation and entry
 * counts are bounded, and nothing throws.
 */
import { gunzipSync } from 'node:zlib';
import { Parser } from 'htmlparser2';

export interface SitemapParse {
  /** 'urlset' for every list of pages (XML urlset, text, feed); 'invalid' for what is none of these or over a bound. */
  kind: 'urlset' | 'index' | 'invalid';
  urls: Array<{ loc: string; lastmod?: string }>;
  sitemaps: string[];
}

/** sitemaps.org: at most 50,000 URLs and 50 MB (uncompressed) per sitemap. */
export const MAX_SITEMAP_URLS = 50_000;
export const MAX_SITEMAP_BYTES = 50 * 1024 * 1024;

const INVALID: SitemapParse = { kind: 'invalid', urls: [], sitemaps: [] };

/**
 * XML sitemaps (urlset, sitemapindex; also plain-text sitemaps, one URL per line; and RSS/Atom feeds' links), given
 * raw bytes: gzip detected by magic bytes and inflated with a bound (`maxBytes` of output, default 50 MiB: a gzip
 * bomb returns kind 'invalid'), entries capped at `maxUrls` (default 50,000 per sitemap as the protocol says).
 * Only absolute http(s) locations are kept. A malformed XML document gives the entries closed before the break.
 * Never throws.
 */
export function parseSitemap(body: Uint8Array, options: { maxUrls?: number; maxBytes?: number } = {}): SitemapParse {
  const maxUrls = options.maxUrls ?? MAX_SITEMAP_URLS;
  const maxBytes = options.maxBytes ?? MAX_SITEMAP_BYTES;
  try {
    let bytes = body;
    if (bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b) {
      // Throws a RangeError past maxOutputLength: inflation stops there instead of filling memory.
      bytes = gunzipSync(bytes, { maxOutputLength: maxBytes });
    }
    if (bytes.length > maxBytes) return INVALID;
    const text = new TextDecoder('utf-8').decode(bytes).replace(/^\uFEFF/, '').trimStart();
    return text.startsWith('<') ? parseXml(text, maxUrls) : parseText(text, maxUrls);
  } catch {
    return INVALID;
  }
}

function httpUrl(raw: string): string | null {
  try {
    const url = new URL(raw.trim());
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}

function parseText(text: string, maxUrls: number): SitemapParse {
  const urls: SitemapParse['urls'] = [];
  for (const line of text.split(/\r\n|\r|\n/)) {
    if (urls.length >= maxUrls) break;
    const loc = line.trim() === '' ? null : httpUrl(line);
    if (loc) urls.push({ loc });
  }
  return urls.length > 0 ? { kind: 'urlset', urls, sitemaps: [] } : INVALID;
}

const ROOTS: Record<string, 'urlset' | 'index' | 'feed'> = { urlset: 'urlset', sitemapindex: 'index', rss: 'feed', rdf: 'feed', feed: 'feed' };

function parseXml(text: string, maxUrls: number): SitemapParse {
  let root: 'urlset' | 'index' | 'feed' | null | undefined; // undefined: no element seen yet
  // Names are compared without the root's own namespace prefix (`<rdf:RDF>`, `<sm:urlset><sm:url>`); other
  // prefixed elements keep theirs, so `<image:loc>` (an image) is not taken for `<loc>` (a page).
  let rootPrefix = '';
  const nameOf = (raw: string): string => {
    const lower = raw.toLowerCase();
    const colon = lower.indexOf(':');
    if (root === undefined) {
      rootPrefix = colon === -1 ? '' : lower.slice(0, colon + 1);
      return lower.slice(colon + 1);
    }
    return rootPrefix !== '' && lower.startsWith(rootPrefix) ? lower.slice(rootPrefix.length) : lower;
  };
  const stack: string[] = [];
  const urls: SitemapParse['urls'] = [];
  const sitemaps: string[] = [];
  let entry: { loc?: string; lastmod?: string } | null = null;
  let textOf: 'loc' | 'lastmod' | 'link' | null = null;
  let buffer = '';
  const full = (): boolean => urls.length + sitemaps.length >= maxUrls;

  const parser = new Parser(
    {
      onopentag(rawName, attributes) {
        const name = nameOf(rawName);
        if (root === undefined) root = ROOTS[name] ?? null;
        const parent = stack[stack.length - 1];
        stack.push(name);
        if (root === null || full()) return;
        if ((name === 'url' && root === 'urlset') || (name === 'sitemap' && root === 'index') || ((name === 'item' || name === 'entry') && root === 'feed')) {
          entry = {};
        } else if (entry && (parent === 'url' || parent === 'sitemap') && (name === 'loc' || name === 'lastmod')) {
          textOf = name;
          buffer = '';
        } else if (entry && (parent === 'item' || parent === 'entry') && name === 'link') {
          // RSS: <link>url</link>; Atom: <link href="url" rel="alternate"/> (rel absent means alternate).
          const rel = attributes.rel?.toLowerCase();
          if (attributes.href !== undefined && (rel === undefined || rel === 'alternate')) entry.loc ??= attributes.href;
          else if (attributes.href === undefined) {
            textOf = 'link';
            buffer = '';
          }
        }
      },
      ontext(data) {
        if (textOf) buffer += data;
      },
      onclosetag(_name, isImplied) {
        const name = stack.pop();
        if (root === null || root === undefined) return;
        if (textOf && name === textOf) {
          // An element the parser closed for us (the document broke off inside it) is not taken.
          if (entry && !isImplied) {
            if (textOf === 'lastmod') entry.lastmod = buffer.trim();
            else entry.loc ??= buffer.trim();
          }
          textOf = null;
        } else if (entry && (name === 'url' || name === 'sitemap' || name === 'item' || name === 'entry')) {
          const loc = entry.loc !== undefined && !isImplied ? httpUrl(entry.loc) : null;
          if (loc && !full()) {
            if (root === 'index') sitemaps.push(loc);
            else urls.push(entry.lastmod ? { loc, lastmod: entry.lastmod } : { loc });
          }
          entry = null;
        }
      },
    },
    { xmlMode: true, decodeEntities: true },
  );
  parser.end(text);
  if (!root) return INVALID;
  return { kind: root === 'index' ? 'index' : 'urlset', urls, sitemaps };
}
