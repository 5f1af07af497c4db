/**
 * Page metadata from the head and markup, by Readability's rules: JSON-LD first (the most deliberate source), then
 * Dublin Core / Open Graph / Twitter / plain <meta>, then markup (<title> trimmed of the site name, <html lang>,
 * the byline, <time>). Must run on the document before cleaning, which removes the JSON-LD <script> blocks and the
 * byline. When the page has no description, `descriptionFromContent` takes the main content's first paragraph.
 */
import type { PageMetadata } from '#contracts';
import { type AnyNode, type ChildNode, type Document, type Element, isTag, isText, textContent, findAll, findFirst, parseHtml, type ParentNode } from './dom.js';
import { documentBaseUrl } from './clean/clean.js';
import { cleanByline, findByline, isHidden, visibleText } from './byline.js';

interface JsonLdFacts {
  /** name and headline of the same item: which one is the title is decided against the <title> (see jsonLdTitle). */
  name?: string;
  headline?: string;
  description?: string;
  author?: string;
  /** The author given only as an {"@id"} reference: the account that posted, which may not be the byline. */
  authorRef?: string;
  published?: string;
  siteName?: string;
  language?: string;
}

const ARTICLE_TYPE_RE =
  /^(?:Article|AdvertiserContentArticle|NewsArticle|AnalysisNewsArticle|AskPublicNewsArticle|BackgroundNewsArticle|OpinionNewsArticle|ReportageNewsArticle|ReviewNewsArticle|Report|SatiricalArticle|ScholarlyArticle|MedicalScholarlyArticle|SocialMediaPosting|BlogPosting|LiveBlogPosting|DiscussionForumPosting|TechArticle|APIReference|WebPage|Recipe|Review)$/;

/**
 * Whitespace collapsed and trimmed. Only ASCII whitespace: a no-break space (French "Titre : sous-titre") or an
 * ideographic space (Japanese titles) is typography the author chose, not markup indentation.
 */
function clean(s: string | undefined): string | undefined {
  if (s === undefined) return undefined;
  const t = s.replace(/[\t\n\f\r ]+/g, ' ').trim();
  return t === '' ? undefined : t;
}

/**
 * Whitespace tidied but line breaks kept: a description is prose whose line breaks may be the author's (a
 * changelog, a list), while runs of spaces and blank lines are markup noise.
 */
function trimmed(s: string | undefined): string | undefined {
  const t = s
    ?.replace(/[\t\f ]+/g, ' ')
    .replace(/ ?[\r\n][\s]*/g, '\n')
    .trim();
  return t ? t : undefined;
}

const NAMED_ENTITIES: Record<string, string> = { quot: '"', amp: '&', apos: "'", lt: '<', gt: '>', nbsp: '\u00a0' };

/**
 * Many sites escape <meta content> twice ("That&amp;#039;s"), so after the parser's decoding an entity is still
 * left in the text: decode the common ones once more, as Readability does. Invalid code points become U+FFFD.
 */
export function unescapeHtmlEntities(s: string): string {
  if (!s.includes('&')) return s;
  return s
    .replace(/&(quot|amp|apos|lt|gt|nbsp);/g, (_, name: string) => NAMED_ENTITIES[name])
    .replace(/&#(?:x([0-9a-f]+)|([0-9]+));/gi, (_, hex: string | undefined, dec: string | undefined) => {
      const n = parseInt(hex ?? dec ?? '', hex ? 16 : 10);
      const valid = n > 0 && n <= 0x10ffff && !(n >= 0xd800 && n <= 0xdfff);
      return String.fromCodePoint(valid ? n : 0xfffd);
    });
}

type JsonObject = Record<string, unknown>;

/**
 * The name(s) in a JSON-LD person/organization value: a string, {name}, a list of them, or an {"@id"} reference to
 * a node elsewhere in the page's graphs (Yoast writes the author that way). A URL is not a name.
 */
function names(v: unknown, byId: Map<string, JsonObject> = new Map(), depth = 0): string | undefined {
  if (typeof v === 'string') return /^https?:\/\//i.test(v.trim()) ? undefined : clean(v);
  if (Array.isArray(v)) {
    const all = v.map((x) => names(x, byId, depth)).filter((x): x is string => !!x);
    return all.length ? all.join(', ') : undefined;
  }
  if (!v || typeof v !== 'object') return undefined;
  const o = v as JsonObject;
  if ('name' in o) return names(o.name, byId, depth);
  const ref = typeof o['@id'] === 'string' ? byId.get(o['@id']) : undefined;
  return ref && ref !== o && depth < 3 ? names(ref, byId, depth + 1) : undefined;
}

