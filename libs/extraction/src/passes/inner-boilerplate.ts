/**
 * Boilerplate inside the selected main content: the article container also holds its byline, date line, photo
 * credits, share bars, ratings, tag lists, "related" boxes, newsletter forms and comment sections. They are found
 * by the words of their class/id names (split on `-`, `_` and camelCase, because themes spell them `entry-meta`,
 * `postMetadata`, `share_bar`…) and by a few tags. A node holding a large share of the content's text is never
 * removed: the names are a guess, the amount of text is not.
 */
import { MIN_CARDS, cardRun } from '../signals/card-run.js';
import { BODY_TOKEN_RE, COMMENT_WORDS, JUNK_WORDS, LANDING_JUNK_WORDS, POST_BYLINE_WORDS } from '../signals/vocabulary.js';
import { HEADING_TAGS, classWords, findFirst, hasAncestor, isHeadingSlug, isTag, relink, squashedLength, squashedTextLength, squashedTextWithin, type ChildNode, type Element } from '../dom.js';
import { everyPage, type Pass } from './pass.js';

/**
 * On a listing or a shop's category, a class word on at least three cards (`new-listing__categories`, a BEM part of the
 * card template) that holds half the region's text is the cards' own text, not boilerplate among prose.
 */
const CARD_KIND_SHARE = 0.5;

export const innerBoilerplate: Pass = {
  name: 'inner-boilerplate',
  stage: 'pick',
  appliesTo: everyPage,
  run: ({ roots, profile }) => removeInnerBoilerplate(roots.filter(isTag), profile.forum, undefined, profile.landing),
};

/**
 * What the article pick would have pruned inside its container is boilerplate in a widened region too: bylines, share
 * bars, related links. Not on a forum: its posts carry comment and reply class names, and they are the content. A
 * service page's region keeps its promos and authors, whether or not the page reads like an article.
 */
export const regionBoilerplate: Pass = {
  name: 'region-boilerplate',
  stage: 'region',
  appliesTo: (p) => !p.forum,
  run: ({ roots, profile }) =>
    removeInnerBoilerplate(roots.filter(isTag), false, profile.feed ? CARD_KIND_SHARE : undefined, profile.selectAs === 'service', profile.feed),
};

/**
 * Whole class/id tokens that are junk though none of their words is (`toc`, `jp-post-flair`, `most-popular`, an
 * author box, WordPress's card of another post). Embedded tweets stay: articles quote them as sources.
 */
const JUNK_TOKEN_RE =
  /^(?:toc|toc-container|toc-wrapper|ez-toc-container|table-of-contents|jp-post-flair|most-popular|more-stories|read-next|next-post|prev-post|post-nav|nav-links|post-navigation|wp-embedded-content|saboxplugin-wrap)$/;
/** Page-builder class prefixes whose names contain the words above (elementor-widget…) but wrap content. */
const BUILDER_RE = /^(?:elementor|et_pb|et-pb|wp-block|vc_|vc-|wpb_|wpb-|sqs-|tve|fl-|av_|avia|thrv|field--|paragraph--)/;

/** Never removed by name: the containers themselves and elements whose class says nothing about their role. */
const KEEP_TAGS = new Set(['html', 'body', 'main', 'article', 'a', 'img', 'picture', 'table', 'tbody', 'thead', 'tr', 'td', 'th', 'pre', 'code']);
/** Tags that are furniture inside an article. */
const INNER_DROP_TAGS = new Set(['figcaption', 'form', 'fieldset', 'aside', 'footer', 'address']);

/**
 * Byline words that name an entry's date and author line. On an index of entries (a blog's front page, a news
 * section, a list of papers) every entry carries one beside the link to the entry: one kind of at least MIN_CARDS such
 * lines is the index's own text, not a byline among prose. A signed testimonial or a quoted review links to nothing.
 */
const ENTRY_LINE_WORDS = new Set(['author', 'authors', 'byline', 'bylines', 'date', 'timestamp']);
/** Levels above an entry line searched for the entry's link. */
const ENTRY_LEVELS = 3;

/** Whether a link (the entry's) sits beside `el` within ENTRY_LEVELS levels up. */
function besideLink(el: Element): boolean {
  let p = el.parent;
  for (let level = 0; level < ENTRY_LEVELS && p && isTag(p); level++, p = p.parent) {
    if (p.children.some((c) => c !== el && isTag(c) && (isLink(c) || findFirst(c, isLink) !== undefined))) return true;
  }
  return false;
}
const isLink = (el: Element): boolean => el.name === 'a' && el.attribs.href !== undefined;

/**
 * Meta words name a byline or a date line, which carry no heading of their own; a block with a heading whose class says
 * "meta" is a section of the page (a CMS's "meta block" of title and text), not its metadata.
 */
