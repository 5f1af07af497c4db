/**
 * What cleaning drops, rule by rule. Cleaning walks the document once and asks each element the rules in the order of
 * DROP_RULES: the first with a verdict decides (`drop` the element with its subtree, or `keep` it and ask no further
 * rule), and an element no rule decides is kept. Rules marked `aggressive` are asked in aggressive mode only: page
 * chrome by its tags, roles and class words. Adding a rule is one entry in the list, at the place where it should be
 * asked.
 */
import { holdsCardRun } from '../signals/card-run.js';
import { isFaq } from '../signals/faq.js';
import { AD_WORDS_ALL_RE, CHROME_RE, CONTENTS_RE, COMMENT_CHROME_ALL_RE, COMMENT_CHROME_RE, CONSENT_VENDOR_RE, JUNK_RE, LANDING_CHROME_ALL_RE, MAYBE_CONTENT_RE } from '../signals/vocabulary.js';
import { classAndId, findAll, findFirst, hasAncestor, HEADING_TAGS, isTag, isText, textContent, type Element } from '../dom.js';
import { AEM_COMPONENT_RE, AEM_PREFIXED_RE, guarded, type Guard } from './guard.js';

/** Never content: dropped with their whole subtree. */
const DROP_TAGS = new Set([
  'script', 'style', 'noscript', 'iframe', 'frame', 'frameset', 'template', 'svg', 'canvas', 'object', 'embed',
  'applet', 'input', 'button', 'select', 'textarea', 'option', 'datalist', 'dialog', 'math', 'map', 'area', 'audio',
  'video', 'source', 'track', 'param', 'base', 'portal', 'slot',
  // ruby annotations (furigana) would interleave readings with the text they annotate
  'rt', 'rp',
]);
const CHROME_ROLES = new Set(['navigation', 'banner', 'contentinfo', 'complementary', 'menu', 'menubar', 'search', 'dialog', 'alertdialog', 'tablist']);

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
 * A chapter's table of contents: a block named for it, under its section's heading, that holds most of the section's
 * text and links to the chapter's own pages (PostgreSQL's or a DocBook manual's "Chapter 11. Indexes"). The chapter
 * page is its contents; an article's in-page table of contents links to its own headings (`#fragment`), and a sidebar
 * of the manual's pages sits beside the page's heading, not under it.
 */
function isChapterContents(el: Element, guard: Guard): boolean {
  const text = guard.textLen.get(el) ?? 0;
  // The section: the first ancestor with a heading before the block, past the wrappers that hold nearly only the
  // contents (`div.toc` around its `dl.toc` and a caption).
  let block = el;
  let parent = el.parent;
  for (let level = 0; parent && isTag(parent) && !headingBefore(parent, block); level++, block = parent, parent = parent.parent) {
    if (level >= MAX_WRAPPERS || text < WRAPPED_SHARE * (guard.textLen.get(parent) ?? 0)) return false;
  }
  if (!parent || !isTag(parent) || text < CHAPTER_CONTENTS_SHARE * (guard.textLen.get(parent) ?? 0)) return false;
  const pages = new Set<string>();
  let links = 0;
  for (const a of findAll(el, (e) => e.name === 'a' && e.attribs.href !== undefined)) {
    links++;
    const page = a.attribs.href!.split('#')[0]!;
    if (page) pages.add(page);
  }
  return pages.size >= MIN_CHAPTER_PAGES && pages.size >= CHAPTER_PAGE_SHARE * links;
}

const headingBefore = (parent: Element, block: Element): boolean =>
  parent.children.slice(0, parent.children.indexOf(block)).some((c) => isTag(c) && (HEADING_TAGS.has(c.name) || findFirst(c, (e) => HEADING_TAGS.has(e.name)) !== undefined));
/** Wrappers climbed, and the share of a wrapper's text the contents hold for it to be one. */
const MAX_WRAPPERS = 3;
const WRAPPED_SHARE = 0.9;
/** Share of its section's text a chapter's contents holds. */
const CHAPTER_CONTENTS_SHARE = 0.5;
/** Pages a chapter's contents links to, at least, and as a share of its links (the rest point into those pages). */
const MIN_CHAPTER_PAGES = 3;
const CHAPTER_PAGE_SHARE = 0.3;

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

/**
 * A tab list is the strip of tabs, chrome beside the panels it switches; an accordion built as a `tablist` holds its
 * panels (an FAQ's answers, a service's plans), and those are the page's content. A panel is what says so (`tabpanel`)
 * or what one of the controls opens (its id in their `aria-controls`), however its role is misspelled.
 */
