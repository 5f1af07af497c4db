/**
 * What cleaning measures of a page before it drops anything: the text and link text of every element, the nodes that
 * hold the article, the ids that disclosure controls open, and whether the page is built of AEM components. The drop
 * rules read it (see drop-rules.ts): class/id words are a guess, the amount of text is not.
 */
import { PROTECTED_BODY_RE } from '../signals/vocabulary.js';
import { classAndId, isTag, type ChildNode, type Element, type ParentNode } from '../dom.js';

/**
 * Adobe Experience Manager's core components are all named `cmp-<component>` (`cmp-container`, `cmp-text`): there
 * `cmp` is the component prefix, not a consent-management platform, and whole service pages are built of them.
 */
export const AEM_COMPONENT_RE =
  /(?:^|\s)cmp-(?:accordion|button|carousel|container|contentfragment|contentfragmentlist|download|embed|experiencefragment|form|image|list|pdfviewer|progressbar|separator|tabs|teaser|text|title|table|tableofcontents)(?=$|[\s_-])[\w-]*/g;
/**
 * Once a page is known to be built of AEM components, its own components (`cmp-cta`, `cmp-richtext`, `cmp-quotes`)
 * follow the same `cmp-` prefix: none of them is a consent dialog (vendors' names are still caught by CONSENT_VENDOR_RE).
 */
export const AEM_PREFIXED_RE = /(?:^|\s)cmp-[\w-]+/g;
const AEM_COMPONENT_ONE_RE = new RegExp(AEM_COMPONENT_RE.source);
/**
 * Class/id words are a guess; a wrapper that holds the article must survive one (`Page-ad-margins` around the
 * whole LA Times page). Protected: ancestors of <main>, itemprop=articleBody, body classes (PROTECTED_BODY_RE) and
 * substantial <article>s, and any node holding more than half of the page's text.
 */
export interface Guard {
  protectedNodes: Set<Element>;
  textLen: Map<Element, number>;
  /** characters of text inside links, per element */
  linkLen: Map<Element, number>;
  bodyText: number;
  keepComments: boolean;
  /** ids of the elements a disclosure control opens (see isCollapsedContent) */
  disclosed: Set<string>;
  /** the page uses AEM core components, so `cmp-` is its component prefix (see AEM_PREFIXED_RE) */
  aemComponents: boolean;
  /** the page is a service page's (see CleanOptions.landing) */
  landing: boolean;
}

/** Note the ids a disclosure control opens: `aria-controls` on a control that says it expands, or on a button. */
function noteDisclosure(el: Element, guard: Guard): void {
  const controls = el.attribs['aria-controls'];
  if (controls && (el.attribs['aria-expanded'] !== undefined || el.name === 'button' || el.attribs.role === 'button')) {
    for (const id of controls.split(/\s+/)) if (id) guard.disclosed.add(id);
  }
}

const NO_TEXT_TAGS = new Set(['script', 'style', 'noscript', 'template', 'head', 'svg']);

export function measure(node: ParentNode, guard: Guard, inLink = false): number {
  let len = 0;
  let link = 0;
  for (const c of node.children) {
    if (c.type === 'text') {
      const n = c.data.trim().length;
      len += n;
      if (inLink) link += n;
    } else if (isTag(c) && !NO_TEXT_TAGS.has(c.name)) {
      noteDisclosure(c, guard);
      len += measure(c, guard, inLink || c.name === 'a');
      link += guard.linkLen.get(c) ?? 0;
    }
  }
  if (isTag(node as ChildNode)) {
    const el = node as Element;
    guard.textLen.set(el, len);
    guard.linkLen.set(el, link);
    if (!guard.aemComponents && el.attribs.class?.includes('cmp-')) guard.aemComponents = AEM_COMPONENT_ONE_RE.test(el.attribs.class);
    const landmark =
      el.name === 'main' ||
      el.attribs.itemprop === 'articleBody' ||
      (el.name === 'article' && len >= 500) ||
      (len >= 500 && PROTECTED_BODY_RE.test(classAndId(el)));
    if (landmark) for (let p = el.parent; p && isTag(p); p = p.parent) guard.protectedNodes.add(p);
  }
  return len;
}

export function guarded(el: Element, guard: Guard): boolean {
  return guard.protectedNodes.has(el) || (guard.textLen.get(el) ?? 0) > guard.bodyText * 0.5;
}