const META_WORDS = new Set(['meta', 'metadata']);

/**
 * Navigation words name menus, which are links. A block so named that holds a heading and text with few links is a
 * section an in-page menu points at (scroll-spy "nav sources", tab panels), not the menu.
 */
const NAV_WORDS = new Set(['nav', 'navigation']);
/** Link share of a block's text below which it reads as text rather than a menu. */
const MAX_SECTION_LINK_SHARE = 0.2;
/** Text from which a block named for navigation can be a section. */
const MIN_SECTION_TEXT = 150;

function isUnlinkedText(el: Element): boolean {
  let text = 0;
  let link = 0;
  const walk = (n: Element, inLink: boolean): void => {
    for (const c of n.children) {
      if (isTag(c)) walk(c, inLink || c.name === 'a');
      else if (c.type === 'text') {
        const len = squashedLength(c.data);
        text += len;
        if (inLink) link += len;
      }
    }
  };
  walk(el, false);
  return text >= MIN_SECTION_TEXT && link < MAX_SECTION_LINK_SHARE * text;
}

function holdsHeading(el: Element): boolean {
  for (const c of el.children) if (isTag(c) && (HEADING_TAGS.has(c.name) || holdsHeading(c))) return true;
  return false;
}

function holdsParagraphs(el: Element): boolean {
  for (const c of el.children) if (isTag(c) && (c.name === 'p' || holdsParagraphs(c))) return true;
  return false;
}

function tokens(el: Element): string[] {
  const out: string[] = [];
  const c = el.attribs.class;
  if (c) for (const t of c.split(/\s+/)) if (t) out.push(t);
  const id = el.attribs.id;
  // Long ids are usually slugs of a heading ("bigtable-sre-a-tale-of-over-alerting"), not component names; so is an id
  // that spells its section's heading (see isHeadingSlug).
  if (id && id.length <= 40 && !isHeadingSlug(el, id)) out.push(id);
  return out;
}

/** The class/id token (and the word in it) that marks `el` as inner boilerplate, or '' when none does. */
export function innerJunkReason(el: Element, keepComments = false, landing = false): string {
  if (el.attribs.itemprop === 'articleBody') return '';
  for (const t of tokens(el)) {
    const lower = t.toLowerCase();
    if (BUILDER_RE.test(lower) || BODY_TOKEN_RE.test(lower)) continue;
    if (JUNK_TOKEN_RE.test(lower.replace(/_/g, '-'))) return t;
    for (const w of classWords(t)) {
      if (!JUNK_WORDS.has(w) || (landing && LANDING_JUNK_WORDS.has(w))) continue;
      if (keepComments && ((COMMENT_WORDS.has(w) && holdsParagraphs(el)) || POST_BYLINE_WORDS.has(w))) continue;
      if (META_WORDS.has(w) && holdsHeading(el)) continue;
      if (NAV_WORDS.has(w) && holdsHeading(el) && isUnlinkedText(el)) continue;
      return `${t}~${w}`;
    }
  }
  return '';
}

/**
 * The caption of a figure that holds a quotation is the quotation's attribution (who said it: HTML's own markup for a
 * testimonial or a pull quote), not a photo caption or credit.
 */
function isQuoteAttribution(el: Element): boolean {
  const figure = el.parent;
  return el.name === 'figcaption' && figure !== null && isTag(figure) && figure.name === 'figure' && findFirst(figure, (e) => e.name === 'blockquote') !== undefined;
}

/** Why `el` would be dropped as inner boilerplate (a class word or a tag name), or ''. */
export function explain(el: Element, keepComments = false, landing = false): string {
  if (isQuoteAttribution(el)) return '';
  return innerJunkReason(el, keepComments, landing) || (INNER_DROP_TAGS.has(el.name) ? el.name : '');
}

/** Lead-ins of "see also" teasers, in the languages of the pages we crawl most. */
const SEE_ALSO_RE =
  /^(?:read (?:more|also|next)|see also|related(?: articles?| stories| posts?)?:|you (?:might|may) also like|also read|more on this|lesen sie (?:auch|hier|mehr)|auch interessant|mehr zum thema|mehr dazu|weiterlesen|zum weiterlesen|auch lesen|schon gelesen|mehr themen|das (?:thema )?könnte (?:sie|dich) auch interessieren|à lire aussi|a lire aussi|lire aussi|voir aussi|lee también|lea también|lea además|leer más|vea también|te puede interesar|leggi anche|potrebbe interessarti|czytaj (?:też|także|również)|zobacz (?:też|także|również)|lees ook|bekijk ook)\b/i;
