/**
 * Documentation sidebars left in a widened docs page. Cleaning drops `<nav>` as site chrome, but not a node that holds
 * most of the page's text: on a docs site the sidebar lists every page of the manual (hundreds of links) and can
 * outweigh a short page, so it survives cleaning and comes back when selection widens to the page. Once the page is
 * known to be documentation and the content is the whole region, a navigation landmark made of links is its sidebar
 * or table of contents, whatever its size.
 */
import { isTag, removeChildren, type ChildNode, type Element } from '../dom.js';
import { sectionStats } from '../signals/sections.js';
import type { Pass } from './pass.js';

export const docsNavigation: Pass = {
  name: 'docs-navigation',
  stage: 'region',
  // A docs page's navigation landmarks are its sidebar and table of contents.
  appliesTo: (p) => p.selectAs === 'documentation',
  run: ({ roots }) => roots.filter(isTag).forEach(removeDocsNavigation),
};

/** Link share of a navigation landmark's text from which it is a list of pages rather than content. */
const NAV_LINK_SHARE = 0.5;

function isNavigation(el: Element): boolean {
  return el.name === 'nav' || (el.attribs.role ?? '').toLowerCase() === 'navigation';
}

/** Remove the navigation landmarks of `root` whose text is mostly links, in place. */
export function removeDocsNavigation(root: Element): void {
  const doomed = new Set<ChildNode>();
  for (const c of root.children) {
    if (!isTag(c)) continue;
    if (isNavigation(c)) {
      const s = sectionStats([c]);
      if (s.text > 0 && s.link >= NAV_LINK_SHARE * s.text) {
        doomed.add(c);
        continue;
      }
    }
    removeDocsNavigation(c);
  }
  removeChildren(root, doomed);
}
