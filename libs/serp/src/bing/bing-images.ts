/**
 * A Bing Images page handed to the web reader (a saved page, a link followed from a web result page): its search box
 * posts to `/images/search`, and each image's source page is a result. Two grids: the scripted one (`a.iusc`, whose
 * `m` attribute holds JSON with the page URL `purl` and its title `t`) and the no-JavaScript one (`div.item`, with the
 * page link `a.tit` and its title in `.des`). Every image is a result of its own, even two from one page.
 */
import { attr, findAll, findFirst, hasClass, textOf, type Element, type SerpDom } from '../dom/serp-dom.js';
import { unwrapBingLink } from '../util/urls.js';
import type { BingOrganicResult } from './bing-provider.js';

/** True when the page's search box searches images: the page is an Images page, whatever its grid. */
export function isBingImagesPage(dom: SerpDom): boolean {
  return dom.byTag('form').some((f) => /^(https?:\/\/[^/]*bing\.com)?\/images\/search\b/i.test(attr(f, 'action')));
}

interface ImageCard {
  link: string;
  title: string;
}

function scripted(a: Element): ImageCard | null {
  let m: { purl?: unknown; t?: unknown };
  try {
    m = JSON.parse(attr(a, 'm')) as typeof m;
  } catch {
    return null;
  }
  return typeof m.purl === 'string' ? { link: m.purl, title: typeof m.t === 'string' ? m.t : '' } : null;
}

function plain(item: Element): ImageCard | null {
  const a = findFirst(item, (e) => e.name === 'a' && hasClass(e, 'tit'));
  if (!a) return null;
  return { link: unwrapBingLink(attr(a, 'href')), title: textOf(findFirst(item, (e) => hasClass(e, 'des'))) };
}

/** The image results of an Images page in page order, positions counted from `offset`; none on any other page. */
export function parseBingImageResults(dom: SerpDom, offset = 0): BingOrganicResult[] {
  if (!isBingImagesPage(dom)) return [];
  const body = dom.byTag('body')[0];
  if (!body) return [];
  const cards = findAll(body, (e) => (e.name === 'a' && hasClass(e, 'iusc')) || (e.name === 'div' && hasClass(e, 'item')))
    .map((e) => (e.name === 'a' ? scripted(e) : plain(e)))
    .filter((c): c is ImageCard => !!c && /^https?:\/\//i.test(c.link));
  return cards.map((c, i) => ({ title: c.title, link: c.link, snippet: '', position: offset + i + 1 }));
}
