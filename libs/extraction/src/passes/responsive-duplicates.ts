/**
 * Responsive duplicates: a page that renders one block twice, once per breakpoint (a desktop comparison table and its
 * mobile cards, a marquee copied for small screens), and lets CSS show one of them. Both copies reach the text, which
 * then says everything twice. A block whose class marks it for some screen sizes only (`hide-for-mobile`,
 * `hidden-xs`, `visible-lg`, `d-md-none`, `mobile-only`) and whose text repeats another block's is the other copy:
 * the first in document order stays. So is a block whose class names a screen in any other form (`plan__mobileCopy`,
 * `slide mobile`, `tablet`) when the block it repeats names another screen, or none: a card template that says
 * `is-size-7-mobile` on every card repeats its own class, and its copies are entries of a list, not variants.
 */
import { BLOCK_TAGS, contains, holdsBlock, isTag, removeNode, textContent, type Element, type ParentNode } from '../dom.js';
import { everyPage, type Pass } from './pass.js';

export const responsiveDuplicates: Pass = {
  name: 'responsive-duplicates',
  stage: 'content',
  appliesTo: everyPage,
  run: ({ roots }) => removeResponsiveDuplicates(roots),
};

export const repeatedBlocks: Pass = {
  name: 'repeated-blocks',
  stage: 'content',
  // A shop prints some blocks twice (per breakpoint, in a sticky bar or a drawer): one copy is the product's.
  appliesTo: (p) => p.selectAs === 'product',
  run: ({ roots }) => removeRepeatedBlocks(roots),
};

/**
 * Class tokens that show or hide a block by screen size. `ssr-variant` is how a site builder marks each of the
 * per-breakpoint variants it server-renders (the browser's script keeps one).
 */
const RESPONSIVE_RE =
  /(?:^|[\s_-])(?:(?:hide|hidden|visible|show|only)[-_]+(?:for[-_]+|on[-_]+)?(?:mobile|desktop|tablet|phone|xs|sm|md|lg|xl|xxl|small|medium|large|lt[-_]\w+|gt[-_]\w+)|(?:mobile|desktop|tablet)[-_]+(?:only|hidden|hide|version|view)|d-(?:xs|sm|md|lg|xl)-none|ssr-variant)(?=$|[\s_-])/i;
/** A screen named anywhere in a class attribute. */
const SCREEN_RE = /mobile|desktop|tablet/g;

/** The screens a block's class names, as one key ('' when none). */
function screens(el: Element): string {
  const names = (el.attribs.class ?? '').toLowerCase().match(SCREEN_RE);
  return names ? [...new Set(names)].sort().join(' ') : '';
}

/** Text a copy needs before two blocks count as the same (short labels repeat legitimately). */
const MIN_DUPLICATE_TEXT = 40;

const squash = (el: Element): string => textContent(el).replace(/\s+/g, ' ').trim().toLowerCase();

/** Remove the later copies of responsive blocks from `nodes`, in place. */
export function removeResponsiveDuplicates(nodes: ParentNode[]): void {
  const marked: Element[] = [];
  const walk = (n: ParentNode): void => {
    for (const c of n.children) {
      if (!isTag(c)) continue;
      if (RESPONSIVE_RE.test(c.attribs.class ?? '') || screens(c) !== '') marked.push(c);
      walk(c);
    }
  };
  for (const n of nodes) walk(n);
  if (marked.length === 0) return;
  const seen = new Map<string, Element>();
  const all: Element[] = [];
  const collect = (n: ParentNode): void => {
    for (const c of n.children) {
      if (!isTag(c)) continue;
      all.push(c);
      collect(c);
    }
  };
  for (const n of nodes) collect(n);
  const markedSet = new Set(marked);
  const doomed: Element[] = [];
  for (const el of all) {
    const text = squash(el);
    if (text.length < MIN_DUPLICATE_TEXT) continue;
    const first = seen.get(text);
    // A wrapper has the text of the block it wraps: the same copy, not another.
    const variant = markedSet.has(el) && (RESPONSIVE_RE.test(el.attribs.class ?? '') || (first !== undefined && screens(first) !== screens(el)));
    if (first && !contains(first, el) && variant && !doomed.some((d) => contains(d, el))) doomed.push(el);
    else if (!first) seen.set(text, el);
  }
  for (const el of doomed) removeNode(el);
}

/**
 * Remove the later copies of repeated text blocks from `nodes`, in place, whatever their class names: a shop prints its
 * product's blocks more than once (for each breakpoint, in a sticky bar, in a quick-view drawer), and the product's
 * own text never says the same paragraph twice. Compared block by block at the innermost blocks (paragraphs, list
 * items, headings, cells), so a section printed twice goes piece by piece and a block repeated inside the first copy
 * is still seen.
 */
export function removeRepeatedBlocks(nodes: ParentNode[]): void {
  const seen = new Set<string>();
  const doomed: Element[] = [];
  const walk = (n: ParentNode): void => {
    for (const c of n.children) {
      if (!isTag(c)) continue;
      if (BLOCK_TAGS.has(c.name) && !holdsBlock(c)) {
        const text = squash(c);
        if (text.length < MIN_DUPLICATE_TEXT) continue;
        if (seen.has(text)) doomed.push(c);
        else seen.add(text);
      } else walk(c);
    }
  };
  for (const n of nodes) walk(n);
  for (const el of doomed) removeNode(el);
}
