/**
 * Small DOM toolkit over htmlparser2/domhandler (the fastest parser measured here: ~2 ms median on the Zyte pages).
 * Every pipeline step works on this tree in place; nothing here throws on odd markup.
 */
import { Parser, parseDocument } from 'htmlparser2';
import { Document, DomHandler, Element, Text, cloneNode, isTag, isText, type AnyNode, type ChildNode, type ParentNode } from 'domhandler';
import render from 'dom-serializer';

export { Document, Element, Text, cloneNode, isTag, isText };
export type { AnyNode, ChildNode, ParentNode };

const PARSE_OPTIONS = { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true };

export function parseHtml(html: string): Document {
  return intoBody(parseDocument(browserCdata(html), PARSE_OPTIONS));
}

/**
 * What a page prints between `</head>` and `<body>`, or after `</body>` or `</html>`, is in its body, as a browser
 * reads it (the HTML parser's "after head" mode opens the body early, and the "after body" modes reprocess what
 * follows it there): a theme that prints its header before `<body>`, or closes the document early and prints the
 * article after it, shows them. htmlparser2 leaves such nodes outside the body, where nothing would read them.
 */
function intoBody(doc: Document): Document {
  const htmlAt = doc.children.findIndex((c) => isTag(c) && c.name === 'html');
  if (htmlAt < 0) return doc;
  const html = doc.children[htmlAt] as Element;
  const bodyAt = html.children.findIndex((c) => isTag(c) && c.name === 'body');
  if (bodyAt < 0) return doc;
  const leading = html.children.slice(0, bodyAt).filter((c) => !(isTag(c) && c.name === 'head'));
  const trailing = [...html.children.slice(bodyAt + 1), ...doc.children.slice(htmlAt + 1)];
  if (![...leading, ...trailing].some(printed)) return doc;
  const body = html.children[bodyAt] as Element;
  relink(body, [...leading, ...body.children, ...trailing]);
  relink(html, html.children.filter((c) => c === body || (isTag(c) && c.name === 'head')));
  relink(doc, doc.children.slice(0, htmlAt + 1));
  return doc;
}

const printed = (node: ChildNode): boolean => isTag(node) || (isText(node) && node.data.trim() !== '');

/**
 * Parses `html` as parseHtml does, but stops as soon as elements nest deeper than `maxDepth` (the tree is then
 * partial and `tooDeep` is set). The guard costs nothing extra on ordinary pages (one pass, the parser's own tag
 * stack), and it matters: htmlparser2 grows its open-element stack with `unshift`, so parsing 100k nested elements
 * takes about a minute.
 */
export function parseHtmlWithin(html: string, maxDepth: number): { doc: Document; tooDeep: boolean } {
  const handler = new DepthCappedHandler(maxDepth);
  new Parser(handler, PARSE_OPTIONS).end(browserCdata(html));
  return { doc: intoBody(handler.root), tooDeep: handler.tooDeep };
}

class DepthCappedHandler extends DomHandler {
  tooDeep = false;
  private control: { pause(): void } | null = null;

  constructor(private readonly maxDepth: number) {
    super();
  }

  override onparserinit(parser: Parameters<DomHandler['onparserinit']>[0]): void {
    super.onparserinit(parser);
    this.control = parser as unknown as { pause(): void };
  }

  override onopentag(name: string, attribs: Record<string, string>): void {
    super.onopentag(name, attribs);
    // The stack holds the document itself below the open elements.
    if (!this.tooDeep && this.tagStack.length - 1 > this.maxDepth) {
      this.tooDeep = true;
      this.control?.pause();
    }
  }
}

const browserCdata = (html: string): string => (strayCdata(html) ? htmlCdata(html) : html);

const CDATA_OPENER = '<![CDATA[';

/**
 * Whether a CDATA opener may lie outside script and style text. Most pages that have one have it only as the
 * `//<![CDATA[` of inline scripts: an opener after a `<script` or `<style` tag that no closing tag follows is settled
 * without running CDATA_RE, which reads every script of the page to its end. Anything else (an upper-case tag, an
 * opener in the body) takes the full rewrite.
 */
function strayCdata(html: string): boolean {
  for (let at = cdataOpener(html, 0); at >= 0; at = cdataOpener(html, at + CDATA_OPENER.length)) {
    if (!insideRawText(html, at, 'script') && !insideRawText(html, at, 'style')) return true;
  }
  return false;
}

