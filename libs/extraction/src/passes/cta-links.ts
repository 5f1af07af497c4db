/**
 * Call-to-action links on a widened service page: a button-like link standing alone in its block ("Learn more",
 * "Get started", "Contact sales"), a few words that lead elsewhere. In an article the same words sit inside a
 * sentence; on a marketing page they close each section, and the section's text is the content, not its button.
 * A link is a call to action when it holds at most a few words and nothing but it stands in its block — its nearest
 * block ancestor, through any inline wrapper (`<dt><span class="chapter"><a>`, as DocBook writes a table of contents)
 * — list items, table cells and terms excepted: there a lone link is an entry of a list.
 */
import { BLOCK_TAGS, holdsBlock, isTag, removeChildren, textContent, type ChildNode, type Element } from '../dom.js';
import type { Pass } from './pass.js';

export const callsToAction: Pass = {
  name: 'calls-to-action',
  stage: 'region',
  // A service page's lone short links are its buttons (on one read like an article too).
  appliesTo: (p) => p.selectAs === 'service',
  run: ({ roots }) => roots.filter(isTag).forEach(removeCallsToAction),
};

/** Words from which a lone link reads as a label or a title rather than a button. */
const MAX_CTA_WORDS = 3;
const ENTRY_TAGS = new Set(['li', 'td', 'th', 'dd', 'dt']);

const words = (s: string): number => s.split(/\s+/).filter(Boolean).length;
const squash = (el: Element): string => textContent(el).replace(/\s+/g, ' ').trim();

/** Remove lone call-to-action links from `root`, in place. */
export function removeCallsToAction(root: Element): void {
  // `block`: the nearest block element at or above `el` (the root when there is none), whose text a lone link fills.
  const visit = (el: Element, block: Element): void => {
    const doomed = new Set<ChildNode>();
    let blockText: string | undefined; // the block's own text, read once however many links it holds
    for (const c of el.children) {
      if (!isTag(c)) continue;
      // A link wrapping blocks (a card made clickable) is the card, not a button.
      if (c.name === 'a' && !ENTRY_TAGS.has(block.name) && !holdsBlock(c)) {
        const text = squash(c);
        if (text && words(text) <= MAX_CTA_WORDS && (blockText ??= squash(block)) === text) doomed.add(c);
        continue;
      }
      visit(c, BLOCK_TAGS.has(c.name) ? c : block);
    }
    removeChildren(el, doomed);
  };
  visit(root, root);
}
