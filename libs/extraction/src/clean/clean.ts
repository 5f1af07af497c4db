/**
 * Cleaning step: strips what a reader never sees or never wants (scripts, styles, frames, hidden nodes, ads and
 * trackers, consent banners, site navigation/footer/sidebars) and makes every URL absolute. Works in place on the
 * parsed document; the result is what `enhanced_html` serialises and what main-content detection starts from.
 */
import { holdsCardRun } from '../signals/card-run.js';
import { isFaq } from '../signals/faq.js';
import { removePlaceholderText } from './placeholder-text.js';
import { placeStreamedContent } from './streamed-content.js';
import { AD_WORDS_ALL_RE, CHROME_RE, COMMENT_CHROME_ALL_RE, COMMENT_CHROME_RE, CONSENT_VENDOR_RE, JUNK_RE, LANDING_CHROME_ALL_RE, MAYBE_CONTENT_RE, PROTECTED_BODY_RE } from '../signals/vocabulary.js';
import { type Document, type Element, findFirst, hasAncestor, HEADING_TAGS, isTag, isText, parseHtml, relink, classAndId, squashedTextLength, textContent, type ChildNode, type ParentNode } from '../dom.js';

/** Never content: dropped with their whole subtree. */
const DROP_TAGS = new Set([
  'script', 'style', 'noscript', 'iframe', 'frame', 'frameset', 'template', 'svg', 'canvas', 'object', 'embed',
  'applet', 'input', 'button', 'select', 'textarea', 'option', 'datalist', 'dialog', 'math', 'map', 'area', 'audio',
  'video', 'source', 'track', 'param', 'base', 'portal', 'slot',
  // ruby annotations (furigana) would interleave readings with the text they annotate
  'rt', 'rp',
]);
/** Structural boilerplate: site chrome rather than content. `header`/`footer` only outside an article. */
const CHROME_TAGS = new Set(['nav', 'aside', 'menu']);
const CHROME_ROLES = new Set(['navigation', 'banner', 'contentinfo', 'complementary', 'menu', 'menubar', 'search', 'dialog', 'alertdialog', 'tablist']);

/**
 * Adobe Experience Manager's core components are all named `cmp-<component>` (`cmp-container`, `cmp-text`): there
 * `cmp` is the component prefix, not a consent-management platform, and whole service pages are built of them.
 */
const AEM_COMPONENT_RE =
  /(?:^|\s)cmp-(?:accordion|button|carousel|container|contentfragment|contentfragmentlist|download|embed|experiencefragment|form|image|list|pdfviewer|progressbar|separator|tabs|teaser|text|title|table|tableofcontents)(?=$|[\s_-])[\w-]*/g;
/**
 * Once a page is known to be built of AEM components, its own components (`cmp-cta`, `cmp-richtext`, `cmp-quotes`)
 * follow the same `cmp-` prefix: none of them is a consent dialog (vendors' names are still caught by CONSENT_VENDOR_RE).
 */
const AEM_PREFIXED_RE = /(?:^|\s)cmp-[\w-]+/g;
const AEM_COMPONENT_ONE_RE = new RegExp(AEM_COMPONENT_RE.source);
/**
 * Drupal marks every node promoted to the front page `node--promoted` (`node-promoted` before Drupal 8, `is-promoted` in
 * some themes), the article itself included: a publishing state, not sponsored content.
 */
const DRUPAL_PROMOTED_RE = /(?:^|\s)(?:node-{1,2}|is-)promoted(?=$|\s)/g;
/**
 * The header of an article, recipe or product (headline, lead, key facts) rather than of the site: a `header` word
 * qualified by what it heads.
 */
const CONTENT_HEADER_RE =
  /[\w-]*(?:article|post|entry|story|recipe|product|single|intro|detail|news|item)[-_]*header[\w-]*|[\w-]*header[-_]*(?:article|post|entry|story|intro)[\w-]*/g;
/**
 * Search results are a results page's content, not the site's search box: `search-results`, `search-page-wrapper`
 * and the like do not count as the chrome word `search`.
 */
const SEARCH_RESULTS_RE = /[\w-]*search[-_]*(?:results?|page|grid|list|listing|items?|hits|products)(?=$|[\s_-])[\w-]*/g;
/**
 * Inside the `<main>` region a site declares, a short block named "header" that holds a heading heads a section or a
 * card (`PageSection_header`, `faq-header`, `pricing-card__header`): the section's title and intro, not the site's
 * header, which sits outside the region (measured: service pages lose their section titles to the chrome word).
 */
