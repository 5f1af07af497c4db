/**
 * A caller's scope on a page (PageScope): the elements `exclude` selects are removed, and with `include` the body
 * keeps only the outermost elements it selects, in document order. Selectors are CSS (css-select); one that does not
 * parse drops nothing and keeps everything, since callers validate selectors before a job is queued.
 */
import { selectAll } from 'css-select';
import type { PageScope } from '#contracts';
import { bodyOf, hasAncestor, relink, removeNode, type AnyNode, type Document, type Element } from './dom.js';

export function applyScope(doc: Document, scope: PageScope): void {
  if (scope.exclude?.length) {
    for (const el of select(scope.exclude, doc)) removeNode(el);
  }
  if (scope.include?.length) {
    const picked = select(scope.include, doc);
    const chosen = new Set<Element>(picked);
    const outermost = picked.filter((el) => !hasAncestor(el, (a) => chosen.has(a)));
    for (const el of outermost) removeNode(el);
    relink(bodyOf(doc), outermost);
  }
}

/** Whether markdown and text are made from the whole scoped page rather than its main content. */
export function wholePage(scope: PageScope | undefined): boolean {
  return scope !== undefined && (scope.mainContent === false || (scope.include?.length ?? 0) > 0);
}

function select(selectors: string[], doc: Document): Element[] {
  try {
    return selectAll<AnyNode, Element>(selectors.join(','), doc);
  } catch {
    return [];
  }
}
