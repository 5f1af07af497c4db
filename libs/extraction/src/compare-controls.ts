/**
 * The "Compare" toggle a shop or a directory puts on each card of its grid (a checkbox labelled "Compare", an "Add to
 * compare" link): it picks the card for a comparison table, and says nothing about the card. Repeated on every card,
 * it is one word more per entry in the text. Only a control that is its block's whole text goes: "compare" in a
 * sentence or a heading ("Compare our plans") is prose.
 */
import { BLOCK_TAGS, HEADING_TAGS, isTag, removeChildren, squashedTextWithin, type ChildNode, type Element, type ParentNode } from './dom.js';

/** A compare toggle's whole text. */
const COMPARE_RE = /^(?:add to )?(?:compare|comparison)(?: products?| now)?$/i;

/** Characters of such a control, at most. */
const MAX_CONTROL = 25;

const CONTROL_TAGS = new Set(['a', 'button', 'label', 'span']);

const textOf = (node: ParentNode): string | undefined => squashedTextWithin(node, MAX_CONTROL);

function isCompareControl(el: Element): boolean {
  if (!CONTROL_TAGS.has(el.name) && (!BLOCK_TAGS.has(el.name) || HEADING_TAGS.has(el.name))) return false;
  const text = textOf(el);
  return text !== undefined && COMPARE_RE.test(text);
}

/** Remove the lone compare toggles inside `roots`, in place. */
export function removeCompareControls(roots: ParentNode[]): void {
  const visit = (node: ParentNode): void => {
    const doomed = new Set<ChildNode>();
    for (const c of node.children) {
      if (!isTag(c)) continue;
      // A block that says only that, or an inline control that is its block's whole text.
      if (isCompareControl(c) && (BLOCK_TAGS.has(c.name) || textOf(node) === textOf(c))) doomed.add(c);
      else visit(c);
    }
    removeChildren(node, doomed);
  };
  for (const r of roots) visit(r);
}