function holdsTabPanel(el: Element, guard: Guard): boolean {
  return findFirst(el, (e) => e.attribs.role?.toLowerCase() === 'tabpanel' || (e.attribs.id !== undefined && guard.disclosed.has(e.attribs.id))) !== undefined;
}

/** What a rule says of an element: drop it, keep it (no later rule is asked), or nothing (the next rule decides). */
/** Characters from which a block of bare JSON is a script's state rather than a short code sample. */
const MIN_DATA_TEXT = 200;

/**
 * A block whose whole text is a JSON document (an object or an array of them) holds a script's state, printed into a
 * hidden `<div>` for the page's code to read (`{"painterId":…,"asins":[…]}`): data, not text anyone reads. Code
 * samples sit in `<pre>`/`<code>`, which this leaves alone.
 */
function isDataText(el: Element): boolean {
  if (el.children.length !== 1 || el.name === 'pre' || el.name === 'code') return false;
  const only = el.children[0];
  if (!isText(only) || only.data.length < MIN_DATA_TEXT) return false;
  // Most long single-text blocks are paragraphs: look at the first visible character before copying anything.
  const first = only.data.search(/\S/);
  const open = only.data.charCodeAt(first);
  if (open !== 0x7b && open !== 0x5b) return false;
  const t = only.data.trim();
  if (!/^(?:\{\s*"|\[\s*[{"[])/.test(t) || !/[}\]]$/.test(t) || insideCode(el)) return false;
  try {
    JSON.parse(t);
    return true;
  } catch {
    return false;
  }
}

export type Verdict = 'drop' | 'keep' | undefined;

/**
 * The element being judged and what the rules read of it, each computed once, when a rule first asks. One per walk,
 * moved on to each element in turn.
 */
export class Judged {
  el!: Element;
  private names: string | undefined;
  private chrome: string | undefined;
  constructor(readonly guard: Guard) {}

  /** Judge `el` next. */
  next(el: Element): this {
    this.el = el;
    this.names = undefined;
    this.chrome = undefined;
    return this;
  }

  /** Its class and id (see `classAndId`). */
  get words(): string {
    return (this.names ??= classAndId(this.el));
  }

  /**
   * Its class words that may make it chrome: not those that name an article's header or search results, nor on a forum
   * its posts, on a landing page its sections, or inside the <main> region a section's header.
   */
  get chromeWords(): string {
    if (this.chrome !== undefined) return this.chrome;
    const { el, guard } = this;
    let chromeWords = without(without(this.words, CONTENT_HEADER_RE, 'header'), SEARCH_RESULTS_RE, 'search');
    if (guard.keepComments) chromeWords = chromeWords.replace(COMMENT_CHROME_ALL_RE, ' ');
    if (guard.landing) chromeWords = chromeWords.replace(LANDING_CHROME_ALL_RE, ' ');
    if (chromeWords.includes('header') && isSectionHeader(el, guard)) chromeWords = chromeWords.replace(SECTION_HEADER_RE, ' ');
    return (this.chrome = chromeWords);
  }
}

export interface DropRule {
  readonly name: string;
  /** Asked in aggressive mode only. */
  readonly aggressive: boolean;
  /** The only tags the rule judges, when it judges a few: it is not asked about other elements. */
  readonly tags?: readonly string[];
  judge(j: Judged): Verdict;
}

const drop = (yes: boolean): Verdict => (yes ? 'drop' : undefined);
const keep = (yes: boolean): Verdict => (yes ? 'keep' : undefined);

/**
 * Inside a code block, class names are a syntax highlighter's token kinds (`hljs-comment`, Prism's `token comment`,
 * `code-header`): the code's own text, never chrome or junk, whatever words they use. Asked last, of an element class
 * words would drop.
 */
const insideCode = (el: Element): boolean => hasAncestor(el, (a) => a.name === 'pre' || a.name === 'code');

/** Junk by its class words (JUNK_RE), once the names that only look like junk are taken out. */
function isJunk(j: Judged): boolean {
  const { el, guard, words } = j;
  if (!words || !JUNK_RE.test(without(without(words, guard.aemComponents ? AEM_PREFIXED_RE : AEM_COMPONENT_RE, 'cmp-'), DRUPAL_PROMOTED_RE, 'promoted'))) return false;
  return !MAYBE_CONTENT_RE.test(words) && !guarded(el, guard) && !proseInAdSlot(el, words, guard) && !insideCode(el);
}

/**
 * Chrome by its class words (CHROME_RE). A block named for an FAQ is the page's questions and answers, whatever chrome
 * word its builder adds (`widget widgetFAQ`, `faq_tabs-menu-link`): a CMS's FAQ module is one of the page's sections.
 * Prose is spared too, but comment threads are prose and never the article: their class words keep applying.
 */