function readJsonLd(scripts: string[]): JsonLdFacts {
  const items: JsonObject[] = [];
  const push = (d: unknown): void => {
    if (Array.isArray(d)) d.forEach(push);
    else if (d && typeof d === 'object') {
      items.push(d as JsonObject);
      const graph = (d as JsonObject)['@graph'];
      if (graph) push(graph);
    }
  };
  for (const raw of scripts) {
    try {
      push(JSON.parse(raw.replace(/^\s*<!\[CDATA\[|\]\]>\s*$/g, '')));
    } catch {
      continue;
    }
  }
  const byId = new Map<string, JsonObject>();
  for (const o of items) if (typeof o['@id'] === 'string' && !byId.has(o['@id'])) byId.set(o['@id'], o);

  const facts: JsonLdFacts = {};
  for (const o of items) {
    const types = ([] as unknown[]).concat(o['@type'] ?? []).map(String);
    if (!types.some((t) => ARTICLE_TYPE_RE.test(t))) continue;
    const isPage = types.every((t) => t === 'WebPage');
    if (isPage && (facts.name ?? facts.headline)) continue;
    if (!facts.name && !facts.headline) {
      facts.name = typeof o.name === 'string' ? clean(o.name) : undefined;
      facts.headline = typeof o.headline === 'string' ? clean(o.headline) : undefined;
    }
    facts.description ??= typeof o.description === 'string' ? trimmed(o.description) : undefined;
    facts.author ??= names(o.author);
    facts.authorRef ??= names(o.author, byId);
    facts.published ??= typeof o.datePublished === 'string' ? clean(o.datePublished) : undefined;
    facts.siteName ??= names(o.publisher, byId);
    facts.language ??= typeof o.inLanguage === 'string' ? clean(o.inLanguage) : undefined;
  }
  return facts;
}

const SEPARATORS = '|\\-–—\\\\/>»';
const SEPARATED_RE = new RegExp(` [${SEPARATORS}] `);
const HIERARCHICAL_RE = / [\\/>»] /;

/** Readability's word count: split on whitespace, so leading or trailing space counts as an (empty) word. */
function wordCount(s: string): number {
  return s.split(/\s+/).length;
}

/**
 * The <title> with the site name split off, Readability's way: cut at the last separator (or the first one when
 * that leaves too little), or after a colon unless a heading repeats the whole title; a title of 4 words or fewer
 * after cutting is distrusted and the whole one kept, unless a heading on the page confirms it ("BMJV | Transparenz
 * bei Preisanpassungen" with an <h1> of the last three words). `headings` gives the h1/h2 texts (lazily: most titles
 * need none), `h1s` the h1 texts.
 */
export function titleFromTitleTag(raw: string, headings: () => string[] = () => [], h1s: () => string[] = () => []): string {
  // A no-break space next to the separator ("Titel&nbsp;- Site") is still a separator.
  const orig = clean(raw.replace(/\u00a0/g, ' ')) ?? '';
  let title = orig;
  let hierarchical = false;
  let beforeLast = '';
  const separated = SEPARATED_RE.test(title);
  if (separated) {
    hierarchical = HIERARCHICAL_RE.test(title);
    title = beforeLast = orig.replace(new RegExp(`(.*)[${SEPARATORS}] .*`), '$1');
    if (wordCount(title) < 3) title = orig.replace(new RegExp(`[^${SEPARATORS}]*[${SEPARATORS}](.*)`), '$1');
  } else if (title.includes(': ')) {
    if (!headings().some((h) => clean(h) === orig)) {
      title = orig.substring(orig.lastIndexOf(':') + 1);
      if (wordCount(title) < 3) title = orig.substring(orig.indexOf(':') + 1);
      // Many words before the colon: the part before it is not a site name, keep the whole title.
      else if (wordCount(orig.substring(0, orig.indexOf(':'))) > 5) title = orig;
    }
  } else if (title.length > 150 || title.length < 15) {
    const ones = h1s();
    if (ones.length === 1) title = clean(ones[0]) ?? title;
  }
  title = title.trim().replace(/\s{2,}/g, ' ');
  const wc = wordCount(title);
  if (wc <= 4 && (!hierarchical || wc !== wordCount(orig.replace(new RegExp(`[${SEPARATORS}]+`, 'g'), '')) - 1)) {
    // Only a cut at a separator can be confirmed; a lone <h1> standing in for a short title cannot confirm itself.
    const isHeading = (t: string): boolean => !!t && headings().some((h) => clean(h)?.toLowerCase() === t.toLowerCase());
    const candidates = separated ? [title, beforeLast.trim()] : [];
    title = candidates.find(isHeading) ?? orig;
  }
  return title;
}

