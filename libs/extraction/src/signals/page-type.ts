/**
 * What kind of page this is — an article, a service (marketing) page, a product, a collection (a shop's category
 * grid), a forum thread, a listing (an index of posts, results or entries) or documentation — read from what the
 * page declares (JSON-LD `@type`, `og:type`) and from its structure (repeated cards, post blocks, docs navigation,
 * prices and "add to cart" controls), with the URL's path as a tie-breaker. Main-content selection uses it to decide
 * how much of the page is content; it is also returned as `metadata.pageType`.
 * Works on the parsed document before cleaning (JSON-LD and navigation are still there).
 */
import { POST_CLASS_RE, PRICE_CLASS_RE } from './vocabulary.js';
import { isTag, isText, trimmedLength, type Document, type Element, type ParentNode } from '../dom.js';

export const PAGE_TYPES = ['article', 'service', 'product', 'collection', 'forum', 'listing', 'documentation'] as const;
export type PageType = (typeof PAGE_TYPES)[number];

export interface PageSignals {
  ldTypes: Set<string>;
  ogType: string;
  path: string;
  host: string;
  /** paragraphs of prose (≥ 150 characters) */
  proseParagraphs: number;
  /** characters in prose paragraphs */
  proseText: number;
  /** the largest group of sibling elements sharing a tag and class, each holding a link */
  cards: number;
  /** the largest group of posts: siblings whose class names a post, message, reply or comment */
  posts: number;
  /** elements whose class or itemprop says "price" */
  prices: number;
  /** "add to cart/bag/basket" controls, counted */
  carts: number;
  /** docs navigation: a sidebar or TOC of many links, or a docs class on a wrapper */
  docsNav: boolean;
  articleTags: number;
  /** the longest run of sibling <article> elements, each holding a link (a feed's entries) */
  articleRun: number;
  /** <time> elements (article dates; listings carry one per card) */
  times: number;
  /** a publication date declared in JSON-LD, meta tags or microdata */
  published: boolean;
  /** Product, ProductGroup or IndividualProduct declarations (JSON-LD types and microdata items), counted one by one */
  productDeclarations: number;
  /** a count of the results shown, "Showing 1–24 of 310 products" (a category or a search, not one item) */
  resultCount: boolean;
}

const LD_TYPE_RE = /"@type"\s*:\s*(\[[^\]]*\]|"[^"]*")/g;
const ARTICLE_LD = /^(?:Article|NewsArticle|BlogPosting|Report|ScholarlyArticle|OpinionNewsArticle|AnalysisNewsArticle|ReportageNewsArticle|LiveBlogPosting|Recipe|Review|SocialMediaPosting|HowTo|MedicalWebPage)$/;
const FORUM_LD = /^(?:DiscussionForumPosting|QAPage)$/;
const LISTING_LD = /^(?:CollectionPage|ItemList|SearchResultsPage|Blog)$/;
const DOCS_LD = /^(?:TechArticle|APIReference)$/;

/** Ids forum engines number their posts with (SMF `msg123`, phpBB `p123`, vBulletin `post_123`). */
const POST_ID_RE = /^(?:msg|post|p|comment|reply)[-_]?\d+$/i;
/** Path words of manuals and references. Not "learn": sites put their explainers and courses' marketing there too. */
const DOCS_PATH_RE = /(?:^|\/)(?:docs?|documentation|api|reference|manual|guides?|handbook|man|wiki|kb|knowledge-?base|tutorials?|sdk|developers?)(?:\/|$|\.)/i;
const DOCS_HOST_RE = /^(?:docs?|developer|developers|devdocs|learn|wiki|api|manual|help|support)\./i;
const FORUM_PATH_RE = /(?:^|\/)(?:t|threads?|topics?|questions|forums?|community|discussions?|viewtopic(?:\.php)?|showthread(?:\.php)?|comments)(?:\/|$|\.|\?)/i;
/** A board's host: a forum's subdomain (`forum.`, `community.`), or a site whose name says forum (`physicsforums.com`). */
const FORUM_HOST_RE = /^(?:community|discuss|discussions?|answers|talk|board|boards)\.|forum/i;
const PRODUCT_PATH_RE = /(?:^|\/)(?:products?|p|dp|pdp|item|itm|gp\/product|sku|shop\/p)(?:\/|$)/i;
const PRODUCT_LD = /^(?:Product|ProductGroup|IndividualProduct)$/;
/** Product declarations from which a page of repeated cards is a grid of products rather than one product's page. */
const MIN_DECLARED_GRID = 8;
/**
 * A path to one item: a singular product word (`/dp/<id>`, `/product/<slug>`, `/pdp/…`, `/p/<slug>`) with a segment
 * after it. The plural `/products/<slug>` is left out: shops and vendors name their categories and product lines so.
 */