/** The tail of CDATA_OPENER searched for: without the `<` that every tag starts with, V8's search skips ahead ~6× faster. */
const CDATA_TAIL = 'CDATA[';
const CDATA_HEAD = CDATA_OPENER.slice(0, -CDATA_TAIL.length);

/** `html.indexOf(CDATA_OPENER, from)`, found by its rarer tail (every page is scanned to its end for it). */
function cdataOpener(html: string, from: number): number {
  for (let tail = html.indexOf(CDATA_TAIL, from + CDATA_HEAD.length); tail >= 0; tail = html.indexOf(CDATA_TAIL, tail + 1)) {
    if (html.startsWith(CDATA_HEAD, tail - CDATA_HEAD.length)) return tail - CDATA_HEAD.length;
  }
  return -1;
}

function insideRawText(html: string, at: number, tag: string): boolean {
  const open = html.lastIndexOf(`<${tag}`, at);
  if (open < 0 || !/[\s>/]/.test(html.charAt(open + tag.length + 1))) return false;
  return html.lastIndexOf(`</${tag}`, at) < open;
}

/** A CDATA opener in HTML content, or a script or style element (raw text, where it is only text), matched in one pass. */
const CDATA_RE = /(<script\b[\s\S]*?<\/script\s*>|<style\b[\s\S]*?<\/style\s*>)|<!\[CDATA\[([^>]*)>/gi;

/**
 * In HTML (outside SVG and MathML) `<![CDATA[` opens a bogus comment that ends at the next `>`, as browsers parse it;
 * htmlparser2 reads a CDATA section up to `]]>` instead, and a stray opener in a page's body swallowed everything after
 * it (a forum thread came out empty). Rewritten as the comment a browser sees; script and style text is left alone.
 */
export function htmlCdata(html: string): string {
  return html.replace(CDATA_RE, (match, raw: string | undefined, inner: string | undefined) => raw ?? `<!--[CDATA[${inner ?? ''}-->`);
}

export function serialize(node: AnyNode | AnyNode[]): string {
  return render(node, { decodeEntities: true, encodeEntities: 'utf8' });
}

/** Elements whose content starts on a new line in rendered text. */
export const BLOCK_TAGS = new Set([
  'address', 'article', 'aside', 'blockquote', 'body', 'center', 'dd', 'details', 'dialog', 'dir', 'div', 'dl', 'dt',
  'fieldset', 'figcaption', 'figure', 'footer', 'form', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'hgroup', 'hr',
  'html', 'li', 'main', 'menu', 'nav', 'ol', 'p', 'pre', 'section', 'summary', 'table', 'tbody', 'td', 'tfoot', 'th',
  'thead', 'tr', 'ul', 'caption', 'option', 'legend', 'listing', 'plaintext', 'xmp', 'title',
]);

export const HEADING_TAGS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);

/** Whether a block element lies anywhere inside `el` (a link or span wrapped around blocks: a card). */
export function holdsBlock(el: Element): boolean {
  return el.children.some((c) => isTag(c) && (BLOCK_TAGS.has(c.name) || holdsBlock(c)));
}

export function removeNode(node: ChildNode): void {
  const parent = node.parent;
  if (!parent) return;
  const siblings = parent.children;
  const i = siblings.indexOf(node);
  if (i >= 0) siblings.splice(i, 1);
  if (node.prev) node.prev.next = node.next;
  if (node.next) node.next.prev = node.prev;
  node.parent = null;
  node.prev = null;
  node.next = null;
}

/** Remove many children of one parent at once (O(n) instead of O(n²) splices). */

/** A new element owning `children` (moved from wherever they were). */
export function createElement(name: string, attribs: Record<string, string>, children: ChildNode[]): Element {
  const el = new Element(name, attribs);
  relink(el, children);
  return el;
}

/** Puts `nodes` where `el` was; `el` is detached. */
export function replaceWith(el: Element, nodes: ChildNode[]): void {
  const parent = el.parent;
  if (!parent) return;
  const siblings = parent.children;
  const at = siblings.indexOf(el);
  if (at < 0) return;
  relink(parent, [...siblings.slice(0, at), ...nodes, ...siblings.slice(at + 1)]);
  el.parent = null;
}
/** Removes, in place, the outermost elements under `roots` that `doomed` picks (what they hold is not visited). */
export function removeOutermost(roots: ParentNode[], doomed: (el: Element) => boolean): void {
  const visit = (node: ParentNode): void => {
    const picked = new Set<ChildNode>();
    for (const c of node.children) {
      if (!isTag(c)) continue;
      if (doomed(c)) picked.add(c);
      else visit(c);
    }
    removeChildren(node, picked);
  };
  for (const r of roots) visit(r);
}

export function removeChildren(parent: ParentNode, doomed: Set<ChildNode>): void {
  if (doomed.size === 0) return;
  const kept: ChildNode[] = [];
  for (const c of parent.children) {
    if (doomed.has(c)) c.parent = null;
    else kept.push(c);
  }
  relink(parent, kept);
}

export function relink(parent: ParentNode, children: ChildNode[]): void {
  parent.children = children;
  for (let i = 0; i < children.length; i++) {
    const c = children[i];
    c.parent = parent;
    c.prev = i > 0 ? children[i - 1] : null;
    c.next = i + 1 < children.length ? children[i + 1] : null;
  }
}

export function textContent(node: AnyNode): string {
  if (isText(node)) return node.data;
  if (isTag(node) || node instanceof Document) {
    let out = '';
    for (const c of node.children) out += textContent(c);
    return out;
  }
  return '';
}

/** Text or an image: something the reader sees. */
export function visible(node: ChildNode): boolean {
  if (isText(node)) return node.data.trim() !== '';
  if (!isTag(node)) return false;
  return node.name === 'img' || node.children.some(visible);
}

/**
 * `textContent(node).trim() !== ''`, settled at the first text node that holds more than white space: the whole text
 * of a page is not gathered to learn that it has some.
 */
export function holdsText(node: AnyNode): boolean {
  if (isText(node)) return trimmedLength(node.data) > 0;
  if (isTag(node) || node instanceof Document) return node.children.some(holdsText);
  return false;
}

/**
 * The template an element was printed from: its tag and class names, without the numbered ones (`post-123`,
 * `item-4`) that differ per copy. Siblings with the same key are cards, posts or rows of one list.
 */
export function templateKey(el: Element): string {
  const words = (el.attribs.class ?? '')
    .split(/\s+/)
    .filter((w) => w && !/\d/.test(w))
    .sort();
  return `${el.name}.${words.join('.')}`;
}

/**
 * `textContent(node)` with its whitespace runs squashed to one space and trimmed — or undefined once more than `max`
 * of its characters are not whitespace, so that a test for short blocks does not read a long one to its end.
 */
export function squashedTextWithin(node: AnyNode, max: number): string | undefined {
  let solid = 0;
  const parts: string[] = [];
  const walk = (n: AnyNode): boolean => {
    if (isText(n)) {
      solid += solidLength(n.data);
      parts.push(n.data);
      return solid <= max;
    }
    if (isTag(n) || n instanceof Document) for (const c of n.children) if (!walk(c)) return false;
    return true;
  };
  return walk(node) ? parts.join('').replace(/\s+/g, ' ').trim() : undefined;
}

/** `s.replace(/\s+/g, ' ').trim().length`, counted without building the string. */
export function squashedLength(s: string): number {
  const count = new SquashedCount();
  count.add(s);
  return count.length;
}

/** `squashedLength(textContent(node))`: the text of `node` with whitespace runs squashed to one space, trimmed. */
export function squashedTextLength(node: AnyNode): number {
  const count = new SquashedCount();
  const walk = (x: AnyNode): void => {
    if (isText(x)) count.add(x.data);
    else if (isTag(x) || x instanceof Document) for (const c of x.children) walk(c);
  };
  walk(node);
  return count.length;
}

/** The length of pieces of text joined, squashed and trimmed, counted piece by piece. */
class SquashedCount {
  length = 0;
  /** whitespace since the last character counted, after some (a space to count before the next one) */
  private gap = false;

  add(s: string): void {
    for (let i = 0; i < s.length; i++) {
      if (isSpaceCode(s.charCodeAt(i))) this.gap = this.length > 0;
      else {
        if (this.gap) this.length++;
        this.gap = false;
        this.length++;
      }
    }
  }
}

/** `s.trim().length`, counted without copying the trimmed string (isSpaceCode is the set trim removes). */
export function trimmedLength(s: string): number {
  let start = 0;
  let end = s.length;
  while (start < end && isSpaceCode(s.charCodeAt(start))) start++;
  while (end > start && isSpaceCode(s.charCodeAt(end - 1))) end--;
  return end - start;
}

/** Characters of `s` outside the class `\s` of regular expressions. */
function solidLength(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) if (!isSpaceCode(s.charCodeAt(i))) n++;
  return n;
}

