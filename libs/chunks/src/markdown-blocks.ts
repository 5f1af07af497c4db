/**
 * A line scanner that cuts Markdown into top-level blocks: headings, paragraphs, lists (with their items), block
 * quotes, HTML blocks, fenced code and GFM tables. Only block boundaries matter for chunking, so inline syntax is
 * left alone; one pass over the lines with anchored patterns keeps it linear on any input (a full CommonMark
 * parser blew its stack on a 10 MB single-line page and took 250 ms/MB on ordinary ones).
 */

export type BlockKind = 'heading' | 'paragraph' | 'list' | 'quote' | 'html' | 'code' | 'table';

export interface Block {
  kind: BlockKind;
  /** The block's Markdown source, trimmed. */
  text: string;
  /** Heading level (1-6), for headings only. */
  depth?: number;
  /** A list's items (their Markdown source), for lists only. */
  items?: string[];
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const ATX = /^ {0,3}(#{1,6})(?:[ \t]+|$)(.*)$/;
const SETEXT = /^ {0,3}(=+|-+)[ \t]*$/;
const RULE = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/;
const QUOTE = /^ {0,3}>/;
const ITEM = /^( {0,3})(?:[-+*]|\d{1,9}[.)])(?:[ \t]|$)/;
const HTML = /^ {0,3}<(?:[a-zA-Z][\w-]*|\/[a-zA-Z]|!--)/;
const TABLE_DELIMITER = /^ {0,3}\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*$/;
const BLANK = /^[ \t]*$/;
/** Longer heading text is cut: a heading path is context, not content. */
const MAX_HEADING_CHARS = 300;

function isBlank(line: string | undefined): boolean {
  return line === undefined || BLANK.test(line);
}

function startsTable(lines: string[], i: number): boolean {
  const next = lines[i + 1];
  return lines[i].includes('|') && next !== undefined && next.includes('-') && TABLE_DELIMITER.test(next) && (next.includes('|') || lines[i].trim().startsWith('|'));
}

/** Does this line open a block that ends a paragraph before it? */
function interrupts(lines: string[], i: number): boolean {
  const line = lines[i];
  return FENCE.test(line) || ATX.test(line) || QUOTE.test(line) || RULE.test(line) || ITEM.test(line) || startsTable(lines, i);
}

export function scanBlocks(markdown: string): Block[] {
  const lines = markdown.replace(/\r\n?/g, '\n').split('\n');
  const blocks: Block[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    if (isBlank(line)) {
      i++;
      continue;
    }
    const fence = FENCE.exec(line);
    if (fence) {
      i = scanFence(lines, i, fence[1], blocks);
      continue;
    }
    const atx = ATX.exec(line);
    if (atx) {
      blocks.push({ kind: 'heading', depth: atx[1].length, text: plainInline(atx[2].slice(0, MAX_HEADING_CHARS).replace(/[ \t]+#+[ \t]*$/, '').replace(/^#+$/, '')) });
      i++;
      continue;
    }
    if (RULE.test(line)) {
      i++;
      continue;
    }
    if (startsTable(lines, i)) {
      const start = i;
      i += 2;
      while (i < lines.length && !isBlank(lines[i]) && lines[i].includes('|')) i++;
      blocks.push({ kind: 'table', text: lines.slice(start, i).join('\n').trim() });
      continue;
    }
    if (QUOTE.test(line)) {
      const start = i;
      while (i < lines.length && !isBlank(lines[i]) && (QUOTE.test(lines[i]) || !interrupts(lines, i))) i++;
      blocks.push({ kind: 'quote', text: lines.slice(start, i).join('\n').trim() });
      continue;
    }
    if (ITEM.test(line)) {
      i = scanList(lines, i, blocks);
      continue;
    }
    if (HTML.test(line)) {
      const start = i;
      while (i < lines.length && !isBlank(lines[i])) i++;
      blocks.push({ kind: 'html', text: lines.slice(start, i).join('\n').trim() });
      continue;
    }
    i = scanParagraph(lines, i, blocks);
  }
  return blocks;
}

function scanFence(lines: string[], start: number, marker: string, blocks: Block[]): number {
  const close = new RegExp(`^ {0,3}${marker[0] === '`' ? '`' : '~'}{${marker.length},}[ \\t]*$`);
  let i = start + 1;
  while (i < lines.length && !close.test(lines[i])) i++;
  const end = Math.min(i + 1, lines.length); // an unclosed fence runs to the end of the document
  blocks.push({ kind: 'code', text: lines.slice(start, end).join('\n').trim() });
  return end;
}

function scanParagraph(lines: string[], start: number, blocks: Block[]): number {
  let i = start + 1;
  while (i < lines.length && !isBlank(lines[i])) {
    const setext = SETEXT.exec(lines[i]);
    if (setext) {
      const text = lines.slice(start, i).join(' ').slice(0, MAX_HEADING_CHARS);
      blocks.push({ kind: 'heading', depth: setext[1][0] === '=' ? 1 : 2, text: plainInline(text) });
      return i + 1;
    }
    if (interrupts(lines, i)) break;
    i++;
  }
  blocks.push({ kind: 'paragraph', text: lines.slice(start, i).join('\n').trim() });
  return i;
}

/** A list runs over its items, their indented continuation lines and lazy lines, across single blank lines. */
function scanList(lines: string[], start: number, blocks: Block[]): number {
  const items: string[] = [];
  let itemStart = start;
  let i = start + 1;
  const baseIndent = ITEM.exec(lines[start])![1].length;
  const isSibling = (line: string) => {
    const m = ITEM.exec(line);
    return m !== null && m[1].length <= baseIndent;
  };
  while (i < lines.length) {
    const line = lines[i];
    if (isBlank(line)) {
      let next = i + 1;
      while (next < lines.length && isBlank(lines[next])) next++;
      const following = lines[next];
      if (following === undefined || !(isSibling(following) || /^(?: {2,}|\t)/.test(following))) break;
      i = next;
      continue;
    }
    if (isSibling(line)) {
      items.push(lines.slice(itemStart, i).join('\n').trim());
      itemStart = i;
    } else if (!/^(?: {2,}|\t)/.test(line) && interrupts(lines, i) && !ITEM.test(line)) break;
    i++;
  }
  let end = i;
  while (end > itemStart && isBlank(lines[end - 1])) end--;
  items.push(lines.slice(itemStart, end).join('\n').trim());
  blocks.push({ kind: 'list', text: lines.slice(start, end).join('\n').trim(), items });
  return i;
}

/** Heading text without inline Markdown: link and image text kept, emphasis, code marks, tags and escapes dropped. */
export function plainInline(text: string): string {
  return text
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<(https?:[^>\s]+)>/g, '$1')
    .replace(/<\/?[a-zA-Z][^>]*>/g, '')
    .replace(/(\*\*|__|\*|~~|`)/g, '')
    .replace(/\\([\\`*_{}[\]()#+\-.!|>~])/g, '$1')
    .replace(/\s+/g, ' ')
    .trim();
}
