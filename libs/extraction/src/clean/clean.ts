/**
 * Cleaning step: strips what a reader never sees or never wants (scripts, styles, frames, hidden nodes, ads and
 * trackers, consent banners, site navigation/footer/sidebars: the drop rules, see drop-rules.ts) and makes every URL
 * absolute. Works in place on the parsed document; the result is what `enhanced_html` serialises and what main-content
 * detection starts from.
 */
import { removePlaceholderText } from './placeholder-text.js';
import { placeStreamedContent } from './streamed-content.js';
import { Judged, shouldDrop } from './drop-rules.js';
import { measure, type Guard } from './guard.js';
import { type Document, type Element, isTag, isText, parseHtml, relink, squashedTextLength, textContent, type ChildNode, type ParentNode } from '../dom.js';

const URL_ATTRS = ['href', 'src', 'poster', 'cite', 'action', 'longdesc', 'background'];
const LAZY_SRC_ATTRS = ['data-src', 'data-lazy-src', 'data-original', 'data-url', 'data-lazy', 'data-hi-res-src', 'data-full-src'];

export interface CleanOptions {
  /** Final URL of the page: relative URLs are resolved against it (or against <base href>). */
  url: string;
  /** Also remove page chrome found by class/id words (sidebars, share bars, related links…). */
  aggressive: boolean;
  /** A forum thread: its posts carry comment and reply class names, and they are the content. */
  keepComments?: boolean;
  /**
   * A service (landing) page: its blocks are named for what they show (`promo-container`, `cta-banner`), and those
   * words do not make them chrome (see LANDING_CHROME_ALL_RE).
   */
  landing?: boolean;
}

function resolveUrl(value: string, base: URL | undefined): string {
  const v = value.trim();
  if (!base || v === '' || v.startsWith('#') || /^(?:data|javascript|mailto|tel|about|blob):/i.test(v)) return v;
  try {
    return new URL(v, base).href;
  } catch {
    return v;
  }
}

function resolveSrcset(value: string, base: URL | undefined): string {
  return value
    .split(',')
    .map((part) => {
      const [u, ...descr] = part.trim().split(/\s+/);
      return u ? [resolveUrl(u, base), ...descr].join(' ') : '';
    })
    .filter(Boolean)
    .join(', ');
}

/** The URL relative links resolve against: `<base href>` (itself relative to the page URL) or the page URL. */
export function documentBaseUrl(doc: Document, url: string): URL | undefined {
  let pageUrl: URL | undefined;
  try {
    pageUrl = new URL(url);
  } catch {
    pageUrl = undefined;
  }
  const base = findBase(doc);
  if (base) {
    try {
      return new URL(base, pageUrl);
    } catch {
      /* invalid <base>: ignore it */
    }
  }
  return pageUrl;
}

function findBase(node: ParentNode): string | undefined {
  for (const c of node.children) {
    if (!isTag(c)) continue;
    if (c.name === 'base' && c.attribs.href) return c.attribs.href;
    if (c.name === 'body') return undefined;
    const found = findBase(c);
    if (found) return found;
  }
  return undefined;
}

function fixAttributes(el: Element, base: URL | undefined): void {
  const a = el.attribs;
  for (const name of Object.keys(a)) {
    if (name.startsWith('on') || name === 'style') delete a[name];
  }
  if (el.name === 'img' || el.name === 'source') {
    const src = a.src;
    if (!src || src.startsWith('data:')) {
      for (const lazy of LAZY_SRC_ATTRS) {
        if (a[lazy] && !a[lazy].startsWith('data:')) {
          a.src = a[lazy];
          break;
        }
      }
    }
    if (!a.srcset && a['data-srcset']) a.srcset = a['data-srcset'];
    if (a.srcset) a.srcset = resolveSrcset(a.srcset, base);
  }
  for (const name of URL_ATTRS) if (a[name] !== undefined) a[name] = resolveUrl(a[name], base);
}

const TEMPLATE_TYPES = new Set(['text/template', 'text/html', 'text/x-template']);
const TEMPLATE_SYNTAX_RE = /\{\{|<%|\$\{|\{%/;
/** Text a template must carry to count as the page's own markup rather than a widget's. */
const MIN_TEMPLATE_TEXT = 200;

/**
 * The markup of a `<script type="text/template">` that a page renders in place (Blogger puts every post body in
 * one), or undefined. Templates with placeholders (`{{x}}`, `<%= x %>`, `${x}`) are a widget's, not content.
 */
export function inlineTemplateContent(el: Element): ChildNode[] | undefined {
  if (el.name !== 'script' || !TEMPLATE_TYPES.has((el.attribs.type ?? '').toLowerCase())) return undefined;
  const source = el.children.map((c) => (isText(c) ? c.data : '')).join('');
  // Markup, not JSON that happens to hold HTML strings.
  if (!source.trimStart().startsWith('<') || TEMPLATE_SYNTAX_RE.test(source) || !/<(?:p|br|div|h[2-6])[\s>/]/i.test(source)) return undefined;
  const fragment = parseHtml(source);
  if (squashedTextLength(fragment) < MIN_TEMPLATE_TEXT) return undefined;
  return fragment.children;
}

/** Text a <noscript> must carry, and the share of the page's visible text it must outweigh, to be the page's content. */
const MIN_NOSCRIPT_TEXT = 500;

/**
 * The children of a `<noscript>` that holds the page itself (Discourse and other single-page apps serve the whole
 * thread there for readers without JavaScript, and nothing but an app shell outside it), or undefined. Pixel
 * trackers and "enable JavaScript" notices are short.
 */
export function noscriptContent(el: Element, guard: Guard): ChildNode[] | undefined {
  if (el.name !== 'noscript') return undefined;
  const text = squashedTextLength(el);
  if (text < MIN_NOSCRIPT_TEXT || text < guard.bodyText) return undefined;
  // Raw text when the parser kept it unparsed (inside <head>): parse it.
  if (el.children.every(isText)) return parseHtml(textContent(el)).children;
  return el.children;
}

function cleanChildren(parent: ParentNode, base: URL | undefined, aggressive: boolean, judged: Judged): void {
  let changed = false;
  const kept: ChildNode[] = [];
  for (const c of parent.children) {
    const inlined = isTag(c) ? (inlineTemplateContent(c) ?? noscriptContent(c, judged.guard)) : undefined;
    if (inlined) {
      const wrapper = c as Element;
      wrapper.name = 'div';
      wrapper.attribs = {};
      relink(wrapper, inlined);
      cleanChildren(wrapper, base, aggressive, judged);
      kept.push(wrapper);
      changed = true;
      continue;
    }
    if (isTag(c)) {
      if (shouldDrop(judged.next(c), aggressive)) {
        changed = true;
        continue;
      }
      fixAttributes(c, base);
      cleanChildren(c, base, aggressive, judged);
      kept.push(c);
    } else if (c.type === 'text' || c.type === 'directive') {
      kept.push(c);
    } else {
      changed = true; // comments, CDATA
    }
  }
  if (changed) relink(parent, kept);
}

/** Clean the document in place. */
export function cleanDocument(doc: Document, options: CleanOptions): void {
  placeStreamedContent(doc);
  removePlaceholderText(doc);
  const base = documentBaseUrl(doc, options.url);
  const guard: Guard = { protectedNodes: new Set(), textLen: new Map(), linkLen: new Map(), bodyText: 0, keepComments: options.keepComments === true, disclosed: new Set(), aemComponents: false, landing: options.landing === true };
  guard.bodyText = measure(doc, guard);
  cleanChildren(doc, base, options.aggressive, new Judged(guard));
}

