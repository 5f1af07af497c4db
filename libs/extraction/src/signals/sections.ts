/**
 * Service pages spread their content over many sections, each under its own heading (a hero, features, pricing,
 * FAQ), where the article-style pick is one of them. What lies outside the pick tells such a page from a news page
 * whose surroundings are teasers and menus: on the service page it is more sections of text under headings; on the
 * news page it is mostly links, or text without headings (a comment, a second blurb).
 */
import { isTag, isText, squashedLength, type AnyNode, type ParentNode } from '../dom.js';

export interface SectionStats {
  /** characters of whitespace-collapsed text */
  text: number;
  /** of which inside links */
  link: number;
  /** h2–h4 headings */
  headings: number;
}

const SECTION_HEADINGS = new Set(['h2', 'h3', 'h4']);

/** Text, link text and section headings of `nodes`, in one walk. */
export function sectionStats(nodes: ParentNode[]): SectionStats {
  const s: SectionStats = { text: 0, link: 0, headings: 0 };
  const walk = (n: AnyNode, inLink: boolean): void => {
    if (isText(n)) {
      const len = squashedLength(n.data);
      s.text += len;
      if (inLink) s.link += len;
      return;
    }
    if (!isTag(n)) return;
    if (SECTION_HEADINGS.has(n.name)) s.headings++;
    for (const c of n.children) walk(c, inLink || n.name === 'a');
  };
  for (const n of nodes) walk(n as AnyNode, false);
  return s;
}

/** Link share of the text outside the pick below which it reads as sections of prose rather than navigation. */
const MAX_OUTSIDE_LINK_SHARE = 0.3;
/** Headings outside the pick from which the rest of the page is sections of its own. */
const MIN_OUTSIDE_HEADINGS = 2;

/**
 * Whether `region` (which contains the pick) holds, beside the pick, further sections of the page's content: text
 * with few links, under at least two headings of its own.
 */
export function spreadOverSections(region: SectionStats, pick: SectionStats): boolean {
  const text = region.text - pick.text;
  if (text <= 0) return false;
  return region.headings - pick.headings >= MIN_OUTSIDE_HEADINGS && region.link - pick.link < MAX_OUTSIDE_LINK_SHARE * text;
}
