/**
 * The feed of a listing or a shop's category: its entries or product tiles, printed from one template as a run of
 * sibling cards (see card-run). The article-style pick of such a page is often its intro text or one entry, and link
 * density (the cards are mostly links) keeps the scorer off the grid and prunes the cards it does take; on a listing
 * the run is content.
 */
import { contains, findFirst, HEADING_TAGS, isTag, isText, type Element, type ParentNode } from '../dom.js';
import { cardRun } from '../signals/card-run.js';
import { renderText } from '../text.js';

/** Cards a run needs to be a page's feed rather than a strip of a few links. */
const MIN_FEED_CARDS = 4;
/** Characters the feed must hold. */
const MIN_FEED_TEXT = 200;

/** Characters of text outside links that make a card more than a menu entry (an excerpt, a price, a date). */
const MIN_OWN_TEXT = 15;

/**
 * An entry or a product tile carries a picture, a heading or text of its own beside its link; the items of a menu
 * (a category mega-menu that cleaning left, an A-Z index) are bare links.
 */
function isEntry(card: Element): boolean {
  if (findFirst(card, (e) => e.name === 'img' || e.name === 'picture' || HEADING_TAGS.has(e.name))) return true;
  let own = 0;
  const walk = (n: Element): void => {
    for (const c of n.children) {
      if (isText(c)) own += c.data.trim().length;
      else if (isTag(c) && c.name !== 'a') walk(c);
    }
  };
  walk(card);
  return own >= MIN_OWN_TEXT;
}

/** The container of the run of cards holding the most text in `root`, or undefined. */
export function largestFeed(root: ParentNode): Element | undefined {
  let best: Element | undefined;
  let bestText = MIN_FEED_TEXT - 1;
  const visit = (n: ParentNode): void => {
    for (const c of n.children) {
      if (!isTag(c)) continue;
      const run = cardRun(c);
      if (run.length >= MIN_FEED_CARDS && run.filter(isEntry).length * 2 > run.length) {
        const text = run.reduce((a, e) => a + renderText(e).length, 0);
        if (text > bestText) {
          best = c;
          bestText = text;
        }
      }
      visit(c);
    }
  };
  visit(root);
  return best;
}

/**
 * `nodes` with the feed of `root` added: in place of the picked nodes it holds (the pick was one of its cards), or
 * beside them in document order; and the feed, for pruning to leave alone (its cards are mostly links, and short).
 */
export function withFeed(root: ParentNode, nodes: Element[]): { nodes: Element[]; feed?: Element } {
  const feed = largestFeed(root);
  if (!feed || nodes.some((n) => contains(n, feed))) return { nodes, feed };
  const outside = nodes.filter((n) => !contains(feed, n));
  const order = documentOrder(root);
  return { nodes: [...outside, feed].sort((a, b) => (order.get(a) ?? 0) - (order.get(b) ?? 0)), feed };
}

function documentOrder(root: ParentNode): Map<Element, number> {
  const order = new Map<Element, number>();
  const walk = (n: ParentNode): void => {
    for (const c of n.children) {
      if (!isTag(c)) continue;
      order.set(c, order.size);
      walk(c);
    }
  };
  walk(root);
  return order;
}
