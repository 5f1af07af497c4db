/**
 * Byline detection in the page markup, after Readability's: walk the document in order, skipping what a reader
 * cannot see and regions that are unlikely to be the article (comments, sidebars, footers), and take the first
 * element marked as the author (rel=author, itemprop=author, or a byline-ish class/id) whose text is short.
 * The raw byline is then reduced to the name(s) it carries: "By Jane Doe | March 3, 2024" → "Jane Doe".
 */
import { type AnyNode, type Element, type ParentNode, BLOCK_TAGS, isTag, isText } from './dom.js';

const BYLINE_RE = /byline|author|dateline|writtenby|p-author/i;
/**
 * Readability's "unlikely candidates" (a byline inside a comment thread or a sidebar teaser is someone else's),
 * less "header": the article's own header ("entry-header", "article-header") is where bylines live, and Readability
 * only finds those on its retry without the filter.
 */
const UNLIKELY_RE =
  /-ad-|ai2html|banner|breadcrumbs|combx|comment|community|cover-wrap|disqus|extra|footer|gdpr|legends|menu|related|remark|replies|rss|shoutbox|sidebar|skyscraper|social|sponsor|supplemental|ad-break|agegate|pagination|pager|popup|yom-remote/i;
const MAYBE_CANDIDATE_RE = /and|article|body|column|content|main|shadow/i;
/** Regions holding other people's names even when the author markup is explicit (with the unlikely roles). */
const COMMENTS_RE = /comment|disqus|replies/i;
const UNLIKELY_ROLES = new Set(['menu', 'menubar', 'complementary', 'navigation', 'alert', 'alertdialog', 'dialog']);
/** Elements whose text is not shown as text. */
const NO_TEXT = new Set(['script', 'style', 'noscript', 'template', 'svg', 'math']);
/** Longer than this, an "author" element is a bio box or a whole article header, not a byline. */
const MAX_BYLINE_CHARS = 100;

/** Hidden from the reader by attribute or inline style (Readability's _isProbablyVisible, inverted). */
export function isHidden(el: Element): boolean {
  const a = el.attribs;
  if (a.hidden !== undefined) return true;
  if (a['aria-hidden'] === 'true' && !(a.class ?? '').includes('fallback-image')) return true;
  if (a['aria-modal'] === 'true' && a.role === 'dialog') return true;
  const style = a.style;
  return !!style && /(?:^|;)\s*(?:display\s*:\s*none|visibility\s*:\s*hidden)\b/i.test(style);
}

/** rel=author or itemprop=author: the page says outright that this is the author. */
function isExplicitAuthor(el: Element): boolean {
  const a = el.attribs;
  return !!a.rel?.toLowerCase().split(/\s+/).includes('author') || !!a.itemprop?.toLowerCase().includes('author');
}

/**
 * Visible text of a node (script, style and the like left out), with a line break where a block, a <br> or a
 * <time> starts or ends: "By Jo Doe<br>May 3" and "<div>Jo Doe</div><div>Staff writer</div>" keep the name on a
 * line of its own instead of running into what follows.
 */
export function visibleText(node: AnyNode): string {
  if (isText(node)) return node.data;
  if (!('children' in node)) return '';
  if (isTag(node)) {
    if (NO_TEXT.has(node.name)) return '';
    if (node.name === 'br') return '\n';
  }
  let out = '';
  for (const c of (node as ParentNode).children) out += visibleText(c);
  return isTag(node) && (BLOCK_TAGS.has(node.name) || node.name === 'time') ? `\n${out}\n` : out;
}

/**
 * Whether the element's visible text is non-empty and shorter than a byline can be. Stops reading once past the
 * limit: a byline-ish class on a page wrapper ("single-author") would otherwise cost a pass over the whole page.
 */
function isShortText(el: Element): boolean {
  let text = '';
  const read = (n: AnyNode): boolean => {
    if (isText(n)) {
      text += n.data;
      return text.trim().length < MAX_BYLINE_CHARS;
    }
    if (!isTag(n) || NO_TEXT.has(n.name)) return true;
    if (n.name === 'br') text += '\n';
    return n.children.every(read);
  };
  return read(el) && text.trim().length > 0;
}

/**
 * Inside a byline block marked up with schema.org, the itemprop=name element holds just the name, without the
 * "By", the date or the share buttons around it.
 */
function itempropName(el: Element): Element | undefined {
  for (const c of el.children) {
    if (!isTag(c)) continue;
    if (c.attribs.itemprop?.toLowerCase().includes('name')) return c;
    const inner = itempropName(c);
    if (inner) return inner;
  }
  return undefined;
}