const SEE_ALSO_TAGS = new Set(['p', 'h2', 'h3', 'h4', 'h5', 'h6', 'div', 'li', 'strong', 'b']);
const MAX_SEE_ALSO = 160;
/** Block-ish parents a date line is removed with ("Published: <time>…</time>"). */
const DATE_LINE_TAGS = new Set(['p', 'div', 'span', 'li', 'small', 'header', 'dd', 'em', 'strong', 'b', 'i']);

/** The element to drop for a <time>: its enclosing date line, when the line says little besides the date. */
function dateLineOf(time: Element, roots: Set<Element>): Element | undefined {
  let line: Element | undefined;
  const timeText = squashedTextLength(time);
  for (let p = time.parent; p && isTag(p) && !roots.has(p) && DATE_LINE_TAGS.has(p.name); p = p.parent) {
    const lineText = squashedTextWithin(p, timeText + 30);
    if (lineText === undefined || lineText.length - timeText > 30) break;
    line = p;
  }
  return line;
}

/** Photo credits: "Foto: …", "Titelbild: …", "Crédits photos : …", "… / Getty Images", "© …". */
const CREDIT_RE =
  /^(?:(?:photos?|fotos?|bilder?|titelbild|beitragsbild|headerbild|image|images|picture|credits?|crédits?(?: photos?)?|bildquelle|fotoquelle|fotografie|photo credits?|zdjęcie|fot\.|abbildung(?:\s*\d+)?|abb\.(?:\s*\d+)?|quelle|source|fuente|źródło)\s*:|©|\(c\)\s)|[/|©]\s*(?:getty ?images|shutterstock|istock(?:photo)?|imago(?: images)?|picture[- ]alliance|dpa|afp|reuters|ap(?: photo)?|keystone|epa|wenn\.com)\s*\)?$|^(?:afp|dpa|reuters|ap|epa|keystone|imago)\s*\//i;
const CREDIT_TAGS = new Set(['p', 'div', 'span', 'small', 'em', 'i', 'li', 'figcaption']);
const MAX_CREDIT = 100;

/** Short "see also" teasers, date lines and photo credits inside the content. */
function smallJunk(el: Element, roots: Set<Element>, keepDates: boolean): Element | undefined {
  if (el.name === 'time') return keepDates ? undefined : dateLineOf(el, roots);
  const credit = CREDIT_TAGS.has(el.name);
  const seeAlso = SEE_ALSO_TAGS.has(el.name);
  if (!credit && !seeAlso) return undefined;
  const t = squashedTextWithin(el, Math.max(credit ? MAX_CREDIT : 0, seeAlso ? MAX_SEE_ALSO : 0));
  if (!t) return undefined;
  if (credit && t.length <= MAX_CREDIT && CREDIT_RE.test(t)) return el;
  if (seeAlso && t.length <= MAX_SEE_ALSO && SEE_ALSO_RE.test(t)) return el;
  return undefined;
}

const CAPTION_KEYS = new Set(['figcaption', 'caption', 'captions']);
/** Code blocks and spans: what they hold is code, never judged by its markup's names (see removeInnerBoilerplate). */
const CODE_TAGS = new Set(['pre', 'code']);

/**
 * On a listing or a shop's category, a card's rating ("4.9 average · 161 reviews") is the card's own text: what a
 * reader compares the items by, not the rating widget of an article.
 */
const CARD_PART_WORDS = new Set(['rating', 'ratings']);

/** The cards of every run of at least MIN_CARDS cards under `nodes`. */
function cardsUnder(nodes: Element[]): Set<Element> {
  const out = new Set<Element>();
  const walk = (el: Element): void => {
    const run = cardRun(el);
    if (run.length >= MIN_CARDS) for (const c of run) out.add(c);
    for (const c of el.children) if (isTag(c)) walk(c);
  };
  for (const n of nodes) walk(n);
  return out;
}

interface Candidate {
  el: Element;
  key: string;
  text: number;
  /** the nearest candidate this one lies inside */
  outer?: Candidate;
}

/** Share of the selection's text above which a candidate is kept whatever its name. */
const MAX_SHARE = 0.25;
/** Share of the selection's text a kind of candidate (same class word) must hold together to be kept. */
const MAX_KIND_SHARE = 0.75;

/**
 * Text per kind (class word) of the candidates that count towards keeping a kind: the outermost ones, and those
 * inside candidates kept as a kind of at least MIN_CARDS members. Product cards named by their taxonomy
 * (`product_tag-…`) are kept as a kind, and then their captions are the cards' text, not captions among prose: they count too. (Inside a single candidate kept
 * for its size, a promo bar around the whole page, the parts are still what their names say.)
 */
