import type { PageMetadata } from '#contracts';
import { findAll, findFirst, type Document, type Element } from './dom.js';

/** A site's own links dominate its page: the top host of absolute links must be at least this share and count. */
const OWN_HOST_SHARE = 0.5;
const OWN_HOST_MIN_LINKS = 5;
/** Link relations that point into the site itself (feeds, language versions, short links, site search). */
const SITE_RELATIONS = new Set(['alternate', 'shortlink', 'search', 'home', 'index']);

const isWeb = (u: string | undefined): u is string => !!u && /^https?:\/\//i.test(u);

function parse(u: string, base?: string): URL | undefined {
  try {
    return new URL(u, base);
  } catch {
    return undefined;
  }
}

const relations = (el: Element): string[] => el.attribs.rel?.toLowerCase().split(/\s+/) ?? [];

/**
 * The origin of the site a saved page comes from, when it declares no absolute address: the host of the links that
 * point into the site itself (its feeds, its other languages), else the host most of its absolute links go to.
 */
function siteOrigin(doc: Document): string | undefined {
  const own = findFirst(doc, (e) => e.name === 'link' && isWeb(e.attribs.href) && relations(e).some((r) => SITE_RELATIONS.has(r)));
  if (own) return parse(own.attribs.href!)?.origin;
  const counts = new Map<string, number>();
  let total = 0;
  for (const a of findAll(doc, (e) => e.name === 'a' && isWeb(e.attribs.href))) {
    const origin = parse(a.attribs.href!.trim())?.origin;
    if (!origin) continue;
    counts.set(origin, (counts.get(origin) ?? 0) + 1);
    total++;
  }
  let top: [string, number] | undefined;
  for (const entry of counts) if (!top || entry[1] > top[1]) top = entry;
  return top && top[1] >= OWN_HOST_MIN_LINKS && top[1] >= total * OWN_HOST_SHARE ? top[0] : undefined;
}

/**
 * The address the page is read at: the URL it was fetched from, or, for a page read from a file (`file:` or no URL),
 * the web address it declares (its canonical link or `og:url`). A saved page's links then resolve to the site, not
 * to the disk, and the signals read from the address (a product's item path, a docs host, a forum's thread path)
 * are the page's own. A canonical link without scheme (`//host/path`) is read over https; one without host
 * (`/path`), or none at all, is placed on the site the page's own links point to (see siteOrigin), at its root when
 * the page names no path.
 */
export function pageAddress(given: string, metadata: PageMetadata, doc: Document): string {
  if (isWeb(given)) return given;
  if (isWeb(metadata.canonicalUrl)) return metadata.canonicalUrl;
  const canonical = findFirst(doc, (e) => e.name === 'link' && relations(e).includes('canonical'))?.attribs.href?.trim();
  if (canonical?.startsWith('//')) return parse(`https:${canonical}`)?.href ?? given;
  const origin = siteOrigin(doc);
  if (!origin) return given;
  if (canonical) return parse(canonical, origin)?.href ?? given;
  // The file's path, on the site: not its root, which would read every saved page as a front page.
  return `${origin}${parse(given)?.pathname ?? '/'}`;
}
