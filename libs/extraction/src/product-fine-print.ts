/**
 * The small print of a product page: the numbered notes a maker's page sets its claims against ("¹ Battery life
 * measured under lab conditions…"), trademark lines, availability by region, the legal notes under the buy box. Sites
 * name that block for what it is, a disclaimer, and what it says is not what the page says about the product. (On an
 * article the same name marks an affiliate disclosure or an editor's note, part of the article: product pages only.)
 */
import { classWords, findFirst, isTag, removeChildren, squashedTextLength, type ChildNode, type Element, type ParentNode } from './dom.js';

/** Whole words of class/id names of the small print. */
const FINE_PRINT_WORDS = new Set(['disclaimer', 'disclaimers']);

/** Share of the content's text from which a block is the content itself, whatever its name. */
const MAX_SHARE = 0.5;

function isFinePrint(el: Element): boolean {
  const names = `${el.attribs.class ?? ''} ${el.attribs.id ?? ''}`.split(/\s+/).filter(Boolean);
  return names.some((n) => classWords(n).some((w) => FINE_PRINT_WORDS.has(w)));
}

/** Remove the disclaimer blocks inside `roots`, in place; one that holds the product's title or most of the text stays. */
export function removeFinePrint(roots: ParentNode[]): void {
  const total = roots.reduce((a, r) => a + squashedTextLength(r), 0);
  const visit = (node: ParentNode): void => {
    const doomed = new Set<ChildNode>();
    for (const c of node.children) {
      if (!isTag(c)) continue;
      if (isFinePrint(c) && !findFirst(c, (e) => e.name === 'h1') && squashedTextLength(c) <= total * MAX_SHARE) doomed.add(c);
      else visit(c);
    }
    removeChildren(node, doomed);
  };
  for (const r of roots) visit(r);
}