/** How many candidates each kind of evidence gets before giving up (a dateline can come before the author line). */
const MAX_CANDIDATES = 4;

/**
 * The author name(s) from the page's byline markup; undefined when none is found. First Readability's walk: the
 * first element in document order marked as the author (rel=author, itemprop=author, a byline-ish class/id) outside
 * hidden and unlikely regions, whose text reduces to a name; a rejected candidate's own descendants come next, so
 * "Published on May 3 by <span class=author>Jo Doe</span>" still yields the name. Then, since that walk skips whole
 * regions by class name (a byline in a "post-footer"), rel=author / itemprop=author anywhere but in comments,
 * sidebars and navigation. One pass over the tree serves both.
 */
export function findByline(root: ParentNode): string | undefined {
  let strictTried = 0;
  const explicit: Element[] = [];
  let found: string | undefined;
  const walk = (n: ParentNode, unlikelyRegion: boolean, othersRegion: boolean, inTableOrCode: boolean): boolean => {
    for (const c of n.children) {
      if (!isTag(c) || NO_TEXT.has(c.name) || isHidden(c)) continue;
      const { class: cls, id } = c.attribs;
      const matchString = cls || id ? `${cls ?? ''} ${id ?? ''}` : '';
      if (!unlikelyRegion && strictTried < MAX_CANDIDATES && (isExplicitAuthor(c) || BYLINE_RE.test(matchString)) && isShortText(c)) {
        strictTried++;
        found = cleanByline(visibleText(itempropName(c) ?? c));
        if (found) return true;
      } else if (!othersRegion && explicit.length < MAX_CANDIDATES && isExplicitAuthor(c) && isShortText(c)) {
        explicit.push(c);
      }
      const role = c.attribs.role !== undefined && UNLIKELY_ROLES.has(c.attribs.role);
      const maybe = !matchString || c.name === 'body' || c.name === 'a' || MAYBE_CANDIDATE_RE.test(matchString);
      const unlikely = role || (!inTableOrCode && !maybe && UNLIKELY_RE.test(matchString));
      const others = role || (!maybe && COMMENTS_RE.test(matchString));
      if (walk(c, unlikelyRegion || unlikely, othersRegion || others, inTableOrCode || c.name === 'table' || c.name === 'code')) return true;
    }
    return false;
  };
  if (walk(root, false, false, false)) return found;
  for (const el of explicit) {
    const name = cleanByline(visibleText(itempropName(el) ?? el));
    if (name) return name;
  }
  return undefined;
}

/**
 * "By", "Written by", "View all posts by" and the like, in English, German, French, Spanish/Portuguese and Dutch.
 * Only phrases, not a bare "von"/"de": those are also name particles ("Ursula von der Leyen").
 */