function isSpaceCode(c: number): boolean {
  if (c <= 0x20) return c === 0x20 || (c >= 0x09 && c <= 0x0d);
  if (c < 0xa0) return false;
  return c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff;
}

/** Text length of `node` (whitespace trimmed per text node), counted only up to `cap`: a cheap "has this much text". */
export function textLengthUpTo(node: ParentNode, cap: number): number {
  let n = 0;
  const walk = (p: ParentNode): void => {
    for (const c of p.children) {
      if (n >= cap) return;
      if (isText(c)) n += c.data.trim().length;
      else if (isTag(c)) walk(c);
    }
  };
  walk(node);
  return n;
}

export function findFirst(root: AnyNode, pred: (el: Element) => boolean): Element | undefined {
  if (!('children' in root)) return undefined;
  for (const c of (root as ParentNode).children) {
    if (!isTag(c)) continue;
    if (pred(c)) return c;
    const found = findFirst(c, pred);
    if (found) return found;
  }
  return undefined;
}

export function findAll(root: AnyNode, pred: (el: Element) => boolean, out: Element[] = []): Element[] {
  if (!('children' in root)) return out;
  for (const c of (root as ParentNode).children) {
    if (!isTag(c)) continue;
    if (pred(c)) out.push(c);
    findAll(c, pred, out);
  }
  return out;
}

