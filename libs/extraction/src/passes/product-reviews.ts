/**
 * Customer reviews on a product page: widgets (Bazaarvoice, Yotpo, Okendo, Judge.me, PowerReviews, Trustpilot…) and
 * shops' own review lists, under the product. A product's content is what the shop says about it; the reviews are
 * other people's text, often longer than the description, and they swamp it. Found by the words of their class/id
 * names on product and category pages only (on an article, "review" names the article itself), or, when the widget names itself
 * otherwise, by its cards: a run of them, each dated "3 months ago". Question-and-answer widgets go too.
 */
import { cardRun, MIN_CARDS } from '../signals/card-run.js';
import { findFirst, namedBy, isTag, removeChildren, templateKey, textContent, textLengthUpTo, type ChildNode, type Element, type ParentNode } from '../dom.js';
import type { Pass } from './pass.js';

export const productReviews: Pass = {
  name: 'product-reviews',
  stage: 'content',
  // A shop's category shows reviews of the shop or of its best sellers beside its grid, as a product page does.
  appliesTo: (p) => p.selectAs === 'product' || p.selectAs === 'collection',
  run: ({ roots, profile }) => removeProductReviews(roots, profile.selectAs === 'collection'),
};

/** Whole words of class/id names of review sections and review widgets. */
const REVIEW_WORDS = new Set(['review', 'reviews', 'yotpo', 'bazaarvoice', 'bv', 'okendo', 'stamped', 'jdgm', 'judgeme', 'powerreviews', 'trustpilot', 'feefo', 'testimonials', 'qa', 'qna', 'questions']);

const isReviewSection = (el: Element): boolean => namedBy(el, REVIEW_WORDS);

/**
 * A relative date, as review widgets print them ("3 months ago", "vor 2 Wochen", "il y a 5 jours", "hace 1 año"). The
 * card's text runs its parts together ("Jane Doe3 months agoGreat tent"), so no word boundary is asked for around it.
 */
const RELATIVE_DATE_RE =
  /(?:\d+|\ban?|\bone)\s+(?:minute|hour|day|week|month|year)s?\s+ago|\bvor\s+(?:\d+|einem|einer)\s+(?:Minuten?|Stunden?|Tag(?:en)?|Wochen?|Monat(?:en)?|Jahr(?:en)?)|\bil y a\s+(?:\d+|une?)\s+(?:minutes?|heures?|jours?|semaines?|mois|ans?)|\bhace\s+(?:\d+|una?)\s+(?:minutos?|horas?|días?|semanas?|meses|mes|años?)/i;

/** Characters a review card holds at least (a name, a date and a sentence) and at most (a long review). */
const MIN_POST_TEXT = 40;
const MAX_POST_TEXT = 3000;

/**
 * A card of a review list: someone's words with how long ago they wrote them. (Not any `<time>`: a ticket's or a
 * course's sessions are dated cards of the product's own.)
 */
function isDatedPost(el: Element): boolean {
  const length = textLengthUpTo(el, MAX_POST_TEXT + 1);
  return length >= MIN_POST_TEXT && length <= MAX_POST_TEXT && RELATIVE_DATE_RE.test(textContent(el));
}

/**
 * Remove the runs of dated posts inside `node`, in place: sibling cards of one template, each with a relative date —
 * the reviews a widget prints without naming itself. A shop's own text carries no such date per block.
 */
function removeDatedPostRuns(node: ParentNode): void {
  const runs = new Map<string, Element[]>();
  for (const c of node.children) {
    if (!isTag(c)) continue;
    const key = templateKey(c);
    runs.set(key, [...(runs.get(key) ?? []), c]);
  }
  const doomed = new Set<ChildNode>();
  for (const run of runs.values()) {
    if (run.length < MIN_CARDS) continue;
    const dated = run.filter(isDatedPost);
    if (dated.length >= MIN_CARDS) for (const c of dated) doomed.add(c);
  }
  removeChildren(node, doomed);
  for (const c of node.children) if (isTag(c)) removeDatedPostRuns(c);
}

/** Characters of a tile's rating line ("4.5 stars (34)", "Be the first to review this product"), at most. */
const MAX_RATING_LINE = 50;

/**
 * Remove review sections from the product's content, in place; a section holding the product's title is kept. `tiles`:
 * the content is a shop's category, whose product tiles carry a rating line and sometimes a review quote: inside a
 * tile only the rating line goes, and the reviews beside the grid (of the shop, of its best sellers) go whole.
 */
export function removeProductReviews(roots: ParentNode[], tiles = false): void {
  const visit = (node: ParentNode, inTile: boolean): void => {
    const doomed = new Set<ChildNode>();
    const run = tiles && !inTile ? cardRun(node) : [];
    const cards = new Set<Element>(run.length >= MIN_CARDS ? run : []);
    for (const c of node.children) {
      if (!isTag(c)) continue;
      const review = c.name !== 'a' && isReviewSection(c) && !findFirst(c, (e) => e.name === 'h1') && textContent(c).trim();
      if (review && (!inTile || textLengthUpTo(c, MAX_RATING_LINE + 1) <= MAX_RATING_LINE)) doomed.add(c);
      else visit(c, inTile || cards.has(c));
    }
    removeChildren(node, doomed);
  };
  for (const r of roots) {
    visit(r, false);
    removeDatedPostRuns(r);
  }
}
