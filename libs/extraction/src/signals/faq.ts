/**
 * A service page's FAQ: the questions and answers that close a marketing page, often in a block of their own after
 * the footer-like closing band, where the article-style pick (the page's longest block of prose) does not reach.
 * They are the page's content: a block whose class or id names an FAQ, or that microdata types as an FAQPage, and
 * that lies outside the pick, is added to it.
 */
import { bodyOf, contains, hasAncestor, isTag, namedBy, type AnyNode, type Document, type Element, type ParentNode } from '../dom.js';
import { renderText } from '../text.js';

/** Characters an FAQ block needs to count: a heading and a link to a help centre are not one. */
const MIN_FAQ_TEXT = 200;
const FAQ_WORDS = new Set(['faq', 'faqs']);

/** A block whose class or id names an FAQ (`faq`, `home-faqs`), or that microdata types as an FAQPage. */
export function isFaq(el: Element): boolean {
  if ((el.attribs.itemtype ?? '').endsWith('/FAQPage')) return true;
  // Every FAQ word holds "faq": most elements are settled without splitting their names into words.
  if (!FAQ_CUE_RE.test(el.attribs.class ?? '') && !FAQ_CUE_RE.test(el.attribs.id ?? '')) return false;
  return namedBy(el, FAQ_WORDS);
}

const FAQ_CUE_RE = /faq/i;

function rootOf(node: AnyNode): AnyNode {
  let p = node;
  while (p.parent) p = p.parent;
  return p;
}

/**
 * The FAQ blocks of `doc` outside the picked `nodes` (which must be parts of `doc`: a pick from a re-parsed copy
 * shares no nodes with it), outermost first, in document order.
 */
export function faqOutside(doc: Document, nodes: ParentNode[]): Element[] {
  if (!nodes.every((n) => rootOf(n as AnyNode) === doc)) return [];
  const picked = new Set<AnyNode>(nodes as AnyNode[]);
  const out: Element[] = [];
  const visit = (n: ParentNode): void => {
    for (const c of n.children) {
      if (!isTag(c) || picked.has(c)) continue; // inside the pick: already content
      if (isFaq(c) && !nodes.some((p) => contains(c, p as AnyNode))) {
        if (renderText(c).length >= MIN_FAQ_TEXT) out.push(c);
        continue;
      }
      visit(c);
    }
  };
  visit(bodyOf(doc));
  return out;
}

/**
 * Characters of rendered text in the FAQ blocks inside `nodes` (the outermost ones below the nodes; none when a node is
 * itself part of an FAQ): the part of a pick that conditional pruning leaves whole (see ContentScorer.prune).
 */
export function faqTextWithin(nodes: ParentNode[]): number {
  let total = 0;
  const visit = (n: ParentNode): void => {
    for (const c of n.children) {
      if (!isTag(c)) continue;
      if (isFaq(c)) total += renderText(c).length;
      else visit(c);
    }
  };
  for (const n of nodes) if (!isTag(n as AnyNode) || !(isFaq(n as Element) || hasAncestor(n as AnyNode, isFaq))) visit(n);
  return total;
}
