/**
 * A page's links, read from the document the format pipeline already parsed (before cleaning drops navigation):
 * `<a href>` and `<area href>` resolved against the page's `<base href>`, fragments dropped, each URL once in document
 * order (at most MAX_LINKS_PER_PAGE), `nofollow` noted; and its `<link rel=canonical>`, resolved. Site crawls follow
 * these links, and the crawl answer lists them.
 */
import type { PageLink } from '#contracts';
import { documentBase, MAX_LINKS_PER_PAGE } from '#frontier';
import { findAll, type Document, type Element } from './dom.js';

const relHas = (el: Element, token: string): boolean => (el.attribs.rel ?? '').toLowerCase().split(/\s+/).includes(token);

export function pageLinks(doc: Document, pageUrl: string): { links: PageLink[]; canonical?: string } {
  const base = documentBase(pageUrl, findAll(doc, (e) => e.name === 'base' && e.attribs.href !== undefined)[0]?.attribs.href);
  const links = new Map<string, PageLink>();
  let canonical: string | undefined;
  for (const el of findAll(doc, (e) => ((e.name === 'a' || e.name === 'area') && e.attribs.href !== undefined) || (e.name === 'link' && relHas(e, 'canonical')))) {
    const url = absolute(el.attribs.href, base);
    if (!url) continue;
    if (el.name === 'link') {
      canonical ??= url;
      continue;
    }
    const seen = links.get(url);
    if (seen) {
      // A URL linked once with nofollow and once without is followable.
      if (seen.nofollow && !relHas(el, 'nofollow')) delete seen.nofollow;
      continue;
    }
    if (links.size >= MAX_LINKS_PER_PAGE) continue;
    links.set(url, relHas(el, 'nofollow') ? { url, nofollow: true } : { url });
  }
  return { links: [...links.values()], ...(canonical ? { canonical } : {}) };
}

function absolute(href: string | undefined, base: string): string | null {
  if (!href) return null;
  try {
    const url = new URL(href.trim(), base);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    url.hash = '';
    return url.href;
  } catch {
    return null;
  }
}
