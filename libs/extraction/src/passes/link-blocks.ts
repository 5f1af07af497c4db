/**
 * Blocks of links left in a widened product page or thread: menus and "more like this" rails that no class name gave
 * away. A block whose text is mostly link text is navigation, not content. (On a listing or a collection the cards are
 * links too, and they are the content; on service and docs pages, link blocks are often their lists of offers and
 * topics: measured, both lose when these are removed.)
 */
import { isTag, removeChildren, squashedLength, type ChildNode, type Element } from '../dom.js';
import type { Pass } from './pass.js';

export const linkBlocks: Pass = {
  name: 'link-blocks',
  stage: 'region',
  appliesTo: (p) => p.selectAs === 'product' || p.forum,
  run: ({ roots }) => roots.filter(isTag).forEach(removeLinkBlocks),
};

/** Link share of a block's text above which it is navigation rather than content. */
const LINK_BLOCK_SHARE = 0.6;
const LINK_BLOCK_TAGS = new Set(['div', 'ul', 'ol', 'section', 'table', 'dl', 'header', 'footer', 'form']);

/** Remove the blocks of `root` whose text is mostly link text, in place. */
export function removeLinkBlocks(root: Element): void {
  const visit = (el: Element, inLink: boolean): { text: number; link: number } => {
    const acc = { text: 0, link: 0 };
    const doomed = new Set<ChildNode>();
    for (const c of el.children) {
      if (c.type === 'text') {
        const n = squashedLength(c.data);
        acc.text += n;
        if (inLink) acc.link += n;
      } else if (isTag(c)) {
        const m = visit(c, inLink || c.name === 'a');
        if (LINK_BLOCK_TAGS.has(c.name) && m.text >= 20 && m.link > m.text * LINK_BLOCK_SHARE) {
          doomed.add(c);
          continue;
        }
        acc.text += m.text;
        acc.link += m.link;
      }
    }
    removeChildren(el, doomed);
    return acc;
  };
  visit(root, false);
}
