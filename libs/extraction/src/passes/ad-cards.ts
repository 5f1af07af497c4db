/**
 * Paid placements among a page's cards: a shop's "Sponsored" product in a rail or a result grid, a directory's
 * "Promoted" entry. Their class names are generated (`_6o3atz12h`) or say nothing (`data-test=ad-slot-…` is not a
 * class), so cleaning keeps them; what they always show is the label, alone in its own element. The ad is the label's
 * largest ancestor that is still card-sized and links somewhere or shows a picture. A sponsored article's disclosure carries the same
 * label, but next to the article's headline and body: climbing from it reaches the headline or too much text before it
 * reaches a link, so the article stays.
 */
import { findAll, findFirst, fromTextNodes, hasAncestor, isTag, removeNode, squashedTextLength, squashedTextWithin, textLengthUpTo, type Element, type ParentNode, type Text } from '../dom.js';
import type { Pass } from './pass.js';

export const adCards: Pass = {
  name: 'ad-cards',
  stage: 'content',
  // In a listing or a shop's grid, a sponsored result is one of the results (measured: listings lose when it is removed).
  appliesTo: (p) => !p.feed,
  run: ({ roots }) => removeAdCards(roots),
};

/** The whole text of an ad's label (English and a few large languages). */
const AD_LABEL_RE = /^(?:sponsored|promoted|ad|advertisement|anzeige|gesponsert|sponsorisé|patrocinado|publicidad)$/i;

/** Characters an ad card holds at most: a name, a tagline, a price and its label (a rail of them holds more). */
const MAX_AD_CARD = 450;

/** Characters of a label element, at most. */
const MAX_LABEL = 20;

function isAdLabel(el: Element): boolean {
  const text = squashedTextWithin(el, MAX_LABEL);
  return text !== undefined && AD_LABEL_RE.test(text);
}

/** The outermost element around the text node `t` whose whole text is an ad's label, if `t` says one. */
function labelAround(t: Text): Element | undefined {
  const text = t.data.trim();
  if (text.length > MAX_LABEL || !AD_LABEL_RE.test(text.replace(/\s+/g, ' '))) return undefined;
  let label = t.parent && isTag(t.parent) ? t.parent : undefined;
  while (label?.parent && isTag(label.parent) && isAdLabel(label.parent)) label = label.parent;
  return label && isAdLabel(label) ? label : undefined;
}

const linksOut = (el: Element): boolean => findFirst(el, (e) => e.name === 'a' && !!e.attribs.href && !e.attribs.href.startsWith('#')) !== undefined;
const holdsHeadline = (el: Element): boolean => findFirst(el, (e) => e.name === 'h1') !== undefined;

/** Characters of text inside links of `el`. */
function linkTextLength(el: Element): number {
  return findAll(el, (e) => e.name === 'a' && !hasAncestor(e, (a) => a !== el && a.name === 'a')).reduce((n, a) => n + squashedTextLength(a), 0);
}

/** Another entry beside the ad: a block that links somewhere and says something besides its links. */
function isEntry(el: Element): boolean {
  return linksOut(el) && squashedTextLength(el) > linkTextLength(el);
}

/**
 * The card around an ad's label: its largest ancestor below `roots` that is card-sized, holds no headline and is not
 * one entry among others of a list (the list is not the ad), if that one links somewhere or shows a picture (a
 * shop's banner is often clicked through by script).
 */
function adCard(label: Element, roots: ParentNode[]): Element | undefined {
  let card: Element | undefined;
  for (let p = label.parent; p && isTag(p) && !roots.includes(p); p = p.parent) {
    if (textLengthUpTo(p, MAX_AD_CARD + 1) > MAX_AD_CARD || holdsHeadline(p)) break;
    card = p;
    const list = p.parent;
    if (list && list.children.some((c) => c !== p && isTag(c) && isEntry(c))) break;
  }
  return card && (linksOut(card) || findFirst(card, (e) => e.name === 'img') !== undefined) ? card : undefined;
}

/** Remove the ad cards inside `roots`, in place. */
export function removeAdCards(roots: ParentNode[]): void {
  // Read from the text nodes: one walk, and only the few that say a label are climbed from.
  const labels = fromTextNodes(roots, labelAround);
  const cards = new Set<Element>();
  for (const label of labels) {
    const card = adCard(label, roots);
    if (card) cards.add(card);
  }
  for (const card of cards) removeNode(card);
}