/**
 * What `pick` finds at the text nodes under `roots`, in document order: one walk, for rules cued by a short phrase
 * ("Sponsored", "Compare") that climb only from the few text nodes that say it.
 */
export function fromTextNodes<T>(roots: ParentNode[], pick: (t: Text) => T | undefined): T[] {
  const found: T[] = [];
  const visit = (node: ParentNode): void => {
    for (const c of node.children) {
      if (isText(c)) {
        const hit = pick(c);
        if (hit !== undefined) found.push(hit);
      } else if (isTag(c)) visit(c);
    }
  };
  for (const r of roots) visit(r);
  return found;
}

/** Whether `node` is `ancestor` or lies inside it. */
export function contains(ancestor: AnyNode, node: AnyNode): boolean {
  for (let p: AnyNode | null = node; p; p = p.parent) if (p === ancestor) return true;
  return false;
}

export function hasAncestor(el: AnyNode, pred: (el: Element) => boolean): boolean {
  for (let p = el.parent; p; p = p.parent) if (isTag(p) && pred(p)) return true;
  return false;
}

/**
 * class + id, lower-cased, for boilerplate pattern matching. An id that spells out the element's heading is left out
 * (see `isHeadingSlug`).
 */
export function classAndId(el: Element): string {
  const c = el.attribs.class;
  const i = el.attribs.id !== undefined && isHeadingSlug(el, el.attribs.id) ? undefined : el.attribs.id;
  if (!c && !i) return '';
  const lower = `${c ?? ''} ${i ?? ''}`.toLowerCase();
  // Page builders name every block "widget" (elementor-widget-text-editor, et_pb_widget): a layout word there, not
  // the sidebar widget that boilerplate patterns look for.
  return lower.includes('widget') ? lower.replace(BUILDER_WIDGET_RE, '$1') : lower;
}

/**
 * Words an id needs to be read as its heading's slug on its own: site templates name their comment form, related
 * links or newsletter box with a short phrase that can also be their heading ("leave-a-reply", "you-may-also-like"),
 * while a documentation generator or a Markdown renderer ids each section by its whole title
 * ("use-trimmed-interleaved-replies-in-email-discussions"), and a title's words are no template's class words.
 */
const MIN_SLUG_WORDS = 5;
/** Element children of a section searched for its heading (an anchor `<span>` or two may come first). */
const SLUG_HEADING_SEARCH = 3;
/**
 * Sibling sections of one tag (or the parent section), each id'd by its whole heading, that make a shorter id a slug
 * too: a generator ids every section by its title ("respond-to-review-comments" among "no-mime-no-links-…" and
 * "sign-your-work-…"), and a template's comment box is not one of a run of sections named for their titles.
 */
