/**
 * Placeholder copy: a theme's unused components still carry their "Lorem ipsum dolor sit amet…" filler (hidden by the
 * site's CSS, or simply never filled in). It is never content, and neither is the block that holds little else (the
 * card with its "Heading Line" and "Register" button). A page that is mostly filler is a template or a test page
 * whose filler is what it shows: it stays.
 */
import { isTag, isText, removeNode, textContent, textLengthUpTo, type Document, type Element, type ParentNode, type Text } from '../dom.js';

const FILLER = /^\s*lorem ipsum dolor sit amet\b/i;
/** Share of a block's text the filler must make up for the whole block to go. */
const FILLER_SHARE = 0.6;
/** Share of the page's words from the filler's vocabulary above which the filler is the page. */
const FILLER_PAGE_SHARE = 0.2;
const FILLER_WORDS = new Set(
  ('lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor incididunt ut labore et dolore magna aliqua enim ad ' +
    'minim veniam quis nostrud exercitation ullamco laboris nisi aliquip ex ea commodo consequat duis aute irure in reprehenderit ' +
    'voluptate velit esse cillum fugiat nulla pariatur excepteur sint occaecat cupidatat non proident sunt culpa qui officia deserunt ' +
    'mollit anim id est laborum').split(' '),
);

function mostlyFiller(doc: Document): boolean {
  const words = textContent(doc).toLowerCase().match(/\p{L}+/gu) ?? [];
  return words.filter((w) => FILLER_WORDS.has(w)).length > words.length * FILLER_PAGE_SHARE;
}

export function removePlaceholderText(doc: Document): void {
  const hits: Text[] = [];
  const walk = (p: ParentNode): void => {
    for (const c of p.children) {
      if (isText(c)) {
        if (FILLER.test(c.data)) hits.push(c);
      } else if (isTag(c)) walk(c);
    }
  };
  walk(doc);
  if (hits.length === 0) return;
  if (mostlyFiller(doc)) return;
  for (const text of hits) {
    if (!text.parent) continue; // went with an earlier hit's block
    const filler = text.data.trim().length;
    let block: Element | undefined = isTag(text.parent) ? text.parent : undefined;
    while (block?.parent && isTag(block.parent) && block.parent.name !== 'body' && textLengthUpTo(block.parent, filler / FILLER_SHARE + 1) <= filler / FILLER_SHARE) {
      block = block.parent;
    }
    removeNode(block ?? text);
  }
}
