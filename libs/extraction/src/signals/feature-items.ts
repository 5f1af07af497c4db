/**
 * Feature cards written as list items: a service page lists its features, plans or steps as `<li>`s, each with a
 * heading of its own and a line of description. An archive or a link directory is a list too, but its items are
 * links (teasers with a headline link included). Widening that refuses pages made mostly of list items (see
 * `listShare` in format-page.ts) counts only the latter, so a page of feature grids still widens to its sections.
 */
import { HEADING_TAGS, findFirst, type Element } from '../dom.js';
import { sectionStats } from './sections.js';

/** Link share of an item's text below which a headed item is a feature card rather than a teaser. */
const MAX_FEATURE_LINK_SHARE = 0.5;

/** A list item with its own heading and mostly plain text: a feature card. */
export function isFeatureItem(li: Element): boolean {
  if (!findFirst(li, (h) => HEADING_TAGS.has(h.name))) return false;
  const s = sectionStats([li]);
  return s.link < MAX_FEATURE_LINK_SHARE * s.text;
}