const SECTION_HEADER_RE = /[\w-]*header[\w-]*/g;
/** Characters of text a section's header holds at most. */
const MAX_SECTION_HEADER = 400;
function isSectionHeader(el: Element, guard: Guard): boolean {
  return (guard.textLen.get(el) ?? 0) <= MAX_SECTION_HEADER && holdsHeading(el) && hasAncestor(el, (a) => a.name === 'main' || a.attribs.role === 'main');
}

const TRACKER_SRC_RE =
  /(?:doubleclick\.net|google-analytics\.com|googletagmanager\.com|facebook\.com\/tr|scorecardresearch\.com|quantserve\.com|pixel\.|\/pixel[./?]|\/beacon[./?]|analytics\.|chartbeat\.|omtrdc\.net|bat\.bing\.com|adsystem\.|adservice\.|amazon-adsystem|taboola\.com|outbrain\.com)/i;

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

function isHidden(el: Element): boolean {
  const a = el.attribs;
  if ('hidden' in a) return true;
  // A popover (menus, dropdowns, off-canvas panels, install and notification prompts) is not rendered until opened.
  if ('popover' in a) return true;
  if (a['aria-hidden'] === 'true' && el.name !== 'img' && !el.attribs.class?.includes('fallback-image')) return true;
  const style = a.style;
  if (style && /(?:display\s*:\s*none|visibility\s*:\s*hidden)/i.test(style)) return true;
  return false;
}

/**
 * A tab's panel is hidden until its tab is chosen (product details, specifications, a service's plans), an accordion's
 * or a "read more" disclosure's until its control is (a control with `aria-expanded`, or a button, names what it opens
 * in `aria-controls`): it is the page's content all the same.
 */
function isCollapsedContent(el: Element, guard: Guard): boolean {
  // A popover opens over the page on demand (a menu, a prompt), wherever it sits: never a collapsed part of the text.
  if ('popover' in el.attribs) return false;
  if (isPanel(el, guard)) return true;
  // The animated wrapper UI kits hide around the panel (Chakra UI's `chakra-collapse`): hidden
  // with the panel it holds, and shown with it.
  const kids = el.children.filter(isTag);
  return kids.length === 1 && isPanel(kids[0], guard);
}

function isPanel(el: Element, guard: Guard): boolean {
  if (el.attribs.role === 'tabpanel') return true;
  const id = el.attribs.id;
  return (id !== undefined && guard.disclosed.has(id)) || answersQuestion(el, guard);
}

/** Characters of a question an accordion shows above its collapsed answer, at most. */
const MAX_QUESTION = 250;
/**
 * An FAQ built without ARIA hides each answer right after its question: a block right after a short one that ends in a
 * question mark is that question's answer, collapsed until the question is clicked.
 */
function answersQuestion(el: Element, guard: Guard): boolean {
  let prev = el.prev;
  while (prev && !isTag(prev)) prev = prev.prev;
  const length = prev ? (guard.textLen.get(prev) ?? 0) : 0;
  return prev !== null && length > 0 && length <= MAX_QUESTION && /\?\s*$/.test(textContent(prev));
}

