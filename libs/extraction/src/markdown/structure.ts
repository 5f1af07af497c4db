/**
 * Reshapes the selected content where Markdown cannot say what the HTML says, so that the converter writes Markdown
 * instead of raw HTML or words run together. Runs on the content just before the Markdown step; every change keeps
 * the same words, and blocks stay blocks, so the page's text is unchanged:
 * - a link wrapped around blocks (a card: image, heading, summary) becomes the same link inside each of them (Markdown
 *   link text is inline: the converter otherwise leaves `<h2>` tags inside the link);
 * - a heading where Markdown cannot have one — in a table cell, or after other content in a list item — becomes a
 *   line of bold text;
 * - blocks side by side in a table cell, or in a list item where the converter would run them together, are kept apart
 *   by line breaks (`4.35 ratings<br>score`, not `ratingsscore`);
 * - two inline elements side by side with nothing between them (a facet's label and its count) get a space, as in the
 *   page's text: they are two boxes the page's styles lay out apart;
 * - `mark`, `u` and `ins`, which Markdown has no syntax for, give their content only;
 * - definition lists, which it has no syntax for either, become lists (#./definition-lists);
 * - the line breaks that end a `<pre>` go: the converter would print them as an empty last line of the code block.
 */
import {
  BLOCK_TAGS,
  type Element,
  HEADING_TAGS,
  Text,
  contains,
  findAll,
  findFirst,
  hasAncestor,
  holdsBlock,
  isTag,
  isText,
  relink,
  createElement as element,
  replaceWith,
  visible,
  type ChildNode,
  type ParentNode,
} from '../dom.js';
import { definitionListsAsLists } from './definition-lists.js';

const UNWRAPPED = new Set(['mark', 'u', 'ins']);
const CELLS = new Set(['td', 'th']);
/** Blocks the converter sets apart inside a list item by itself; other blocks there (div, section…) run together. */
const SET_APART_IN_ITEM = new Set(['p', 'ul', 'ol', 'dl', 'blockquote', 'pre', 'table', 'figure', 'hr', ...HEADING_TAGS]);
/** Elements whose block children are rows, cells or items, not blocks of text. */
const STRUCTURAL = new Set(['table', 'thead', 'tbody', 'tfoot', 'tr', 'ul', 'ol', 'dl', 'menu']);
/** Where adjacent inline elements are one piece of code or preformatted text, not boxes. */
const VERBATIM = new Set(['pre', 'code', 'kbd', 'samp', 'textarea']);

export function shapeForMarkdown(roots: ParentNode[]): void {
  for (const root of roots) {
    for (const el of findAll(root, (e) => UNWRAPPED.has(e.name))) replaceWith(el, el.children);
    definitionListsAsLists(root);
    // Outermost first: a link inside a distributed link's content is met (and left alone) later.
    for (const link of findAll(root, (e) => e.name === 'a' && holdsBlock(e))) {
      if (link.parent) replaceWith(link, distribute(link.children, link));
    }
    for (const heading of findAll(root, (e) => HEADING_TAGS.has(e.name))) {
      if (hasAncestor(heading, (e) => CELLS.has(e.name))) replaceWith(heading, [element('p', {}, [element('strong', {}, heading.children)])]);
      // In a list item the converter runs blocks after the first together: line breaks keep the heading a line.
      else if (followsContentInItem(heading)) {
        const last = endsItem(heading);
        const line = [element('br', {}, []), element('strong', {}, heading.children)];
        if (!last) line.push(element('br', {}, []));
        replaceWith(heading, line);
      }
    }
    separateRunTogetherBlocks(root, undefined);
    spaceInlineNeighbours(root);
    for (const pre of findAll(root, (e) => e.name === 'pre')) trimEndingLineBreaks(pre);
  }
}

const isBlock = (node: ChildNode): node is Element => isTag(node) && BLOCK_TAGS.has(node.name);


/** `link`'s content with the link moved inside: around each run of inline content and inside each block. */
function distribute(children: ChildNode[], link: Element): ChildNode[] {
  const out: ChildNode[] = [];
  let run: ChildNode[] = [];
  const flush = (): void => {
    // A run holding a link of its own is left unlinked: Markdown links do not nest.
    if (run.some(visible) && !run.some((n) => isTag(n) && (n.name === 'a' || findFirst(n, (e) => e.name === 'a') !== undefined))) {
      out.push(element('a', { ...link.attribs }, run));
    } else out.push(...run);
    run = [];
  };
  for (const child of children) {
    if (!isBlock(child)) {
      run.push(child);
      continue;
    }
    flush();
    relink(child, distribute(child.children, link));
    out.push(child);
  }
  flush();
  return out;
}

function itemOf(node: ChildNode): Element | undefined {
  for (let p = node.parent; p; p = p.parent) if (isTag(p) && p.name === 'li') return p;
  return undefined;
}

/** A heading inside a list item with content before it: Markdown would print its `###` inline. */
function followsContentInItem(heading: Element): boolean {
  const item = itemOf(heading);
  const first = item && edgeVisible(item, false);
  return first !== undefined && !isWithin(first, heading);
}

/** Nothing visible follows the heading in its list item. */
function endsItem(heading: Element): boolean {
  const item = itemOf(heading);
  const last = item && edgeVisible(item, true);
  return last === undefined || isWithin(last, heading);
}

