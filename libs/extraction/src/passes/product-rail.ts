/**
 * Rails of other products on a product page: "similar items", "seller's other items", "sponsored" carousels. Their
 * headings are not always there to give them away (see recirculation), but their cards are alike everywhere: a run of
 * sibling cards printed from one template (see card-run), each short, with a link to another page and a price, or,
 * without a price, with a link to another item of the shop (an add-on's "Buy now"). The product's own content has no
 * such run: its variants are controls, its features carry no price each and link to no other item.
 */
import { MIN_CARDS } from '../signals/card-run.js';
import { isTag, removeChildren, templateKey, textContent, textLengthUpTo, type ChildNode, type Element, type ParentNode } from '../dom.js';
import type { Pass } from './pass.js';

export const productRails: Pass = {
  name: 'product-rails',
  stage: 'content',
  appliesTo: (p) => p.selectAs === 'product',
  run: ({ roots, profile }) => removeProductRails(roots, profile.url),
};

/** Characters a rail card holds at least (a name and a price) and at most (a roundup's product section is longer). */
const MIN_CARD_TEXT = 20;
const MAX_CARD_TEXT = 300;

/** A price in text: a currency sign or code next to a number. (A class naming a price: PRICE_CLASS_RE.) */
const PRICE_TEXT_RE = /(?:[$€£¥₹]|US\$|C\$|A\$|R\$|CHF|zł|kr|лв)\s?\d|\d(?:[.,]\d{2})?\s?(?:€|zł|kr|лв|Kč|CHF|EUR|USD|GBP)(?!\p{L})/u;

function linksElsewhere(el: Element): boolean {
  for (const c of el.children) {
    if (!isTag(c)) continue;
    if ((c.name === 'a' && c.attribs.href && !c.attribs.href.startsWith('#')) || linksElsewhere(c)) return true;
  }
  return false;
}

/**
 * Where the shop keeps its items, from the page's own URL: the path without its last segment (`/products/` of
 * `/products/kettle`), and the page's path. Undefined when the item sits at the root: every link would look like one.
 */
function itemFolder(url: string): { folder: string; self: string } | undefined {
  try {
    const path = new URL(url).pathname.replace(/\/+$/, '');
    const folder = path.slice(0, path.lastIndexOf('/') + 1);
    return folder.length > 1 ? { folder, self: path } : undefined;
  } catch {
    return undefined;
  }
}

/** Whether `el` links to another item in the page's item folder (`/products/other-kettle`). */
function linksToOtherItem(el: Element, items: { folder: string; self: string }, base: string): boolean {
  for (const c of el.children) {
    if (!isTag(c)) continue;
    if (c.name === 'a' && c.attribs.href) {
      try {
        const link = new URL(c.attribs.href, base);
        // WooCommerce's links that put an item in the cart (`?add-to-cart=<id>`) name the item by its id.
        if (link.searchParams.has('add-to-cart')) return true;
        const path = link.pathname.replace(/\/+$/, '');
        if (path !== items.self && path.startsWith(items.folder) && !path.slice(items.folder.length).includes('/')) return true;
      } catch {
        /* not a URL: not a link to an item */
      }
    } else if (linksToOtherItem(c, items, base)) return true;
  }
  return false;
}

/**
 * Remove the runs of product cards inside `roots`, in place: cards with a price, or, given the page's `url`, cards
 * that link to another item of the shop (a rail of add-ons or "complete the set" shows no price, only "Buy now").
 */
export function removeProductRails(roots: ParentNode[], url?: string): void {
  const items = url ? itemFolder(url) : undefined;
  const isRailCard = (el: Element): boolean => {
    const text = textLengthUpTo(el, MAX_CARD_TEXT + 1);
    if (text < MIN_CARD_TEXT || text > MAX_CARD_TEXT) return false;
    return (linksElsewhere(el) && PRICE_TEXT_RE.test(textContent(el))) || (!!items && !!url && linksToOtherItem(el, items, url));
  };
  const visit = (node: ParentNode): void => {
    const runs = new Map<string, Element[]>();
    for (const c of node.children) {
      if (!isTag(c) || !isRailCard(c)) continue;
      const sig = templateKey(c);
      const run = runs.get(sig) ?? [];
      run.push(c);
      runs.set(sig, run);
    }
    const doomed = new Set<ChildNode>();
    for (const run of runs.values()) if (run.length >= MIN_CARDS) for (const card of run) doomed.add(card);
    removeChildren(node, doomed);
    for (const c of node.children) if (isTag(c)) visit(c);
  };
  for (const r of roots) visit(r);
}
