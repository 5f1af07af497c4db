/**
 * Counters on a forum thread: vote scores beside each answer, post numbers (#7), reply and view counts. They are
 * blocks whose whole text is a number, standing apart from any sentence (no text beside them in their parent), and
 * they are no part of what anyone wrote. A number inside a sentence, a table cell or a list item is left alone.
 */
import { findAll, findFirst, hasAncestor, isTag, isText, removeNode, textContent, type Element, type ParentNode } from './dom.js';

const COUNTER_RE = /^#?\d{1,6}$/;
/** Cells and items hold data: a number there is a value. */
const DATA_TAGS = new Set(['td', 'th', 'li', 'dd', 'dt', 'code', 'pre']);

function standsApart(el: Element): boolean {
  const parent = el.parent;
  if (!parent) return false;
  return parent.children.every((c) => !isText(c) || c.data.trim() === '');
}

function isCounter(el: Element): boolean {
  if (DATA_TAGS.has(el.name) || !COUNTER_RE.test(textContent(el).trim()) || !standsApart(el)) return false;
  if (findFirst(el, (c) => DATA_TAGS.has(c.name)) || hasAncestor(el, (a) => DATA_TAGS.has(a.name))) return false;
  // The outermost such block goes; its inner wrappers with the same text go with it.
  return !(el.parent && isTag(el.parent) && COUNTER_RE.test(textContent(el.parent).trim()));
}

/** Remove the counters inside `roots`, in place. */
export function removeThreadCounters(roots: ParentNode[]): void {
  for (const el of roots.flatMap((r) => findAll(r, isCounter))) removeNode(el);
}