/** The first (or last) text or image under `root`. */
function edgeVisible(root: ParentNode, last: boolean): ChildNode | undefined {
  const children = last ? [...root.children].reverse() : root.children;
  for (const child of children) {
    if (isText(child) && child.data.trim() !== '') return child;
    if (!isTag(child)) continue;
    if (child.name === 'img') return child;
    const inner = edgeVisible(child, last);
    if (inner) return inner;
  }
  return undefined;
}

function isWithin(node: ChildNode, ancestor: Element): boolean {
  return node !== ancestor && contains(ancestor, node);
}

/**
 * In a table cell or a list item the converter writes blocks at any depth as one run of text: line breaks keep them
 * apart (in a cell all of them; in an item those it does not set apart itself).
 */
function separateRunTogetherBlocks(node: ParentNode, runTogether: ((block: Element) => boolean) | undefined): void {
  for (const child of node.children) {
    if (!isTag(child)) continue;
    const inner = CELLS.has(child.name) ? allBlocks : child.name === 'li' ? (runTogether ?? itemBlocks) : runTogether;
    // A table's rows and cells, a list's items: the converter lays those out itself.
    if (inner && !STRUCTURAL.has(child.name)) separateBlocks(child, inner);
    separateRunTogetherBlocks(child, inner);
  }
}

const allBlocks = (): boolean => true;
const itemBlocks = (block: Element): boolean => !SET_APART_IN_ITEM.has(block.name);

/** Line breaks before the blocks of `container` (a table cell, a list item) that the converter would run together. */
function separateBlocks(container: Element, runTogether: (block: Element) => boolean): void {
  const children = container.children;
  let out: ChildNode[] | undefined;
  let seenContent = false;
  for (let i = 0; i < children.length; i++) {
    const child = children[i]!;
    if (!seenContent) seenContent = visible(child);
    else if (isBlock(child) && runTogether(child) && visible(child)) (out ??= children.slice(0, i)).push(element('br', {}, []));
    out?.push(child);
  }
  if (out) relink(container, out);
}

const isInline = (node: ChildNode): node is Element => isTag(node) && !BLOCK_TAGS.has(node.name) && node.name !== 'br' && node.name !== 'wbr';

/**
 * Spaces the converter would lose, put where the page's text has them:
 * - between two inline elements with nothing between them where a word ends before and one starts after, as
 *   `renderText` does: `<label>Adhesives</label><span>704</span>` in a flex row reads "Adhesives 704", and the
 *   converter would write "Adhesives704". Punctuation stays attached, text that runs into an element (a drop cap, a
 *   price's cents) stays joined, and code keeps its spans as they are;
 * - an inline element holding only whitespace (`uncertainty.<em> </em>Cybersecurity`) is that space.
 * A link with no text and no image loses its `title`, which the converter would print as the link's text (an icon's
 * "Share on Facebook"); the empty link is then dropped, as the page's text has nothing there.
 */
function spaceInlineNeighbours(node: ParentNode): void {
  let spaced: ChildNode[] | undefined;
  /** The last character of the inline elements just before (empty ones are passed over), if any. */
  let before: string | undefined;
  const children = node.children;
  for (let i = 0; i < children.length; i++) {
    let child = children[i]!;
    if (isInline(child)) {
      const first = edgeChar(child, false);
      if (first !== undefined && first.trim() === '' && onlyWhitespace(child)) {
        child = new Text(' ');
        spaced ??= children.slice(0, i);
      } else {
        if (before !== undefined && first !== undefined && WORD_CHAR.test(before) && WORD_CHAR.test(first)) {
          (spaced ??= children.slice(0, i)).push(new Text(' '));
        }
        before = edgeChar(child, true) ?? before;
        if (first === undefined && child.name === 'a' && child.attribs.title !== undefined && !findFirst(child, (e) => e.name === 'img')) {
          delete child.attribs.title;
        }
      }
    }
    if (!isInline(child)) before = undefined;
    spaced?.push(child);
    if (isTag(child) && !VERBATIM.has(child.name)) spaceInlineNeighbours(child);
  }
  if (spaced) relink(node, spaced);
}

/** Text under `el` is all whitespace, and nothing else shows (no image, no line break). */
function onlyWhitespace(el: Element): boolean {
  return el.children.every((c) => (isText(c) ? c.data.trim() === '' : isTag(c) ? c.name !== 'img' && c.name !== 'br' && onlyWhitespace(c) : true));
}

const WORD_CHAR = /[\p{L}\p{N}]/u;

/** The first (or last) character of the text under `el`, or undefined if it has none. */
function edgeChar(el: Element, last: boolean): string | undefined {
  const children = el.children;
  for (let i = last ? children.length - 1 : 0; last ? i >= 0 : i < children.length; i += last ? -1 : 1) {
    const child = children[i]!;
    if (isText(child) && child.data.length > 0) return last ? child.data[child.data.length - 1] : child.data[0];
    if (isTag(child)) {
      const inner = edgeChar(child, last);
      if (inner !== undefined) return inner;
    }
  }
  return undefined;
}

/** Removes the line breaks at the end of `el`'s text (in its last text node, through the elements that end it). */
function trimEndingLineBreaks(el: Element): void {
  for (let node: ChildNode | undefined = el.children[el.children.length - 1]; node; ) {
    if (isText(node)) {
      node.data = node.data.replace(/[\r\n]+$/, '');
      if (node.data !== '') return;
      node = node.prev ?? undefined;
    } else if (isTag(node)) {
      if (node.name === 'br' || node.children.length === 0) return;
      node = node.children[node.children.length - 1];
    } else node = node.prev ?? undefined;
  }
}
