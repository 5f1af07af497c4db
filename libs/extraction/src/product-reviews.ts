/**
 * Customer reviews on a product page: widgets (Bazaarvoice, Yotpo, Okendo, Judge.me, PowerReviews, Trustpilot…) and
 * shops' own review lists, under the product. A product's content is what the shop says about it; the reviews are
 * other people's text, often longer than the description, and they swamp it. Found by the words of their class/id
 * names on product pages only (on an article, "review" names the article itself). Question-and-answer widgets go too.
 */
import { classWords, findFirst, isTag, removeChildren, textContent, type ChildNode, type Element, type ParentNode } from './dom.js';

/** Whole words of class/id names of review sections and review widgets. */
const REVIEW_WORDS = new Set(['review', 'reviews', 'yotpo', 'bazaarvoice', 'bv', 'okendo', 'stamped', 'jdgm', 'judgeme', 'powerreviews', 'trustpilot', 'feefo', 'testimonials', 'qa', 'qna', 'questions']);

function isReviewSection(el: Element): boolean {
  const names = `${el.attribs.class ?? ''} ${el.attribs.id ?? ''}`.split(/\s+/).filter(Boolean);
  return names.some((n) => classWords(n).some((w) => REVIEW_WORDS.has(w)));
}

/** Remove review sections from the product's content, in place; a section holding the product's title is kept. */
export function removeProductReviews(roots: ParentNode[]): void {
  const visit = (node: ParentNode): void => {
    const doomed = new Set<ChildNode>();
    for (const c of node.children) {
      if (!isTag(c)) continue;
      if (c.name !== 'a' && isReviewSection(c) && !findFirst(c, (e) => e.name === 'h1') && textContent(c).trim()) doomed.add(c);
      else visit(c);
    }
    removeChildren(node, doomed);
  };
  for (const r of roots) visit(r);
}

