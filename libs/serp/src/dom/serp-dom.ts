/**
 * A lean DOM for result pages: htmlparser2 without cheerio (cheerio's load alone costs ~10x the budget of a parse),
 * scripts/styles/SVG dropped before parsing, and one walk that indexes elements by id, tag and class so that the
 * parsers look things up instead of re-walking the tree.
 */
import { parseDocument } from 'htmlparser2';
import { Element as DomElement, type AnyNode, type Document, type Element } from 'domhandler';

export type { Element } from 'domhandler';

const RAW_TAGS = ['script', 'style', 'svg', 'template'] as const;

/** True when `html` has tag name `name` (lower case) at `at`, followed by whitespace, `>` or `/`; no allocation. */
function tagAt(html: string, at: number, name: string): boolean {
  for (let k = 0; k < name.length; k++) {
    if ((html.charCodeAt(at + k) | 0x20) !== name.charCodeAt(k)) return false;
  }
  const next = html.charCodeAt(at + name.length);
  return next === 0x3e || next === 0x2f || next === 0x20 || next === 0x0a || next === 0x09 || next === 0x0d;
}

/** Removes `<script>`, `<style>`, `<svg>` and `<template>` blocks: they are most of a SERP's bytes and none of its data. */
export function stripHeavyBlocks(html: string): string {
  let out = '';
  let from = 0;
  let cursor = 0;
  for (;;) {
    const open = html.indexOf('<', cursor);
    if (open < 0) break;
    const first = html.charCodeAt(open + 1) | 0x20;
    // Only tags starting with s or t can be one of RAW_TAGS.
    const tag = first === 0x73 || first === 0x74 ? RAW_TAGS.find((t) => tagAt(html, open + 1, t)) : undefined;
    if (!tag) {
      cursor = open + 1;
      continue;
    }
    let close = html.indexOf(`</${tag}`, open);
    if (close < 0) close = html.indexOf(`</${tag.toUpperCase()}`, open);
    if (close < 0) break;
    const end = html.indexOf('>', close);
    if (end < 0) break;
    out += html.slice(from, open);
    from = end + 1;
    cursor = from;
  }
  return from === 0 ? html : out + html.slice(from);
}

export interface SerpDom {
  root: Document;
  /** The markup that was parsed (scripts, styles and script-only attributes removed). */
  source: string;
  /** The page's text nodes, one per line: the cheapest place to look for a sentence or a heading. */
  text(): string;
  byId(id: string): Element | undefined;
  byTag(tag: string): Element[];
  byClass(cls: string): Element[];
  /** Every element in document order. */
  all: Element[];
  /** Document-order index of an element, for ordering results that were found by different lookups. */
  order(el: Element): number;
  /** Elements that carry attribute `name` (computed once per name). */
  withAttr(name: string): Element[];
}

/**
 * Attributes no parser reads: client-script hooks, inline styles, click ids in `data-ved` (the related-search
 * reader uses the copy in `href`) and inline `data:` images. Attributes are ~80 % of a stripped SERP's bytes and
 * these ~45 %, so one regex pass here saves more tokenizer time than it costs.
 */