const ITEM_PATH_RE = /(?:^|\/)(?:product|p|dp|pdp|item|itm|gp\/product|sku)\/[^/]/i;
/**
 * A path to one category, tag or topic of a site (`/category/science/`, `/magazine/category/gadgets`, `/tags/rust`,
 * `/course-catalog/data-science`, `/catalogs/fasteners/`): the index of what is filed under it. Only its last segment follows the word: an
 * entry filed there has its own slug below it (`/topics/hiking/best-gps-watch`).
 */
const CATEGORY_PATH_RE = /(?:^|\/)(?:(?:[a-z]+-)?(?:category|categories|catalogs?)|tags?|topics?|hub)\/[^/]+\/?$/i;
/**
 * A path to one of a shop's collections (`/collections/mens-sneakers`, the plural: an editor's `/collection/<slug>` is
 * often an article gathering picks).
 */
const SHOP_COLLECTION_PATH_RE = /(?:^|\/)collections\/[^/]+\/?$/i;
/** Cards from which a page on a category's path is its index rather than a page about it. */
const MIN_CATEGORY_CARDS = 6;
/** A results count: "Showing 2 of 2 products", "Showing 1–24 of 310 items". */
const RESULT_COUNT_RE = /^showing\s+\d[\d,]*(?:\s*[-–]\s*\d[\d,]*)?\s+of\s+\d[\d,]*\s+(?:products|items|results)$/i;
/** Characters of a results count, at most. */
const MAX_RESULT_COUNT = 60;
const ADD_TO_CART_RE = /\b(?:add to (?:cart|bag|basket|trolley)|in den warenkorb|ajouter au panier|añadir al carrito|buy now)\b/i;