/** Share of b's words that also occur in a, weighted by length (Readability's _textSimilarity): 1 = same words. */
function textSimilarity(a: string, b: string): number {
  const tokens = (s: string): string[] => s.toLowerCase().split(/[^\p{L}\p{N}_]+/u).filter(Boolean);
  const ta = tokens(a);
  const tb = tokens(b);
  if (!ta.length || !tb.length) return 0;
  const seen = new Set(ta);
  const unique = tb.filter((t) => !seen.has(t));
  return 1 - unique.join(' ').length / tb.join(' ').length;
}

/**
 * JSON-LD name vs headline: they should agree, but some sites put the site's name in one of them, Wikipedia a
 * tagline in headline, others the title with the site's name appended in name. Compared with the page title: the
 * one that matches it, the headline when both do (schema.org's field for the article's title), else the name
 * (Readability's default).
 */
function jsonLdTitle(ld: JsonLdFacts, pageTitle: string | undefined): string | undefined {
  if (ld.name && ld.headline && ld.name !== ld.headline && pageTitle) {
    // Either way round: the page title may carry the site's name, or be the site's name.
    const matches = (t: string): boolean => textSimilarity(t, pageTitle) > 0.75 || textSimilarity(pageTitle, t) > 0.75;
    return matches(ld.headline) ? ld.headline : ld.name;
  }
  return ld.name ?? ld.headline;
}

/** Inline (phrasing) elements: a run of them with text directly inside a <div> reads as a paragraph. */
const PHRASING = new Set([
  'a', 'abbr', 'b', 'bdi', 'bdo', 'br', 'cite', 'code', 'data', 'del', 'dfn', 'em', 'font', 'i', 'img', 'ins', 'kbd',
  'label', 'mark', 'q', 's', 'samp', 'small', 'span', 'strong', 'sub', 'sup', 'time', 'u', 'var', 'wbr',
]);
/** Containers whose direct inline text Readability turns into paragraphs (its div → p conversion). */
const TEXT_CONTAINERS = new Set(['div', 'section', 'article', 'main']);

function isPhrasing(n: AnyNode): boolean {
  return isText(n) || (isTag(n) && PHRASING.has(n.name) && n.children.every(isPhrasing));
}

/** Two <br> in a row (whitespace between them aside) end a paragraph, as in Readability's _replaceBrs. */
function isBrPair(nodes: ChildNode[], i: number): boolean {
  const a = nodes[i];
  if (!isTag(a) || a.name !== 'br') return false;
  for (let j = i + 1; j < nodes.length; j++) {
    const b = nodes[j];
    if (isText(b) && !b.data.trim()) continue;
    return isTag(b) && b.name === 'br';
  }
  return false;
}

/** The text of the first paragraph under `node`, in document order: a <p>, or a run of inline content in a div. */
function firstParagraph(node: ParentNode): string | undefined {
  if (isTag(node) && node.name === 'p') return clean(visibleText(node));
  const runs = isTag(node) && TEXT_CONTAINERS.has(node.name);
  let run = '';
  const kids = node.children;
  for (let i = 0; i < kids.length; i++) {
    const c = kids[i];
    if (runs && isPhrasing(c) && !isBrPair(kids, i)) {
      run += visibleText(c);
      continue;
    }
    const text = clean(run);
    if (text) return text;
    run = '';
    if (isTag(c) && !isHidden(c)) {
      const inner = firstParagraph(c);
      if (inner) return inner;
    }
  }
  return clean(run);
}

/**
 * A description from the main content when the page declares none: its first paragraph with text, as Readability
 * does for its excerpt. `nodes` are the main-content nodes (after cleaning); whitespace is collapsed because in
 * HTML text it is indentation, not the author's.
 */