const SCRIPT_ONLY_ATTRS = / (?:jsaction|jscontroller|jsdata|jsname|jsmodel|jsshadow|jsl|ping|style|data-hveid|data-ved|decode-data-ved|onmousedown|onclick|oncontextmenu|data-lpage|data-bsextraheight|data-frt|data-atf|tabindex|aria-hidden|data-async-context(?:-required)?|data-rtid)="[^"]*"| src="data:[^"]*"/g;

/**
 * A fragment of a result page (saved without its `<html>`/`<body>`, as test fixtures and page snippets are) gets the
 * body the parsers start from: htmlparser2 adds none.
 */
function wrapInBody(root: Document): void {
  const body = new DomElement('body', {}, root.children);
  for (const child of body.children) child.parent = body;
  body.parent = root;
  root.children = [body];
}

export function loadDom(html: string): SerpDom {
  const source = stripHeavyBlocks(html).replace(SCRIPT_ONLY_ATTRS, '');
  const root = parseDocument(source, { decodeEntities: true });
  if (!/<body[\s>]/i.test(source)) wrapInBody(root);
  const ids = new Map<string, Element>();
  const tags = new Map<string, Element[]>();
  const classes = new Map<string, Element[]>();
  const attrLists = new Map<string, Element[]>();
  const all: Element[] = [];
  const stack: AnyNode[] = [];
  for (let i = root.children.length - 1; i >= 0; i--) stack.push(root.children[i]);
  const texts: string[] = [];
  while (stack.length) {
    const node = stack.pop() as AnyNode;
    if (node.type === 'text') {
      texts.push(node.data);
      continue;
    }
    if (node.type !== 'tag' && node.type !== 'script' && node.type !== 'style') continue;
    const el = node as Element;
    // Document order is kept in `startIndex`, which htmlparser2 leaves null unless asked for source positions:
    // a Map keyed by element cost more than the parse of small pages.
    el.startIndex = all.length;
    all.push(el);
    const a = el.attribs;
    if (a.id && !ids.has(a.id)) ids.set(a.id, el);
    let list = tags.get(el.name);
    if (!list) tags.set(el.name, (list = []));
    list.push(el);
    if (a.class) {
      for (const c of a.class.split(' ')) {
        if (!c) continue;
        let l = classes.get(c);
        if (!l) classes.set(c, (l = []));
        l.push(el);
      }
    }
    const ch = el.children;
    for (let i = ch.length - 1; i >= 0; i--) stack.push(ch[i]);
  }
  let joined: string | undefined;
  return {
    root,
    source,
    text: () => (joined ??= texts.join('\n')),
    all,
    byId: (id) => ids.get(id),
    byTag: (t) => tags.get(t) ?? [],
    byClass: (c) => classes.get(c) ?? [],
    order: (el) => el.startIndex ?? -1,
    withAttr: (name) => {
      let l = attrLists.get(name);
      if (!l) attrLists.set(name, (l = all.filter((e) => e.attribs[name] !== undefined)));
      return l;
    },
  };
}

export function isElement(node: AnyNode | null | undefined): node is Element {
  return !!node && (node.type === 'tag' || node.type === 'script' || node.type === 'style');
}

export function attr(el: Element | undefined | null, name: string): string {
  return el?.attribs[name] ?? '';
}

export function hasClass(el: Element | undefined | null, cls: string): boolean {
  const c = el?.attribs.class;
  if (!c) return false;
  // Whole-word check without splitting: class lists are whitespace separated.
  let i = c.indexOf(cls);
  while (i >= 0) {
    const before = i === 0 ? 32 : c.charCodeAt(i - 1);
    const after = i + cls.length >= c.length ? 32 : c.charCodeAt(i + cls.length);
    if (before <= 32 && after <= 32) return true;
    i = c.indexOf(cls, i + 1);
  }
  return false;
}

export function hasAnyClass(el: Element | undefined | null, classes: readonly string[]): boolean {
  const c = el?.attribs.class;
  if (!c) return false;
  for (const k of classes) if (hasClass(el, k)) return true;
  return false;
}

export function parentEl(el: Element): Element | null {
  const p = el.parent;
  return isElement(p as AnyNode) ? (p as Element) : null;
}

/** The nearest ancestor-or-self matching `pred`, not climbing past `stop`. */
export function closest(el: Element, pred: (e: Element) => boolean, stop?: Element | null): Element | null {
  let cur: Element | null = el;
  while (cur) {
    if (pred(cur)) return cur;
    if (cur === stop) return null;
    cur = parentEl(cur);
  }
  return null;
}

export function isInside(el: Element, ancestor: Element): boolean {
  let cur: Element | null = el;
  while (cur) {
    if (cur === ancestor) return true;
    cur = parentEl(cur);
  }
  return false;
}

/** Descendants (not self) matching `pred`, in document order. */
export function findAll(root: Element | Document, pred: (e: Element) => boolean, limit = Infinity): Element[] {
  const out: Element[] = [];
  const stack: AnyNode[] = [];
  for (let i = root.children.length - 1; i >= 0; i--) stack.push(root.children[i]);
  while (stack.length && out.length < limit) {
    const node = stack.pop() as AnyNode;
    if (!isElement(node)) continue;
    if (pred(node)) out.push(node);
    const ch = node.children;
    for (let i = ch.length - 1; i >= 0; i--) stack.push(ch[i]);
  }
  return out;
}

export function findFirst(root: Element | Document, pred: (e: Element) => boolean): Element | null {
  return findAll(root, pred, 1)[0] ?? null;
}

/** Element children only. */
export function childElements(el: Element): Element[] {
  return el.children.filter(isElement);
}

const BLOCK_TAGS = new Set([
  'address', 'article', 'aside', 'blockquote', 'br', 'dd', 'div', 'dl', 'dt', 'figcaption', 'figure', 'footer',
  'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'hr', 'li', 'main', 'nav', 'ol', 'p', 'section', 'table', 'tbody',
  'td', 'th', 'tr', 'ul', 'g-section-with-header',
]);

/**
 * Visible text with a space between block elements (so "Title" + "site.com" do not merge into one word) and
 * whitespace collapsed. `skip` drops subtrees such as the title link when a snippet is wanted.
 */
export function textOf(node: AnyNode | null | undefined, skip?: (e: Element) => boolean): string {
  if (!node) return '';
  const parts: string[] = [];
  const visit = (n: AnyNode) => {
    if (n.type === 'text') {
      parts.push(n.data);
      return;
    }
    if (!isElement(n)) return;
    if (n.type !== 'tag' || n.name === 'noscript' || n.name === 'style' || n.name === 'script') return;
    if (skip && skip(n)) return;
    const block = BLOCK_TAGS.has(n.name);
    if (block) parts.push(' ');
    for (const c of n.children) visit(c);
    if (block) parts.push(' ');
  };
  visit(node);
  return cleanText(parts.join(''));
}

export function cleanText(s: string): string {
  return s.replace(/[\s\u00a0\u200b\u200e\u200f]+/g, ' ').trim();
}
