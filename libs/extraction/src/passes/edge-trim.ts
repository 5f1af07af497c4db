/**
 * The edges of a selected article hold what its container also holds: before the text, a date line, a category
 * link, a kicker; after it, "further reading" headings, link lists to other articles, "Contact:" / "More topics:"
 * labels whose content was removed, teaser links. Such blocks are recognised by shape, not by words: a heading with
 * no text after it, a block that is mostly link text, a label ending in a colon, a bare date. Trimming walks in
 * from each end over the innermost blocks and stops at the first one that reads like body text, so nothing between
 * two paragraphs of the article is touched.
 */
import { BLOCK_TAGS, HEADING_TAGS, isTag, isText, removeNode, squashedLength, type AnyNode, type Element } from '../dom.js';
import { everyPage, type Pass } from './pass.js';

export const edgeTrim: Pass = {
  name: 'edge-trim',
  stage: 'pick',
  appliesTo: everyPage,
  run: ({ roots }) => trimEdges(roots.filter(isTag)),
};

/** The widened region's edges hold the same teasers and date lines as a pick's. */
export const regionEdgeTrim: Pass = {
  name: 'region-edge-trim',
  stage: 'region',
  appliesTo: everyPage,
  run: ({ roots }) => trimEdges(roots.filter(isTag)),
};

/** Tags treated as one unit (never descended into): their inside is structure, not a sequence of blocks. */
const UNIT_TAGS = new Set(['table', 'pre', 'figure', 'ul', 'ol', 'dl']);
/** At most this many blocks, and this share of the content's text, are trimmed from each end. */
const MAX_TRIMMED = 8;
const MAX_TRIMMED_SHARE = 0.2;
/** A block at most this long that is mostly links is a teaser or a link to another page. */
const MAX_LINK_BLOCK = 300;
const DATE_ONLY_RE =
  /^(?:(?:am|on|le|el|il|dne|vom|updated|aktualisiert|published|veröffentlicht|posted)\s*:?\s*)?(?:\d{1,4}[./-]\s?\d{1,2}[./-]\s?\d{1,4}|\d{1,2}\.?\s+\p{L}{3,12}\.?\s+\d{4}|\p{L}{3,12}\.?\s+\d{1,2},?\s+\d{4}|\d{1,2}\.\s+\p{L}{3,12}|\p{L}{3,12}\s+\d{4})(?:[\s,|-]+(?:\d{1,2}[:.]\d{2}(?:\s*(?:uhr|h|am|pm))?))?$/iu;
/** A publication stamp: "Published Tue, Nov 19 2019 7:05 AM EST Updated …". */
const STAMP_RE =
  /^(?:published|updated|posted|last updated|veröffentlicht|aktualisiert|erschienen|stand|publié|mis à jour|publicado|actualizado|pubblicato|aggiornato|opublikowano)\b/i;
const TIME_ONLY_RE = /^\d{1,2}:\d{2}(?:\s*(?:uhr|h|am|pm))?$/i;

interface Block {
  el: Element;
  text: string;
  link: number;
  /** loose text of a container that also holds blocks: body text, never trimmed */
  loose?: boolean;
}

function measure(node: AnyNode, inLink: boolean, acc: { text: string; link: number }): void {
  if (isText(node)) {
    acc.text += node.data;
    if (inLink) acc.link += squashedLength(node.data);
  } else if (isTag(node)) {
    if (node.name === 'br') acc.text += ' ';
    for (const c of node.children) measure(c, inLink || node.name === 'a', acc);
  }
}

function hasBlockChild(el: Element): boolean {
  for (const c of el.children) if (isTag(c) && (BLOCK_TAGS.has(c.name) || UNIT_TAGS.has(c.name))) return true;
  return false;
}

