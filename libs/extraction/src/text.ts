/**
 * Plain-text rendering of a DOM fragment, roughly what a browser's innerText gives: inline whitespace collapsed,
 * blocks separated by blank lines, list items and table rows on their own lines, table cells separated by spaces.
 */
import { BLOCK_TAGS, isTag, isText, type AnyNode } from './dom.js';

const SKIP = new Set(['script', 'style', 'noscript', 'template', 'head', 'svg', 'iframe', 'button', 'select', 'option', 'textarea']);
const SINGLE_BREAK = new Set(['li', 'tr', 'dt', 'dd', 'option', 'figcaption', 'caption']);

const SPACE_RUN_RE = /[ \t\n\r\f\u00a0]+/g;
const BREAKING_SPACE_RUN_RE = /[ \t\n\r\f]+/g;
const WORD_END_RE = /[\p{L}\p{N}]$/u;
const WORD_START_RE = /^[\p{L}\p{N}]/u;

/**
 * Whether collapsing would change `s`: it holds a tab, a line break, a form feed, a no-break space or two spaces in a
 * row. Most text nodes are words between single spaces, and the replace would copy each of them unchanged.
 */
function hasSpaceRun(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x20) {
      if (s.charCodeAt(i + 1) === 0x20) return true;
    } else if (c === 0x09 || c === 0x0a || c === 0x0c || c === 0x0d || c === 0xa0) return true;
  }
  return false;
}

class TextWriter {
  private out: string[] = [];
  /** pending separator: 0 none, 1 space, 2 newline, 3 blank line */
  private pending = 0;
  private atStart = true;
  /** a space only if the words on both sides would otherwise run together (see `soft`) */
  private softSpace = false;

  text(s: string): void {
    if (s.length === 0) return;
    // A lone no-break space stays one (it binds "10 km"); a run of spaces of either kind becomes one space.
    const collapsed = !hasSpaceRun(s) ? s : s.includes('\u00a0') ? s.replace(SPACE_RUN_RE, (m) => (m === '\u00a0' ? m : ' ')) : s.replace(BREAKING_SPACE_RUN_RE, ' ');
    if (collapsed === ' ' || collapsed === '\u00a0') {
      if (this.pending < 1) this.pending = 1;
      return;
    }
    let body = collapsed;
    if (body.startsWith(' ')) {
      if (this.pending < 1) this.pending = 1;
      body = body.slice(1);
    }
    let trailing = false;
    if (body.endsWith(' ')) {
      trailing = true;
      body = body.slice(0, -1);
    }
    if (this.softSpace && this.pending === 0 && WORD_END_RE.test(this.out[this.out.length - 1] ?? '') && WORD_START_RE.test(body)) this.pending = 1;
    this.flush();
    this.out.push(body);
    this.atStart = false;
    if (trailing) this.pending = 1;
  }

  /** Between two boxes: a space if a word ends before and one starts after, nothing before punctuation. */
  soft(): void {
    this.softSpace = true;
  }

  pre(s: string): void {
    this.softSpace = false;
    this.flush();
    this.out.push(s);
    this.atStart = false;
  }

  brk(level: number): void {
    if (level > this.pending) this.pending = level;
  }

  private flush(): void {
    this.softSpace = false;
    if (!this.atStart) {
      if (this.pending === 1) this.out.push(' ');
      else if (this.pending === 2) this.out.push('\n');
      else if (this.pending === 3) this.out.push('\n\n');
    }
    this.pending = 0;
  }

  toString(): string {
    return this.out.join('');
  }
}

function walk(node: AnyNode, w: TextWriter, inPre: boolean): void {
  if (isText(node)) {
    if (inPre) w.pre(node.data);
    else w.text(node.data);
    return;
  }
  if (!isTag(node)) {
    if ('children' in node) for (const c of (node as { children: AnyNode[] }).children) walk(c, w, inPre);
    return;
  }
  const name = node.name;
  if (SKIP.has(name)) return;
  if (name === 'br') {
    w.brk(2);
    return;
  }
  if (name === 'hr') {
    w.brk(3);
    return;
  }
  if (name === 'td' || name === 'th') {
    w.brk(1);
    for (const c of node.children) walk(c, w, inPre);
    w.brk(1);
    return;
  }
  const block = BLOCK_TAGS.has(name);
  const level = SINGLE_BREAK.has(name) ? 2 : 3;
  if (block) w.brk(level);
  const pre = inPre || name === 'pre' || name === 'textarea';
  // Two inline elements side by side with nothing between them are two boxes (a facet's label and its count, a
  // card's badge and its name), laid out apart by the page's styles: a space keeps their words apart. Text that runs
  // into an element (a drop cap, a price's cents) is one word and stays joined.
  let afterInline = false;
  for (const c of node.children) {
    const inline = !pre && isTag(c) && !BLOCK_TAGS.has(c.name) && !SKIP.has(c.name) && c.name !== 'br' && c.name !== 'wbr';
    if (inline && afterInline) w.soft();
    walk(c, w, pre);
    if (isText(c) || (isTag(c) && !SKIP.has(c.name))) afterInline = inline;
  }
  if (block) w.brk(level);
}

/** Render nodes to readable plain text. */
export function renderText(nodes: AnyNode | AnyNode[]): string {
  const w = new TextWriter();
  for (const n of Array.isArray(nodes) ? nodes : [nodes]) walk(n, w, false);
  return w
    .toString()
    .replace(/\u00ad/g, '') // soft hyphens are invisible break hints, not text
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