const LEAD_IN_RE = new RegExp(
  '^(?:' +
    [
      String.raw`(?:(?:written|posted|published|reported|story|words|text|photos?|recipe|article|interview|(?:(?:view|see)\s+)?(?:all|more)\s+(?:posts|articles|stories)|a\s+(?:post|story|article))\s+)?by`,
      String.raw`(?:(?:geschrieben|veröffentlicht|verfasst|publiziert|erstellt|gepostet|(?:ein\s+)?beitrag|artikel|(?:zeige\s+)?alle\s+beiträge)\s*)?von`,
      String.raw`(?:(?:publié|écrit|rédigé|publicado|escrito|redactado)\s+)?(?:par|por)`,
      String.raw`door`,
    ].join('|') +
    // At the end too: "By" whose name sits in another element is no name.
    String.raw`)(?:\s*:\s*|\s+|$)`,
  'iu',
);
/** A one-word label before a colon: "Author:", "Autor/in:", "Text und Interview:", "作者：". */
const LABEL_RE = /^\p{L}{2,15}(?:[/*]\p{L}{1,3}|\s+(?:und|and|et|y|&)\s+\p{L}{2,15})?\s*[:：]\s*/u;
/** A label glued to the name by the markup: "AuthorJane Doe", "vonChris Jung" (lower case, then a capital). */
const GLUED_LEAD_IN_RE = /^(?:[Aa]uthor|[Aa]utor|[Bb]y|[Vv]on|[Pp]ar|[Pp]or)(?=\p{Lu}\p{Ll})/u;

const MONTHS =
  'jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec|january|february|march|april|june|july|august|september|october|november|december|' +
  'januar|februar|märz|mai|juni|juli|oktober|dezember|janvier|février|mars|avril|juin|juillet|août|septembre|octobre|novembre|décembre';
const WEEKDAYS =
  'monday|tuesday|wednesday|thursday|friday|saturday|sunday|montag|dienstag|mittwoch|donnerstag|freitag|samstag|sonntag|' +
  'lundi|mardi|mercredi|jeudi|vendredi|samedi|dimanche';
/** Where a byline line stops being names: a date, an update note, a reading time, a handle, a separator. */
function trailerRe(dom: boolean): RegExp {
  return new RegExp(
    [
      // In a declared value these may be part of the name: "Jo Doe - Al Roe", "For The Mail On Sunday".
      ...(dom ? [String.raw`\s[–—-]\s`, String.raw`(?<!\p{L})(?:${WEEKDAYS})(?!\p{L})`] : []),
      String.raw`[|•·]`,
      String.raw`(?<!\p{L})(?:last\s+)?(?:updated|published|posted|veröffentlicht|aktualisiert|publiziert|publié|mis\s+à\s+jour)(?!\p{L})`,
      String.raw`(?:\d{1,2}(?:st|nd|rd|th|\.)?\s+)?(?<!\p{L})(?:${MONTHS})\.?\s+\d`,
      String.raw`\s(?:am|on|le)\s+\d`,
      String.raw`\b\d+\s*min(?:ute)?s?\b`,
      String.raw`(?:vor|hace|il\s+y\s+a)\s+\d+\s+\p{L}|\b\d+\s+(?:min(?:ute)?s?|hours?|days?|weeks?)\s+ago\b`,
      String.raw`@\w{1,15}(?![\w.@-])`,
    ].join('|'),
    'iu',
  );
}
const DOM_TRAILER_RE = trailerRe(true);
const DECLARED_TRAILER_RE = trailerRe(false);
/** Labels of buttons and links that sit in author boxes. */
const UI_LABEL_RE =
  /^(?:follow|view|see|more|all|about|contact)(?:\s+(?:the\s+)?(?:author|profile|posts|articles|stories|bio))?$|\b(?:all|alle|more)\s+(?:posts|articles|stories|beiträge|artikel)(?!\p{L})|\barticles\s+of$|^(?:dr|prof|mr|mrs|ms|mme|frau|herr)\.?$/iu;

/**
 * Cut at the first digit when a date or a time follows ("Nolan22 Dec 2016", "21.dez.2018 às 10h55"), but not in a
 * handle like "freeman1984".
 */
function withoutTrailingDate(s: string): string {
  const i = s.search(/\d/);
  if (i < 0) return s;
  const rest = s.slice(Math.max(0, i - 1));
  return /[\s.,/-](?:19|20)\d\d(?!\d{2})|\d{1,2}[:h]\d{2}\b/.test(rest) ? s.slice(0, i) : s;
}

/**
 * A raw byline reduced to the name(s) in it, or undefined when nothing name-like remains (a date-only "dateline",
 * "Follow Author"). Commas and "and" stay: they join co-authors. `declared` is for a value the page declares as the
 * author (JSON-LD, <meta>): there " - " may join two names ("Jo Doe - Al Roe"), so it does not end the name.
 */
export function cleanByline(raw: string, declared = false): string | undefined {
  // Declared values sometimes carry markup ("<a href=…>Jo Doe</a>").
  let s = raw.replace(/<[^>]*>/g, ' ').trim().replace(/^[^\p{L}\p{N}(@]+/u, '');
  for (let i = 0; i < 2; i++) s = s.replace(LEAD_IN_RE, '').replace(LABEL_RE, '').replace(GLUED_LEAD_IN_RE, '');
  // The markup put the name on its own line; what follows (a role, a date, "Edited by …") is not the author.
  s = s.split(/\s*[\n\r]\s*/)[0] ?? '';
  s = s.replace(/\s+/g, ' ');
  const cut = s.search(declared ? DECLARED_TRAILER_RE : DOM_TRAILER_RE);
  if (cut >= 0) s = s.slice(0, cut);
  s = withoutTrailingDate(s)
    .replace(/[^\p{L}\p{N}).]+$/u, '')
    // A connector left dangling by the cut ("lupa am" before a date in another element).
    .replace(/\s+(?:am|on|um)$/i, '')
    .trim();
  if (s.length < 2 || s.length >= MAX_BYLINE_CHARS || !/\p{L}/u.test(s) || UI_LABEL_RE.test(s)) return undefined;
  return s;
}