/** The innermost blocks of `nodes` in document order, with their text; loose text between blocks counts as one. */
function leafBlocks(nodes: Element[]): Block[] {
  const out: Block[] = [];
  const visit = (el: Element): void => {
    if (UNIT_TAGS.has(el.name) || HEADING_TAGS.has(el.name) || !hasBlockChild(el)) {
      const acc = { text: '', link: 0 };
      measure(el, el.name === 'a', acc);
      const text = acc.text.replace(/\s+/g, ' ').trim();
      if (text || el.name === 'img') out.push({ el, text, link: acc.link });
      return;
    }
    for (const c of el.children) {
      if (isTag(c)) visit(c);
      else if (isText(c) && c.data.trim()) {
        // Loose text in a container that also has blocks: body text; it ends any trimming walk.
        out.push({ el, text: c.data.replace(/\s+/g, ' ').trim(), link: 0, loose: true });
      }
    }
  };
  for (const n of nodes) visit(n);
  return out;
}

function linkShare(b: Block): number {
  return b.text.length === 0 ? 0 : b.link / b.text.length;
}

/** Blocks that never belong at the end of an article body. */
function isTrailingJunk(b: Block): boolean {
  if (b.text.length === 0 || b.loose) return false;
  // Nothing follows it (what followed was trimmed already): a heading of nothing.
  if (HEADING_TAGS.has(b.el.name)) return true;
  if (b.text.length <= MAX_LINK_BLOCK && linkShare(b) >= 0.6) return true;
  if (b.text.length <= 60 && b.text.endsWith(':')) return true;
  return isDateLine(b.text);
}

/** Blocks that never belong at the start of an article body (the headline is handled by the caller). */
function isLeadingJunk(b: Block): boolean {
  if (b.text.length === 0 || b.loose) return false;
  if (isDateLine(b.text)) return true;
  return b.text.length <= 80 && linkShare(b) >= 0.9 && !HEADING_TAGS.has(b.el.name);
}

function isDateLine(text: string): boolean {
  if (text.length <= 40 && (DATE_ONLY_RE.test(text) || TIME_ONLY_RE.test(text))) return true;
  return text.length <= 90 && STAMP_RE.test(text) && /\d/.test(text);
}

/** Remove an emptied block and the wrappers it leaves empty, up to (not including) the selected roots. */
function removeBlock(el: Element, roots: Set<Element>): void {
  let node: Element = el;
  while (node.parent && isTag(node.parent) && !roots.has(node.parent) && node.parent.children.filter((c) => c !== node && (isTag(c) || (isText(c) && c.data.trim()))).length === 0) {
    node = node.parent;
  }
  if (!roots.has(node)) removeNode(node);
}

/** Trim boilerplate blocks from both edges of the selected content, in place. Returns the roots still holding text. */
export function trimEdges(nodes: Element[]): Element[] {
  const blocks = leafBlocks(nodes);
  const total = blocks.reduce((a, b) => a + b.text.length, 0);
  if (blocks.length < 3 || total === 0) return nodes;
  const roots = new Set(nodes);
  const budget = total * MAX_TRIMMED_SHARE;
  const doomed: Block[] = [];
  let spent = 0;
  let end = blocks.length - 1;
  for (let n = 0; end > 0 && n < MAX_TRIMMED; n++, end--) {
    const b = blocks[end];
    if (b.text.length === 0) continue; // an image: kept, and no reason to stop
    if (roots.has(b.el) || !isTrailingJunk(b) || spent + b.text.length > budget) break;
    doomed.push(b);
    spent += b.text.length;
  }
  for (let start = 0, n = 0; start < end && n < MAX_TRIMMED; n++, start++) {
    const b = blocks[start];
    // Images and the headline are kept, and the walk goes on past them to the date line under the headline.
    if (b.text.length === 0 || (HEADING_TAGS.has(b.el.name) && !roots.has(b.el))) continue;
    // A teaser repeated, in another container, as the first paragraph of the body (a header dek and the text).
    const repeated = b.text.length >= 40 && !b.loose && blocks.slice(start + 1, start + 4).some((x) => x.text === b.text && x.el.parent !== b.el.parent);
    if (roots.has(b.el) || !(repeated || isLeadingJunk(b)) || spent + b.text.length > budget) break;
    doomed.push(b);
    spent += b.text.length;
  }
  for (const b of doomed) removeBlock(b.el, roots);
  return nodes;
}
