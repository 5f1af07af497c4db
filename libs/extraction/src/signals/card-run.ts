/**
 * Repeated cards. A listing's entries, a shop's product tiles and a topic page's teasers are printed from one
 * template, so they show up as a run of sibling elements with the same tag and class names, each holding a link or
 * a heading and a little text. Such a run is the page's content however its wrapper is named: themes put ad slots
 * between the cards and name the wrapper after them (`section-more-ads`, `hide-read-more-ad`).
 */
import { HEADING_TAGS, isTag, templateKey, textLengthUpTo, type Element, type ParentNode } from '../dom.js';

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

/**
 * The cards of the longest run among the children of `parent`. Cards of one template share most of their class
 * words, not all: CMSs add each entry's own terms (WordPress prints `category-<slug>`, `tag-<slug>` on every post),
 * so siblings of a tag whose class words overlap by half of the shorter list are one run.
 */
export function cardRun(parent: ParentNode): Element[] {
  const runs: { words: Set<string>; cards: Element[] }[] = [];
  let best: Element[] = [];
  for (const c of parent.children) {
    if (!isTag(c) || !isCard(c)) continue;
    const words = classWords(c);
    let run = runs.find((r) => r.cards[0].name === c.name && sharesTemplate(r.words, words));
    if (!run) {
      run = { words, cards: [] };
      runs.push(run);
    }
    run.cards.push(c);
    if (run.cards.length > best.length) best = run.cards;
  }
  return best;
}

const classWords = (el: Element): Set<string> => new Set((el.attribs.class ?? '').split(/\s+/).filter((w) => w && !/\d/.test(w)));

function sharesTemplate(a: Set<string>, b: Set<string>): boolean {
  if (a.size === 0 || b.size === 0) return a.size === b.size;
  let shared = 0;
  for (const w of a) if (b.has(w)) shared++;
  return shared * 2 >= Math.min(a.size, b.size);
}

/** Whether `root` or an element inside it holds a run of at least MIN_CARDS cards. */
export function holdsCardRun(root: Element): boolean {
  if (cardRunLength(root) >= MIN_CARDS) return true;
  for (const c of root.children) if (isTag(c) && holdsCardRun(c)) return true;
  return false;
}