function isChrome(j: Judged): boolean {
  const { el, guard, chromeWords } = j;
  return chromeWords !== '' && CHROME_RE.test(chromeWords) && !isFaq(el) && !MAYBE_CONTENT_RE.test(chromeWords) && !(isProse(el, guard) && !COMMENT_CHROME_RE.test(chromeWords)) && !holdsPageHeading(el, guard) && !insideCode(el) && !(CONTENTS_RE.test(chromeWords) && isChapterContents(el, guard));
}

function isChromeRole(el: Element, guard: Guard): boolean {
  const role = el.attribs.role?.toLowerCase();
  return role !== undefined && CHROME_ROLES.has(role) && !(role === 'tablist' && holdsTabPanel(el, guard));
}

export const DROP_RULES: readonly DropRule[] = [
  { name: 'never-content', aggressive: false, judge: (j) => drop(DROP_TAGS.has(j.el.name)) },
  { name: 'link', aggressive: false, tags: ['link'], judge: (j) => (j.el.attribs.rel?.toLowerCase() !== 'canonical' ? 'drop' : 'keep') },
  { name: 'document', aggressive: false, tags: ['html', 'body', 'head', 'title', 'meta'], judge: () => 'keep' },
  { name: 'hidden', aggressive: false, judge: (j) => drop(isHidden(j.el) && !guarded(j.el, j.guard) && !isCollapsedContent(j.el, j.guard)) },
  // AMP components laid out as "nodisplay" (lightboxes, user notifications) open only on a user's action: however
  // much text a gallery lightbox repeats, it is not the page's text.
  { name: 'data-text', aggressive: false, judge: (j) => drop(isDataText(j.el)) },
  { name: 'amp-nodisplay', aggressive: false, judge: ({ el }) => drop(el.name.startsWith('amp-') && (el.attribs.layout === 'nodisplay' || el.attribs.class?.includes('i-amphtml-layout-nodisplay') === true)) },
  { name: 'tracker-image', aggressive: false, tags: ['img'], judge: (j) => drop(isTrackerImage(j.el)) },
  { name: 'consent-vendor', aggressive: false, judge: (j) => drop(j.words !== '' && CONSENT_VENDOR_RE.test(j.words) && !j.guard.protectedNodes.has(j.el)) },
  { name: 'junk', aggressive: false, judge: (j) => drop(isJunk(j)) },
  { name: 'modal-dialog', aggressive: false, judge: (j) => drop(isModalDialog(j.el) && !guarded(j.el, j.guard)) },
  // Aggressive mode: page chrome. The article's landmarks and what the guard protects stay, whatever they are named.
  { name: 'landmark', aggressive: true, tags: ['main', 'article'], judge: () => 'keep' },
  { name: 'guarded', aggressive: true, judge: (j) => keep(guarded(j.el, j.guard)) },
  { name: 'poster-detail', aggressive: true, judge: (j) => drop(j.guard.keepComments && isPosterDetail(j.el)) },
  // Structural boilerplate: site chrome rather than content (a header or footer only outside an article: below).
  { name: 'chrome-tags', aggressive: true, tags: ['nav', 'aside', 'menu'], judge: () => 'drop' },
  { name: 'chrome-roles', aggressive: true, judge: (j) => drop(isChromeRole(j.el, j.guard)) },
  { name: 'site-header', aggressive: true, tags: ['header'], judge: (j) => drop(!insideArticle(j.el) && j.chromeWords === j.words) },
  { name: 'entry-header', aggressive: true, tags: ['header'], judge: (j) => keep(isEntryHeader(j.el)) },
  { name: 'site-footer', aggressive: true, tags: ['footer'], judge: (j) => drop(!insideArticle(j.el)) },
  { name: 'chrome-words', aggressive: true, judge: (j) => drop(isChrome(j)) },
];

/** The rules asked about elements of one tag name, in order, per cleaning mode: the list is read once per tag. */
const rulesByTag = [new Map<string, readonly DropRule[]>(), new Map<string, readonly DropRule[]>()];
function rulesFor(tag: string, aggressive: boolean): readonly DropRule[] {
  const cache = rulesByTag[aggressive ? 1 : 0];
  let rules = cache.get(tag);
  if (!rules) {
    rules = DROP_RULES.filter((r) => (aggressive || !r.aggressive) && (!r.tags || r.tags.includes(tag)));
    cache.set(tag, rules);
  }
  return rules;
}

/** Whether cleaning drops `j.el`: the verdict of the first rule that has one (see DROP_RULES). */
export function shouldDrop(j: Judged, aggressive: boolean): boolean {
  for (const rule of rulesFor(j.el.name, aggressive)) {
    const verdict = rule.judge(j);
    if (verdict !== undefined) return verdict === 'drop';
  }
  return false;
}
