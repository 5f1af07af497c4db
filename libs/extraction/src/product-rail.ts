/**
 * Rails of other products on a product page: "similar items", "seller's other items", "sponsored" carousels. Their
 * headings are not always there to give them away (see recirculation), but their cards are alike everywhere: a run of
 * sibling cards printed from one template (see card-run), each short, with a link to another page and a price. The
 * product's own content has no such run: its variants are controls, its features carry no price each.
 */
import { MIN_CARDS } from './card-run.js';
import { isTag, removeChildren, templateKey, textContent, textLengthUpTo, type ChildNode, type Element, type ParentNode } from './dom.js';

/** Characters a rail card holds at least (a name and a price) and at most (a roundup's product section is longer). */
const MIN_CARD_TEXT = 20;
const MAX_CARD_TEXT = 300;

/** A price: a currency sign or code next to a number. */
const PRICE_RE = /(?:[$€£¥₹]|US\$|C\$|A\$|R\$|CHF|zł|kr|лв)\s?\d|\d(?:[.,]\d{2})?\s?(?:€|zł|kr|лв|Kč|CHF|EUR|USD|GBP)(?!\p{L})/u;

function linksElsewhere(el: Element): boolean {
  for (const c of el.children) {
    if (!isTag(c)) continue;
    if ((c.name === 'a' && c.attribs.href && !c.attribs.href.startsWith('#')) || linksElsewhere(c)) return true;
  }
  return false;
}

function isRailCard(el: Element): boolean {
  const text = textLengthUpTo(el, MAX_CARD_TEXT + 1);
  return text >= MIN_CARD_TEXT && text <= MAX_CARD_TEXT && linksElsewhere(el) && PRICE_RE.test(textContent(el));
}

/** Remove the runs of priced product cards inside `roots`, in place. */
export function removeProductRails(roots: ParentNode[]): void {
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