/** Note the ids a disclosure control opens: `aria-controls` on a control that says it expands, or on a button. */
function noteDisclosure(el: Element, guard: Guard): void {
  const controls = el.attribs['aria-controls'];
  if (controls && (el.attribs['aria-expanded'] !== undefined || el.name === 'button' || el.attribs.role === 'button')) {
    for (const id of controls.split(/\s+/)) if (id) guard.disclosed.add(id);
  }
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

function isTrackerImage(el: Element): boolean {
  const a = el.attribs;
  if (a.width === '1' && a.height === '1') return true;
  return a.src !== undefined && TRACKER_SRC_RE.test(a.src);
}

function insideArticle(el: Element): boolean {
  for (let p = el.parent; p; p = p.parent) {
    if (isTag(p) && (p.name === 'article' || p.name === 'main' || p.attribs.itemprop === 'articleBody')) return true;
  }
  return false;
}

/**
 * Class/id words are a guess; a wrapper that holds the article must survive one (`Page-ad-margins` around the
 * whole LA Times page). Protected: ancestors of <main>, itemprop=articleBody, strong content classes and
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

const NO_TEXT_TAGS = new Set(['script', 'style', 'noscript', 'template', 'head', 'svg']);

function measure(node: ParentNode, guard: Guard, inLink = false): number {
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

function guarded(el: Element, guard: Guard): boolean {
  return guard.protectedNodes.has(el) || (guard.textLen.get(el) ?? 0) > guard.bodyText * 0.5;
}

/**
 * Ad words alone (no consent, popup or paywall word) on a block holding much text, or a run of cards (see card-run):
 * a content section that carries ad slots (`testreport__section--ads`, `cuerpo-ad`, a teaser grid's
 * `section-more-ads`), not an ad; the slots themselves are scripts and frames, dropped anyway.
 */
function proseInAdSlot(el: Element, words: string, guard: Guard): boolean {
  return (isProse(el, guard) || holdsCardRun(el)) && !JUNK_RE.test(words.replace(AD_WORDS_ALL_RE, ' '));
}

/**
 * Much text with few links reads as prose whatever its class says (a "readmore" expander, a "sidebar" column that holds
 * the teaser): page chrome is short or made of links. Main-content selection decides about it later.
 */
const MIN_PROSE = 800;
function isProse(el: Element, guard: Guard): boolean {
  const text = guard.textLen.get(el) ?? 0;
  return text >= MIN_PROSE && (guard.linkLen.get(el) ?? 0) < text * 0.15;
}

/**
 * A forum post's poster panel beyond the name: title and rank, banner, join date, post count, avatar, and the
 * signature under the post. Forum engines name them alike (XenForo `message-userExtras`/`userTitle`/`userBanner`,
 * phpBB `profile-joined`/`profile-posts`, `post-signature`); the thread's text is the name, date and message only.
 * Whole class tokens, so state modifiers on the post itself (`has-profile-rank`, `no-profile-rank`) do not count.
 */
const POSTER_DETAIL_RE =
  /(?:^|\s)(?!(?:has|no)-)(?:[\w-]*[-_])?(?:user-?extras|user-?title|user-?banner|user-?stats|signature|avatar|post-?count|join-?date|profile-(?:rank|posts|joined|contact))(?=$|\s)/i;
function isPosterDetail(el: Element): boolean {
  const c = el.attribs.class;
  return c !== undefined && POSTER_DETAIL_RE.test(c);
}

/**
 * A block holding the page's <h1> with few links is its hero or title block, whatever its class says (`hero-banner`,
 * `page-header-promo`): chrome carries a logo or links, not the page's heading and intro.
 */
const MAX_HEADING_BLOCK_LINK_SHARE = 0.3;
function holdsPageHeading(el: Element, guard: Guard): boolean {
  const text = guard.textLen.get(el) ?? 0;
  if (text === 0 || (guard.linkLen.get(el) ?? 0) > text * MAX_HEADING_BLOCK_LINK_SHARE) return false;
  const walk = (n: Element): boolean => n.children.some((c) => isTag(c) && (c.name === 'h1' || walk(c)));
  return walk(el);
}

/**
 * A dialog (a consent preference centre, a newsletter or login modal) lies over the page until it is dismissed: never
 * the page's text, in either cleaning mode, unless it holds most of the page. The conservative retry of a product page
 * whose content is rendered by script otherwise came back as its cookie preferences, under vendor names no word list
 * knows (`ensModal`).
 */
function isModalDialog(el: Element): boolean {
  const role = el.attribs.role?.toLowerCase();
  return role === 'dialog' || role === 'alertdialog' || el.attribs['aria-modal'] === 'true';
}

/**
 * A <header> inside an <article> that holds a heading is that entry's header: its headline (the card's title on a
 * listing), however its class is named (`Excerpt-Header`, `card-header`). HTML gives a <header> the section it sits
 * in; the site's own header sits outside the entries.
 */
function isEntryHeader(el: Element): boolean {
  return el.name === 'header' && hasAncestor(el, (a) => a.name === 'article') && holdsHeading(el);
}

const holdsHeading = (el: Element): boolean => el.children.some((c) => isTag(c) && (HEADING_TAGS.has(c.name) || holdsHeading(c)));

/**
 * `words` with each match of the global `re` replaced by a space. `cue` is a literal that every match contains: without
 * it the expression is not run (the leading `[\w-]*` of some makes them retry from every position of every word).
 */
function without(words: string, re: RegExp, cue: string): string {
  return words.includes(cue) ? words.replace(re, ' ') : words;
}

function shouldDrop(el: Element, aggressive: boolean, guard: Guard): boolean {
  const name = el.name;
  if (DROP_TAGS.has(name)) return true;
  if (name === 'link') return el.attribs.rel?.toLowerCase() !== 'canonical';
  if (name === 'html' || name === 'body' || name === 'head' || name === 'title' || name === 'meta') return false;
  if (isHidden(el) && !guarded(el, guard) && !isCollapsedContent(el, guard)) return true;
  // AMP components laid out as "nodisplay" (lightboxes, user notifications) open only on a user's action: however
  // much text a gallery lightbox repeats, it is not the page's text.
  if (name.startsWith('amp-') && (el.attribs.layout === 'nodisplay' || el.attribs.class?.includes('i-amphtml-layout-nodisplay'))) return true;
  if (name === 'img' && isTrackerImage(el)) return true;
  const words = classAndId(el);
  if (words && CONSENT_VENDOR_RE.test(words) && !guard.protectedNodes.has(el)) return true;
  if (words && JUNK_RE.test(without(without(words, guard.aemComponents ? AEM_PREFIXED_RE : AEM_COMPONENT_RE, 'cmp-'), DRUPAL_PROMOTED_RE, 'promoted')) && !MAYBE_CONTENT_RE.test(words) && !guarded(el, guard) && !proseInAdSlot(el, words, guard)) return true;
  if (isModalDialog(el) && !guarded(el, guard)) return true;
  if (!aggressive) return false;
  if (name === 'main' || name === 'article') return false;
  if (guarded(el, guard)) return false;
  if (guard.keepComments && isPosterDetail(el)) return true;
  if (CHROME_TAGS.has(name)) return true;
  const role = el.attribs.role;
  if (role && CHROME_ROLES.has(role.toLowerCase()) && !(role.toLowerCase() === 'tablist' && holdsTabPanel(el, guard))) return true;
  let chromeWords = without(without(words, CONTENT_HEADER_RE, 'header'), SEARCH_RESULTS_RE, 'search');
  if (guard.keepComments) chromeWords = chromeWords.replace(COMMENT_CHROME_ALL_RE, ' ');
  if (guard.landing) chromeWords = chromeWords.replace(LANDING_CHROME_ALL_RE, ' ');
  if (chromeWords.includes('header') && isSectionHeader(el, guard)) chromeWords = chromeWords.replace(SECTION_HEADER_RE, ' ');
  if (name === 'header' && !insideArticle(el) && chromeWords === words) return true;
  if (isEntryHeader(el)) return false;
  if (name === 'footer' && !insideArticle(el)) return true;
  // A block named for an FAQ is the page's questions and answers, whatever chrome word its builder adds (`widget
  // widgetFAQ`, `faq_tabs-menu-link`): a CMS's FAQ module is one of the page's sections, not its chrome.
  // Prose is spared too, but comment threads are prose and never the article: their class words keep applying.
  if (chromeWords && CHROME_RE.test(chromeWords) && !isFaq(el) && !MAYBE_CONTENT_RE.test(chromeWords) && !(isProse(el, guard) && !COMMENT_CHROME_RE.test(chromeWords)) && !holdsPageHeading(el, guard)) return true;
  return false;
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

function cleanChildren(parent: ParentNode, base: URL | undefined, aggressive: boolean, guard: Guard): void {
  let changed = false;
  const kept: ChildNode[] = [];
  for (const c of parent.children) {
    const inlined = isTag(c) ? (inlineTemplateContent(c) ?? noscriptContent(c, guard)) : undefined;
    if (inlined) {
      const wrapper = c as Element;
      wrapper.name = 'div';
      wrapper.attribs = {};
      relink(wrapper, inlined);
      cleanChildren(wrapper, base, aggressive, guard);
      kept.push(wrapper);
      changed = true;
      continue;
    }
    if (isTag(c)) {
      if (shouldDrop(c, aggressive, guard)) {
        changed = true;
        continue;
      }
      fixAttributes(c, base);
      cleanChildren(c, base, aggressive, guard);
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
  cleanChildren(doc, base, options.aggressive, guard);
}

/**
 * A tab list is the strip of tabs, chrome beside the panels it switches; an accordion built as a `tablist` holds its
 * panels (an FAQ's answers, a service's plans), and those are the page's content. A panel is what says so (`tabpanel`)
 * or what one of the controls opens (its id in their `aria-controls`), however its role is misspelled.
 */
function holdsTabPanel(el: Element, guard: Guard): boolean {
  return findFirst(el, (e) => e.attribs.role?.toLowerCase() === 'tabpanel' || (e.attribs.id !== undefined && guard.disclosed.has(e.attribs.id))) !== undefined;
}
