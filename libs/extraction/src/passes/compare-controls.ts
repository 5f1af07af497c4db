/**
 * The "Compare" toggle a shop or a directory puts on each card of its grid (a checkbox labelled "Compare", an "Add to
 * compare" link): it picks the card for a comparison table, and says nothing about the card. Repeated on every card,
 * it is one word more per entry in the text. Only a control that is its block's whole text goes: "compare" in a
 * sentence or a heading ("Compare our plans") is prose.
 */
import { BLOCK_TAGS, HEADING_TAGS, fromTextNodes, isTag, removeNode, squashedTextWithin, type Element, type ParentNode, type Text } from '../dom.js';
import type { Pass } from './pass.js';

export const compareControls: Pass = {
  name: 'compare-controls',
  stage: 'content',
  // The toggle sits on each card of a grid, and on the product a grid links to.
  appliesTo: (p) => p.feed || p.selectAs === 'product',
  run: ({ roots }) => removeCompareControls(roots),
};

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

/** The outermost control around the text node `t` whose whole text is a compare toggle's, if `t` says one. */
function controlAround(t: Text): Element | undefined {
  const text = t.data.trim();
  if (text.length > MAX_CONTROL || !COMPARE_RE.test(text.replace(/\s+/g, ' '))) return undefined;
  let control: Element | undefined;
  for (let p = t.parent; p && isTag(p) && textOf(p) === textOf(t.parent as Element); p = p.parent) if (isCompareControl(p)) control = p;
  return control;
}

/** Remove the lone compare toggles inside `roots`, in place. Read from the text nodes: one walk. */
export function removeCompareControls(roots: ParentNode[]): void {
  const controls = fromTextNodes(roots, controlAround);
  // A block that says only that, or an inline control that is its block's whole text.
  for (const control of controls) {
    const parent = control.parent;
    if (parent && (BLOCK_TAGS.has(control.name) || textOf(parent) === textOf(control)) && !roots.includes(control)) removeNode(control);
  }
}