/** The declared types (JSON-LD and microdata) into `s.ldTypes`, counting the products among them. */
function ldTypes(doc: Document, s: PageSignals, published: { value: boolean }): void {
  const out = s.ldTypes;
  const add = (type: string): void => {
    const name = type.replace(/^https?:\/\/schema\.org\//, '');
    out.add(name);
    if (PRODUCT_LD.test(name)) s.productDeclarations++;
  };
  const visit = (n: ParentNode): void => {
    for (const c of n.children) {
      if (!isTag(c)) continue;
      if (c.name === 'script') {
        if ((c.attribs.type ?? '').toLowerCase() === 'application/ld+json') {
          const src = c.children.map((x) => (isText(x) ? x.data : '')).join('');
          if (src.includes('"datePublished"')) published.value = true;
          for (const m of src.matchAll(LD_TYPE_RE)) for (const t of m[1].match(/"([^"]+)"/g) ?? []) add(t.slice(1, -1));
        }
        continue;
      }
      if (c.attribs.itemprop === 'datePublished') published.value = true;
      const itemtype = c.attribs.itemtype;
      if (itemtype) for (const t of itemtype.split(/\s+/)) add(t);
      visit(c);
    }
  };
  visit(doc);
}

interface Measure {
  text: number;
  links: number;
}

/** Read the signals in one walk of the document. */
export function pageSignals(doc: Document, url: string): PageSignals {
  const s: PageSignals = {
    ldTypes: new Set(), ogType: '', path: '', host: '', proseParagraphs: 0, proseText: 0, cards: 0, posts: 0,
    prices: 0, carts: 0, docsNav: false, articleTags: 0, articleRun: 0, times: 0, published: false, productDeclarations: 0,
    resultCount: false,
  };
  try {
    const u = new URL(url);
    s.path = u.pathname;
    s.host = u.hostname;
  } catch {
    /* no URL: structure only */
  }
  const published = { value: false };
  ldTypes(doc, s, published);
  const cardKeys = new Map<string, string>();
  const visit = (n: ParentNode): Measure => {
    const m: Measure = { text: 0, links: 0 };
    let groups: Map<string, number> | undefined;
    let posts = 0;
    let articles = 0;
    for (const c of n.children) {
      if (isText(c)) {
        const length = trimmedLength(c.data);
        m.text += length;
        if (!s.resultCount && length <= MAX_RESULT_COUNT && isResultCount(c.data)) s.resultCount = true;
        continue;
      }
      if (!isTag(c)) continue;
      const name = c.name;
      if (name === 'script' || name === 'style' || name === 'svg' || name === 'template') continue;
      if (name === 'meta') {
        const prop = (c.attribs.property ?? c.attribs.name ?? '').toLowerCase();
        if (prop === 'og:type') s.ogType = (c.attribs.content ?? '').toLowerCase().trim();
        else if (prop === 'article:published_time' || prop === 'datepublished' || prop === 'pubdate') published.value = true;
        continue;
      }
      const cm = visit(c);
      m.text += cm.text;
      m.links += cm.links + (name === 'a' ? 1 : 0);
      if (name === 'p') {
        if (cm.text >= 150) {
          s.proseParagraphs++;
          s.proseText += cm.text;
        }
      } else if (name === 'article') {
        s.articleTags++;
        if (cm.links >= 1) articles++;
      } else if (name === 'time') s.times++;
      const cls = c.attribs.class ?? '';
      if (c.attribs.itemprop === 'price' || (cls.includes('ric') && PRICE_CLASS_RE.test(cls))) s.prices++;
      if (cm.text >= 80 && ((cls && POST_CLASS_RE.test(cls)) || POST_ID_RE.test(c.attribs.id ?? ''))) posts++;
      if (name === 'button' || name === 'input' || name === 'a') {
        const label = name === 'input' ? (c.attribs.value ?? '') : textOfShort(c);
        if (ADD_TO_CART_RE.test(label) || namesAddToCart(cls, c.attribs.name, c.attribs.id)) s.carts++;
      }
      if ((name === 'nav' || name === 'aside' || name === 'div' || name === 'ul') && !s.docsNav && mayNameDocsNav(cls, c.attribs.id)) {
        const id = `${cls} ${c.attribs.id ?? ''}`.toLowerCase();
        if (DOCS_NAV_RE.test(id)) s.docsNav = true;
      }
      // Repeated cards: siblings with the same tag and class, each with a link and a little text.
      if ((name === 'li' || name === 'div' || name === 'article' || name === 'section') && cm.links >= 1 && cm.links <= 12 && cm.text >= 20) {
        const key = cardKey(name, cls, cardKeys);
        groups ??= new Map();
        groups.set(key, (groups.get(key) ?? 0) + 1);
      }
    }
    if (groups) for (const count of groups.values()) if (count > s.cards) s.cards = count;
    if (posts > s.posts) s.posts = posts;
    if (articles > s.articleRun) s.articleRun = articles;
    return m;
  };
  visit(doc);
  s.published = published.value;
  return s;
}

/** A card's template: its tag and its class names without the numbered ones, sorted (memoised per tag and class). */
function cardKey(name: string, cls: string, seen: Map<string, string>): string {
  const memo = `${name} ${cls}`;
  let key = seen.get(memo);
  if (key === undefined) {
    key = `${name}.${cls.split(/\s+/).filter((w) => !/\d/.test(w)).sort().join('.')}`;
    seen.set(memo, key);
  }
  return key;
}

const DOCS_NAV_RE =
  /(?:^|[\s_-])(?:docs?|documentation)[-_]?(?:nav|sidebar|menu|toc|navigation|content|body|main|page|wrapper|layout)\b|\b(?:sidebar|nav|menu)[-_]?docs?\b|\btheme-doc|\bmd-sidebar|\bwy-nav|\bsphinxsidebar|\bbd-sidebar|\btoctree/;

/**
 * Whether a short text node (at most MAX_RESULT_COUNT characters once trimmed) is a results count. RESULT_COUNT_RE
 * starts with "showing": text starting with anything but an s is settled without trimming and squashing it.
 */
function isResultCount(data: string): boolean {
  const text = data.trim();
  const first = text.charCodeAt(0);
  return (first === 0x73 || first === 0x53) && RESULT_COUNT_RE.test(text.replace(/\s+/g, ' '));
}

/**
 * `/add-?to-?cart/i` on the class, name and id joined by spaces, tested one by one: the pattern holds no space, so no
 * match spans two of them, and the joined string is not built for every link and button.
 */
const ADD_TO_CART_NAME_RE = /add-?to-?cart/i;
function namesAddToCart(cls: string, name: string | undefined, id: string | undefined): boolean {
  return ADD_TO_CART_NAME_RE.test(cls) || (name !== undefined && ADD_TO_CART_NAME_RE.test(name)) || (id !== undefined && ADD_TO_CART_NAME_RE.test(id));
}

/**
 * Whether the class or id may match DOCS_NAV_RE once lower-cased: every alternative of it holds "doc", "nav",
 * "sidebar" or "toctree", and no space. Most blocks hold none, and are not joined and lower-cased for the test.
 */
const DOCS_NAV_CUE_RE = /doc|nav|sidebar|toctree/i;
function mayNameDocsNav(cls: string, id: string | undefined): boolean {
  return DOCS_NAV_CUE_RE.test(cls) || (id !== undefined && DOCS_NAV_CUE_RE.test(id));
}

function textOfShort(el: Element): string {
  let out = '';
  const walk = (n: ParentNode): void => {
    for (const c of n.children) {
      if (out.length > 60) return;
      if (isText(c)) out += c.data;
      else if (isTag(c)) walk(c);
    }
  };
  walk(el);
  return out.replace(/\s+/g, ' ').trim();
}

const has = (types: Set<string>, re: RegExp): boolean => [...types].some((t) => re.test(t));

/** What a page's reviews are about when they are customer reviews: an offering, rated. */
const OFFERING_LD = /^(?:AggregateRating|Product|ProductGroup|SoftwareApplication|Service|LocalBusiness|Offer)$/;

/**
 * The declared types that say "this page is an article". A Review beside an offering and its rating is a customer
 * review of a product or service (the page is that offering's), not a review article.
 */
function articleDeclarations(ld: Set<string>): Set<string> {
  if (!ld.has('Review') || !has(ld, OFFERING_LD)) return ld;
  return new Set([...ld].filter((t) => t !== 'Review'));
}

/**
 * Entries printed as sibling <article> elements, more of them than the page has paragraphs of prose: a blog's index or
 * a category page, whose entries are the content. (An article's own <article> is one; rails of related posts beside a
 * long article are outnumbered by its paragraphs.) Themes give each entry its own category and tag class names, so
 * the class-keyed card count misses such runs.
 */
function feedOfArticles(s: PageSignals): boolean {
  return s.articleRun >= MIN_ARTICLE_RUN && s.proseParagraphs < s.articleRun;
}

/** Add-to-cart controls a product's page shows at most: its buy button, in the buy box, a sticky bar and a drawer. */
const MAX_PRODUCT_CARTS = 3;

/** Sibling <article> elements from which they are a feed. */
const MIN_ARTICLE_RUN = 6;

/** The page type from its signals. Article is the default: it is what the pipeline was built for. */
export function classifyPage(s: PageSignals): PageType {
  const path = s.path;
  const ld = s.ldTypes;
  const prose = s.proseParagraphs;
  // Declared as an article: JSON-LD, or og:type with a publication date (SEO plugins put og:type=article on every page).
  const declaredArticle = has(articleDeclarations(ld), ARTICLE_LD) || (s.ogType === 'article' && s.published);
  if (has(ld, FORUM_LD) && !has(ld, /^(?:NewsArticle|BlogPosting)$/)) return 'forum';
  if ((FORUM_PATH_RE.test(path) || FORUM_HOST_RE.test(s.host)) && s.posts >= 2) return 'forum';
  // On a docs path or host, an Article without a date is a manual page that a generic schema calls an article.
  if (has(ld, DOCS_LD) || s.docsNav || ((DOCS_PATH_RE.test(path) || DOCS_HOST_RE.test(s.host)) && (!declaredArticle || !s.published))) return 'documentation';
  // A page whose Open Graph type is one product (not product.group) and that sells it is that product, however many
  // cards of related products it shows.
  const oneProduct = s.ogType === 'product' || s.ogType === 'og:product';
  const product = oneProduct || has(ld, PRODUCT_LD);
  if (product && (s.carts > 0 || PRODUCT_PATH_RE.test(path) || s.prices > 0) && (s.cards < 12 || (oneProduct && s.carts > 0))) return 'product';
  // Open Graph's product.group is a group of products: a shop's category or range, whatever else the page declares.
  if (s.ogType === 'product.group') return 'collection';
  if (declaredArticle) return 'article';
  // Undeclared, on an item's path, with a cart button: one product, however many cards of others its rails show.
  if (s.carts > 0 && ITEM_PATH_RE.test(path)) return 'product';
  if (s.cards >= 8 && s.prices >= 4) return 'collection';
  // A grid whose cards each declare a product (a shop's search or category page with microdata or JSON-LD per card)
  // is a collection of them, not one product, whether or not its prices carry a class name.
  if (s.cards >= 8 && s.productDeclarations >= MIN_DECLARED_GRID) return 'collection';
  if (product) return 'product';
  // Undeclared as one product, on a path to one of the shop's collections, with a run of cards: that collection's grid,
  // even when it declares itself a CollectionPage (a listing's declaration) or its prices carry no class name.
  if (s.cards >= MIN_CATEGORY_CARDS && SHOP_COLLECTION_PATH_RE.test(path)) return 'collection';
  // Undeclared and counting the products it shows ("Showing 2 of 2 products"): a category, however few its cards and
  // however many of them carry a buy button.
  if (s.resultCount && s.prices > 0) return 'collection';
  // Undeclared, priced, with one buy button (or its copy in a sticky bar or a drawer), below the site's front page:
  // one product. A grid of them offers a button per card; a front page shows its best seller among the site's offers.
  if (s.carts > 0 && s.carts <= MAX_PRODUCT_CARTS && s.prices > 0 && s.cards < 8 && pathDepth(path) > 0) return 'product';
  if (has(ld, LISTING_LD) || (!s.published && ((s.cards >= 10 && prose <= 3) || s.times >= 6 || feedOfArticles(s)))) return 'listing';
  // Undated, on a category's path, with a run of cards: that category's index, however much its teasers say.
  if (!s.published && s.cards >= MIN_CATEGORY_CARDS && CATEGORY_PATH_RE.test(path)) return 'listing';
  // A dated post is an article without metadata. What remains (no article metadata, no date, no cards, no posts) is
  // taken for a service page: selection widens it only when the article pick is a small part of the page, so an
  // undeclared article loses nothing by it.
  if (s.published || s.times > 0) return 'article';
  return 'service';
}

/** A locale segment: a language and a region (`en-us`, `en_GB`). */
const LOCALE_SEGMENT_RE = /^[a-z]{2}[-_][a-z]{2,4}$/i;
/** A region then a language (`/us/en/`, `/ca/fr/`): the second names a common language. */
const LANGUAGE_RE = /^(?:en|fr|de|es|it|pt|nl|ja|zh|ko|ru|pl|sv|da|no|fi|tr|ar|he|cs|hu|ro|el|id|th|vi|uk)$/i;

/**
 * Segments of a path below its locale prefix (`/en-us/`, `/us/en/`): the prefix names the site's edition, not a
 * section. A lone two-letter segment is not taken for one: it is as often a section's abbreviation.
 */
function pathDepth(path: string): number {
  const segments = path.split('/').filter(Boolean);
  if (segments.length > 0 && LOCALE_SEGMENT_RE.test(segments[0])) return segments.length - 1;
  if (segments.length > 1 && /^[a-z]{2}$/i.test(segments[0]) && LANGUAGE_RE.test(segments[1])) return segments.length - 2;
  return segments.length;
}

/** The page type, and how main-content selection should treat the page (see `selectionType`). */
export interface PageTypeGuess {
  type: PageType;
  selectAs: PageType;
  /** Selected as a service page, the page reads like an article (many paragraphs of prose, a deep path). */
  proseLike: boolean;
}

/**
 * An undeclared page that reads like an article (a dozen paragraphs of prose, or a deep path such as
 * /2019/05/21/slug, below any locale prefix) is reported as one, but selected like a service page: widening only happens when the article
 * pick is a small part of the page, and service pages without metadata look the same. So is a page whose Open Graph
 * type says article without a publication date: SEO plugins put og:type=article on every page, but a landing page
 * built by hand rarely declares one, and most such pages are posts whose date is shown only in their text.
 */
export function guessPageType(doc: Document, url: string): PageTypeGuess {
  const s = pageSignals(doc, url);
  const classified = classifyPage(s);
  // Dated by its metadata alone (a WebPage's datePublished, which CMSs stamp on every page), with nothing on the page
  // that declares or shows a post: selected like an undeclared article, reported as one.
  const datedOnly = classified === 'article' && s.times === 0 && s.ogType !== 'article' && !has(articleDeclarations(s.ldTypes), ARTICLE_LD);
  const selectAs = datedOnly ? 'service' : classified;
  const proseLike = datedOnly || (selectAs === 'service' && (s.proseParagraphs >= 12 || pathDepth(s.path) > 2));
  // og:type=article changes the report only: selection stays a landing page's (measured: selected like an article
  // that reads as one, such pages lose recall on the trafilatura eval).
  const undeclaredArticle = proseLike || (selectAs === 'service' && s.ogType === 'article');
  return { type: undeclaredArticle ? 'article' : selectAs, selectAs, proseLike };
}

export function detectPageType(doc: Document, url: string): PageType {
  return guessPageType(doc, url).type;
}
