/**
 * Repeated cards. A listing's entries, a shop's product tiles and a topic page's teasers are printed from one
 * template, so they show up as a run of sibling elements with the same tag and class names, each holding a link or
 * a heading and a little text. Such a run is the page's content however its wrapper is named: themes put ad slots
 * between the cards and name the wrapper after them (`section-more-ads`, `hide-read-more-ad`).
 */
import { HEADING_TAGS, isTag, templateKey, textLengthUpTo, type Element, type ParentNode } from './dom.js';

/** Cards a run needs to be a list rather than a pair of blocks. */
export const MIN_CARDS = 3;
/** Characters a card must hold (an empty ad slot or a spacer of the same template is not a card). */
const MIN_CARD_TEXT = 20;

function holdsLinkOrHeading(el: Element): boolean {
  for (const c of el.children) {
    if (!isTag(c)) continue;
    if ((c.name === 'a' && c.attribs.href) || HEADING_TAGS.has(c.name) || holdsLinkOrHeading(c)) return true;
  }
  return false;
}

const isCard = (el: Element): boolean => textLengthUpTo(el, MIN_CARD_TEXT) >= MIN_CARD_TEXT && holdsLinkOrHeading(el);

/** The number of cards in the longest run among the children of `parent`. */
export function cardRunLength(parent: ParentNode): number {
  const runs = new Map<string, number>();
  let best = 0;
  for (const c of parent.children) {
    if (!isTag(c) || !isCard(c)) continue;
    const sig = templateKey(c);
    const n = (runs.get(sig) ?? 0) + 1;
    runs.set(sig, n);
    if (n > best) best = n;
  }
  return best;
}

/** Whether `root` or an element inside it holds a run of at least MIN_CARDS cards. */
export function holdsCardRun(root: Element): boolean {
  if (cardRunLength(root) >= MIN_CARDS) return true;
  for (const c of root.children) if (isTag(c) && holdsCardRun(c)) return true;
  return false;
}