const SLUG_SIBLINGS = 2;

/** Whether `id` spells `el`'s heading (`el` itself, or one of its first element children): see MIN_SLUG_WORDS. */
export function isHeadingSlug(el: Element, id: string): boolean {
  const spelled = spelledHeading(el, id);
  if (!spelled) return false;
  return spelled.words >= MIN_SLUG_WORDS || (spelled.whole && slugSiblings(el) >= SLUG_SIBLINGS);
}

/** Whether `id` spells the first words of `el`'s heading, or all of them: how many. */
function spelledHeading(el: Element, id: string): { words: number; whole: boolean } | undefined {
  const heading = sectionHeading(el);
  if (!heading) return undefined;
  const idWords = id.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean);
  const headingWords = textContent(heading).toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  if (idWords.length === 0) return undefined;
  // A generator may prefix its section ids (Django's `s-widgets` for "Widgets", beside an anchor `widgets`).
  const prefix = idWords.length - headingWords.length;
  if ((prefix === 0 || prefix === 1) && headingWords.length > 0 && headingWords.every((w, n) => idWords[prefix + n] === w)) return { words: headingWords.length, whole: true };
  return idWords.every((w, n) => headingWords[n] === w) ? { words: idWords.length, whole: false } : undefined;
}

/** `el` when it is a heading, else the heading among its first SLUG_HEADING_SEARCH element children. */
function sectionHeading(el: Element): Element | undefined {
  if (HEADING_TAGS.has(el.name)) return el;
  let seen = 0;
  for (const c of el.children) {
    if (!isTag(c)) continue;
    if (HEADING_TAGS.has(c.name)) return c;
    if (++seen >= SLUG_HEADING_SEARCH) return undefined;
  }
  return undefined;
}

/**
 * How many of `el`'s siblings of its tag, and its parent, are id'd by their whole heading, counting up to
 * SLUG_SIBLINGS: a subsection's parent is a section of the same generator.
 */
function slugSiblings(el: Element): number {
  const parent = el.parent;
  if (!parent) return 0;
  const titled = (s: Element): boolean => s.attribs.id !== undefined && spelledHeading(s, s.attribs.id)?.whole === true;
  let found = isTag(parent) && titled(parent) ? 1 : 0;
  for (const s of parent.children) {
    if (s !== el && isTag(s) && s.name === el.name && titled(s) && ++found >= SLUG_SIBLINGS) break;
  }
  return found;
}

/** The words of one class/id token, split on `-`, `_` and camelCase (`entry-meta`, `postMetadata`, `share_bar`). */
export function classWords(token: string): readonly string[] {
  let words = knownClassWords.get(token);
  if (words === undefined) {
    words = splitClassWords(token);
    if (knownClassWords.size >= MAX_KNOWN_TOKENS) knownClassWords.clear();
    knownClassWords.set(token, words);
  }
  return words;
}

/**
 * Class words per token, kept across calls and pages: a page repeats its few class names on thousands of elements,
 * and several steps ask for their words (see namedBy, innerJunkReason). Bounded, as a worker formats page after page.
 */
const knownClassWords = new Map<string, readonly string[]>();
const MAX_KNOWN_TOKENS = 20_000;

function splitClassWords(token: string): readonly string[] {
  return token
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

/** Whether a class or id name of `el` holds one of `words` as a whole word (see classWords). */
export function namedBy(el: Element, words: ReadonlySet<string>): boolean {
  const names = `${el.attribs.class ?? ''} ${el.attribs.id ?? ''}`.split(/\s+/);
  return names.some((n) => n !== '' && classWords(n).some((w) => words.has(w)));
}

const BUILDER_WIDGET_RE = /\b(elementor|et_pb|fl|so|siteorigin|wpb|vc|kc|brxe|ct|oxy)[-_]widget/g;

export function bodyOf(doc: Document): Element | Document {
  const html = doc.children.find((c): c is Element => isTag(c) && c.name === 'html');
  const body = html?.children.find((c): c is Element => isTag(c) && c.name === 'body');
  return body ?? findFirst(doc, (e) => e.name === 'body') ?? doc;
}

export function headOf(doc: Document): Element | undefined {
  return findFirst(doc, (e) => e.name === 'head' || e.name === 'body') ?? undefined;
}