export function descriptionFromContent(nodes: ParentNode[]): string | undefined {
  for (const n of nodes) {
    const text = firstParagraph(n);
    if (text) return text;
  }
  return undefined;
}

function collect(doc: Document): { metas: Map<string, string>; jsonLd: string[]; links: Element[]; title?: string; htmlLang?: string } {
  const metas = new Map<string, string>();
  const jsonLd: string[] = [];
  const links: Element[] = [];
  let title: string | undefined;
  let htmlLang: string | undefined;
  const walk = (n: ParentNode): void => {
    for (const c of n.children) {
      if (!isTag(c)) continue;
      const a = c.attribs;
      switch (c.name) {
        case 'html':
          htmlLang ??= a.lang ?? a['xml:lang'];
          break;
        case 'meta': {
          const content = a.content;
          // An empty content="" must not shadow a later tag with the same name.
          if (!content?.trim()) break;
          for (const key of [a.property, a.name, a.itemprop, a['http-equiv']]) {
            if (!key) continue;
            for (const k of key.toLowerCase().split(/\s+/)) if (k && !metas.has(k)) metas.set(k, content);
          }
          break;
        }
        case 'script':
          if (a.type?.toLowerCase() === 'application/ld+json') jsonLd.push(textContent(c));
          continue;
        case 'link':
          links.push(c);
          break;
        case 'title':
          if (title === undefined && !hasSvgAncestor(c)) title = textContent(c);
          continue;
        case 'style':
          continue;
      }
      walk(c);
    }
  };
  walk(doc);
  return { metas, jsonLd, links, title, htmlLang };
}

function headingTexts(doc: Document, names: string[]): string[] {
  return findAll(doc, (e) => names.includes(e.name)).map((h) => textContent(h).trim());
}

function hasSvgAncestor(el: Element): boolean {
  for (let p = el.parent; p; p = p.parent) if (isTag(p) && p.name === 'svg') return true;
  return false;
}

function absolute(u: string | undefined, base: URL | undefined): string | undefined {
  if (!u) return undefined;
  try {
    return new URL(u.trim(), base).href;
  } catch {
    return undefined;
  }
}

/*
 * <meta> keys per field, most deliberate first: Readability's order, then other CMS conventions. Dublin Core in the
 * old name="DC.title" form comes after Open Graph / plain author: legacy CMSs fill it with the section or the
 * publisher ("Pressemeldungen des …", "heise online") more often than RDFa dc:title users do.
 */
const TITLE_KEYS = ['dc:title', 'dcterm:title', 'og:title', 'weibo:article:title', 'weibo:webpage:title', 'title', 'twitter:title', 'parsely-title', 'dc.title', 'dcterms.title'];
const AUTHOR_KEYS = ['dc:creator', 'dcterm:creator', 'author', 'parsely-author', 'sailthru.author', 'byl', 'dc.creator', 'dcterms.creator'];
const DESCRIPTION_KEYS = [
  'dc:description', 'dcterm:description', 'og:description', 'weibo:article:description', 'weibo:webpage:description', 'description',
  'twitter:description', 'dc.description', 'dcterms.description',
];

/** The distinctive label of a URL's host: "heise" for www.heise.de, "bbc" for www.bbc.co.uk. */
function hostLabel(url: string): string | undefined {
  let labels: string[];
  try {
    labels = new URL(url).hostname.toLowerCase().split('.');
  } catch {
    return undefined;
  }
  labels.pop();
  // A second-level public suffix (co.uk, com.au, org.br): the name is the label before it.
  if (labels.length > 1 && /^(?:co|com|org|net|ac|gov|edu|or|ne|go)$/.test(labels[labels.length - 1])) labels.pop();
  const label = labels.pop();
  return label && label.length >= 3 && label !== 'www' ? label : undefined;
}

/**
 * An "author" that names the site rather than a person: its site name, its host ("heise online" on heise.de,
 * "www.haufe.de") or a copyright line.
 */
function isSiteNotPerson(author: string, siteName: string | undefined, host: string | undefined): boolean {
  const a = author.toLowerCase();
  if (siteName && a === siteName.toLowerCase()) return true;
  if (host) {
    // The host's name making up the start or most of it; "Jo Doe, Al Roe ebrosia, Germany" still names people.
    const compact = a.replace(/[^\p{L}\p{N}]+/gu, '');
    const h = host.replace(/[^\p{L}\p{N}]+/gu, '');
    if (compact.startsWith(h) || (compact.includes(h) && h.length * 2 >= compact.length)) return true;
  }
  return /^(?:www\.)?[\p{L}\d-]+(?:\.[\p{L}\d-]+)+$/u.test(a) || /^(?:copyright|©|\(c\))/i.test(a);
}