function keptKindTotals(found: Candidate[], total: number, cardKindShare: number): { perKey: Map<string, number>; members: Map<string, number> } {
  const perKey = new Map<string, number>();
  const members = new Map<string, number>();
  const counted = new Set<Candidate>();
  const keptAsKind = (f: Candidate): boolean => (members.get(f.key) ?? 0) >= MIN_CARDS && (perKey.get(f.key) ?? 0) > total * Math.min(cardKindShare, MAX_KIND_SHARE);
  for (let grew = true; grew; ) {
    grew = false;
    for (const f of found) {
      if (counted.has(f) || (f.outer && !(counted.has(f.outer) && keptAsKind(f.outer)))) continue;
      counted.add(f);
      perKey.set(f.key, (perKey.get(f.key) ?? 0) + f.text);
      members.set(f.key, (members.get(f.key) ?? 0) + 1);
      grew = true;
    }
  }
  return { perKey, members };
}

/**
 * Remove boilerplate descendants of the content nodes in place. A candidate holding more than a quarter of the
 * selection's text is kept, and so is every candidate of a kind (same class word) that together would take more
 * than three quarters of it: on a forum thread the "comments" are the content, and generated class names (`tagStyle_x1`)
 * can put a junk word on every paragraph. `cardKindShare`: on a listing, a kind of at least MIN_CARDS candidates is
 * kept from this share (it names a part of the cards' template). `landing`: the content is a service page's, whose
 * promos are its offers and whose authors are those it quotes (see LANDING_JUNK_WORDS). `cardParts`: the content is a
 * feed of cards, whose ratings are their own (CARD_PART_WORDS).
 */
export function removeInnerBoilerplate(nodes: Element[], keepComments = false, cardKindShare = MAX_KIND_SHARE, landing = false, cardParts = false): void {
  const total = nodes.reduce((a, n) => a + squashedTextLength(n), 0);
  const found: Candidate[] = [];
  let captionText = 0;
  const visit = (node: Element, outer: Candidate | undefined, inRemovable: boolean): void => {
    for (const c of node.children) {
      if (!isTag(c)) continue;
      const reason = KEEP_TAGS.has(c.name) ? '' : explain(c, keepComments, landing);
      let f: Candidate | undefined;
      if (reason) {
        f = { el: c, key: reason.slice(reason.indexOf('~') + 1), text: squashedTextLength(c), outer };
        found.push(f);
        if (!inRemovable && CAPTION_KEYS.has(f.key)) captionText += f.text;
      }
      // Inside code, class names are a syntax highlighter's token kinds (`hljs-comment`): the code's own text.
      if (CODE_TAGS.has(c.name)) continue;
      // Captions inside a candidate too large to remove (a <form> around a whole product grid) are counted: there
      // they are the cards' text.
      visit(c, f ?? outer, inRemovable || (f !== undefined && f.text <= total * MAX_SHARE));
    }
  };
  for (const n of nodes) visit(n, undefined, false);
  const { perKey, members } = keptKindTotals(found, total, cardKindShare);
  // Date lines and "see also" teasers are small and unambiguous: removed first, without the share guards.
  const roots = new Set(nodes);
  const small = new Set<Element>();
  const findSmall = (node: Element): void => {
    for (const c of node.children) {
      if (!isTag(c)) continue;
      const junk = smallJunk(c, roots, keepComments);
      if (junk) small.add(junk);
      else if (!CODE_TAGS.has(c.name)) findSmall(c);
    }
  };
  for (const n of nodes) findSmall(n);
  for (const el of small) if (el.parent) relink(el.parent, el.parent.children.filter((c) => c !== el));
  if (found.length === 0) return;
  const removed = new Set<Element>();
  const doomed = new Map<Element, Set<ChildNode>>();
  let cards: Set<Element> | undefined;
  for (const f of found) {
    // Captions are usually credits and photo descriptions; in a gallery, where they carry much of the text, they
    // are the content.
    if (CAPTION_KEYS.has(f.key) && captionText > total * 0.3) continue;
    const kind = perKey.get(f.key) ?? 0;
    if (f.text > total * MAX_SHARE || kind > total * MAX_KIND_SHARE || ((members.get(f.key) ?? 0) >= MIN_CARDS && kind > total * cardKindShare)) continue;
    if (ENTRY_LINE_WORDS.has(f.key) && (members.get(f.key) ?? 0) >= MIN_CARDS && besideLink(f.el)) continue;
    if (cardParts && CARD_PART_WORDS.has(f.key)) {
      const inCards = (cards ??= cardsUnder(nodes));
      if (hasAncestor(f.el, (a) => inCards.has(a))) continue;
    }
    let gone = false;
    for (let p = f.el.parent; p && !gone; p = p.parent) gone = removed.has(p as Element);
    if (gone) continue;
    removed.add(f.el);
    const parent = f.el.parent as Element;
    let set = doomed.get(parent);
    if (!set) doomed.set(parent, (set = new Set()));
    set.add(f.el);
  }
  for (const [parent, set] of doomed) relink(parent, parent.children.filter((c) => !set.has(c)));
}
