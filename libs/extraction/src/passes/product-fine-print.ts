/**
 * The small print of a product page: the numbered notes a maker's page sets its claims against ("¹ Battery life
 * measured under lab conditions…"), trademark lines, availability by region, the legal notes under the buy box. Sites
 * name that block for what it is, a disclaimer, and what it says is not what the page says about the product. (On an
 * article the same name marks an affiliate disclosure or an editor's note, part of the article: product pages only.)
 */
import { findFirst, namedBy, removeOutermost, squashedTextLength, type ParentNode } from '../dom.js';
import type { Pass } from './pass.js';

export const finePrint: Pass = {
  name: 'fine-print',
  stage: 'content',
  appliesTo: (p) => p.selectAs === 'product',
  run: ({ roots }) => removeFinePrint(roots),
};

/** Whole words of class/id names of the small print. */
const FINE_PRINT_WORDS = new Set(['disclaimer', 'disclaimers']);

/** Share of the content's text from which a block is the content itself, whatever its name. */
const MAX_SHARE = 0.5;

/** Remove the disclaimer blocks inside `roots`, in place; one that holds the product's title or most of the text stays. */
export function removeFinePrint(roots: ParentNode[]): void {
  const total = roots.reduce((a, r) => a + squashedTextLength(r), 0);
  removeOutermost(roots, (el) => namedBy(el, FINE_PRINT_WORDS) && !findFirst(el, (e) => e.name === 'h1') && squashedTextLength(el) <= total * MAX_SHARE);
}