/** Metadata of an already parsed (not yet cleaned) document. */
export function extractMetadataFromDocument(doc: Document, url: string): PageMetadata {
  const { metas, jsonLd, links, title: titleTag, htmlLang } = collect(doc);
  const m = (...keys: string[]): string | undefined => {
    for (const k of keys) {
      const v = clean(metas.get(k));
      if (v) return v;
    }
    return undefined;
  };
  const raw = (...keys: string[]): string | undefined => {
    for (const k of keys) {
      const v = trimmed(metas.get(k));
      if (v) return v;
    }
    return undefined;
  };
  // Decoding can expose edge whitespace ("…gaming.&amp;nbsp;"), hence the trim after it.
  const unescape = (v: string | undefined): string | undefined => (v === undefined ? undefined : trimmed(unescapeHtmlEntities(v)));
  const ld = readJsonLd(jsonLd);
  const base = documentBaseUrl(doc, url);

  const tagTitle = titleTag !== undefined ? clean(titleTag) : undefined;
  let headings: string[] | undefined;
  const cleanedTagTitle = tagTitle
    ? clean(
        titleFromTitleTag(
          tagTitle,
          () => (headings ??= headingTexts(doc, ['h1', 'h2'])),
          () => headingTexts(doc, ['h1']),
        ),
      )
    : undefined;
  const title = unescape(
    jsonLdTitle(ld, cleanedTagTitle) ??
      m(...TITLE_KEYS) ??
      cleanedTagTitle ??
      clean(headingTexts(doc, ['h1'])[0]),
  );

  // Declared authors first (article:author only when it is a name: Open Graph means it as a profile URL), then the
  // byline shown in the markup. A declared "author" that is the site itself ("heise online", "www.haufe.de", a
  // copyright line) only counts when nothing names a person.
  const articleAuthor = m('article:author', 'og:article:author');
  const declared = [
    ld.author,
    ...AUTHOR_KEYS.map((k) => m(k)),
    articleAuthor && !/^https?:\/\//i.test(articleAuthor) ? articleAuthor : undefined,
    ld.authorRef,
  ]
    .map((v) => (v ? cleanByline(unescapeHtmlEntities(v), true) : undefined))
    .filter((v): v is string => !!v);
  const siteNameForAuthor = ld.siteName ?? m('og:site_name', 'application-name');
  const host = hostLabel(url);
  const author = declared.find((a) => !isSiteNotPerson(a, siteNameForAuthor, host)) ?? findByline(doc) ?? declared[0];

  let published =
    ld.published ??
    m('article:published_time', 'parsely-pub-date', 'datepublished', 'date', 'dc.date', 'dc.date.issued', 'dcterms.date', 'sailthru.date', 'pubdate', 'publishdate', 'og:published_time', 'article.published', 'published_time');
  if (!published) {
    const time = findFirst(doc, (e) => (e.name === 'time' && !!e.attribs.datetime) || e.attribs.itemprop === 'datePublished');
    published = clean(time?.attribs.datetime ?? time?.attribs.content);
  }

  const canonicalLink = links.find((l) => l.attribs.rel?.toLowerCase().split(/\s+/).includes('canonical'))?.attribs.href;
  const meta: PageMetadata = {};
  if (title) meta.title = title;
  const description = unescape(ld.description ?? raw(...DESCRIPTION_KEYS));
  if (description) meta.description = description;
  const language = clean(htmlLang) ?? m('content-language', 'og:locale', 'dc.language', 'language') ?? ld.language;
  if (language) meta.language = language;
  const canonicalUrl = absolute(canonicalLink, base) ?? absolute(m('og:url'), base);
  if (canonicalUrl) meta.canonicalUrl = canonicalUrl;
  if (published) meta.publishedDate = published;
  if (author) meta.author = author;
  const siteName = unescape(siteNameForAuthor);
  if (siteName) meta.siteName = siteName;
  return meta;
}

/** Metadata of an HTML string; never throws. */
export function extractMetadata(html: string, url: string): PageMetadata {
  try {
    return extractMetadataFromDocument(parseHtml(html), url);
  } catch {
    return {};
  }
}
