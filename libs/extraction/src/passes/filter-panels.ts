/**
 * Filter panels of a shop's category or a listing: facets with their counts ("Brand: Canon (125) Nikon (123)"), price
 * ranges, "sort by" menus and the chips of the filters applied. Their controls are dropped by cleaning, but their
 * labels remain and mix with the grid of cards they filter. Shops name them alike: `filters`, `facets`,
 * `refinements`, `sort-by`. A panel holding a large share of the selection's text is kept (the name is a guess; a
 * grid wrapper called `results-with-filters` is the content).
 */
import { findAll, hasAncestor, removeNode, type Element, type ParentNode } from '../dom.js';
import { renderText } from '../text.js';
import type { Pass } from './pass.js';

export const filterPanels: Pass = {
  name: 'filter-panels',
  stage: 'region',
  // A category's grid comes with its filter panels; widened to the grid, the panels come too.
  appliesTo: (p) => p.feed,
  run: ({ roots }) => removeFilterPanels(roots),
};

const FILTER_RE = /(?:^|[\s_-])(?:filters?|facets?|refinements?|refine|sort-?by|sorting)(?=$|[\s_-])/i;
/** Share of the selection's text from which a block named like a filter panel is kept. */
const MAX_PANEL_SHARE = 0.25;

const named = (el: Element): boolean => FILTER_RE.test(`${el.attribs.class ?? ''} ${el.attribs.id ?? ''}`);

/** Remove the filter panels inside `roots`, in place. */
export function removeFilterPanels(roots: ParentNode[]): void {
  const total = renderText(roots).length;
  const panels = roots.flatMap((r) => findAll(r, (e) => named(e) && !hasAncestor(e, named)));
  for (const p of panels) if (!roots.includes(p) && renderText(p).length < total * MAX_PANEL_SHARE) removeNode(p);
}
