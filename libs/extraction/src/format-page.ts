/**
 * The format pipeline: parse → metadata → clean → main content → markdown / text. Each step is a pure function of
 * its input (see the modules it imports) so it can be tested and timed alone; `formatPage` composes them and never
 * throws.
 */
import type { FormattedPage, OutputFormats, PageMetadata } from '#contracts';
import { bodyOf, cloneNode, findAll, findFirst, hasAncestor, holdsText, isTag, parseHtml, parseHtmlWithin, removeChildren, type ChildNode, removeNode, serialize, squashedLength, textContent, type Document, type Element, type ParentNode } from './dom.js';
import { MAX_NESTING_DEPTH, TOO_DEEP_MESSAGE } from './nesting-depth.js';
import { cleanDocument } from './clean/clean.js';
import { extractMainContent, type FeedMode } from './selection/main-content.js';
import { removeInnerBoilerplate } from './passes/inner-boilerplate.js';
import { trimEdges } from './passes/edge-trim.js';
import { descriptionFromContent, extractMetadataFromDocument } from './metadata.js';
import { markdownConverter, type MarkdownConverterName } from './markdown/converters.js';
import { forumMarkdown } from './markdown/forum.js';
import { shapeForMarkdown } from './markdown/structure.js';
import { renderText } from './text.js';
import { removeRecirculation } from './passes/recirculation.js';
import { removeProductReviews } from './passes/product-reviews.js';
import { removeProductRails } from './passes/product-rail.js';
import { removeFinePrint } from './passes/product-fine-print.js';
import { removeCookieNotices } from './passes/cookie-notice.js';
import { removeThreadCounters } from './passes/thread-counters.js';
import { removeForumNotices } from './passes/forum-notices.js';
import { removeFilterPanels } from './passes/filter-panels.js';
import { removeAdCards } from './passes/ad-cards.js';
import { removeCompareControls } from './passes/compare-controls.js';
import { guessPageType, type PageType } from './signals/page-type.js';
import { pageAddress } from './page-address.js';
import { missingDescription, productDescription, showsDescription } from './product-description.js';
import { sectionStats, spreadOverSections, type SectionStats } from './signals/sections.js';
import { atPath, pathOf, postGroup } from './signals/post-group.js';
import { isFeatureItem } from './signals/feature-items.js';
import { removeDocsNavigation } from './passes/docs-nav.js';
import { removeRepeatedBlocks, removeResponsiveDuplicates } from './passes/responsive-duplicates.js';
import { removeCallsToAction } from './passes/cta-links.js';
import { removeMarquees } from './passes/marquee.js';
import { faqOutside, faqTextWithin } from './signals/faq.js';
import { removeRepeatedQuotes } from './passes/forum-quotes.js';
import { isReplyTreePage, largestReplyTree, MIN_TREE_SHARE } from './signals/reply-tree.js';

/** PageMetadata as this library fills it: with the page type main-content selection went by. */
export interface ExtractedMetadata extends PageMetadata {
  pageType?: PageType;
}

export interface FormatOptions {
  /** Final URL of the page, for absolutising links. */
  url: string;
  formats: OutputFormats;
  markdownConverter?: MarkdownConverterName;
  /** The page type, when the caller knows it; detected from the page otherwise. */
  pageType?: PageType;
}

/** Page types a discussion without forum markup is taken for: a story under its replies reads as one of these. */
const STORY_TYPES = new Set<PageType>(['article', 'service', 'listing']);

/** Below this many characters of text, the main-content pick is treated as a miss. */
const MIN_MAIN_TEXT = 200;

export interface MainContent {
  /** The nodes that make up the main content (or the whole cleaned body when none was found). */
  nodes: ParentNode[];
  /** False when the whole cleaned page is returned because no main content was found. */
  found: boolean;
}

/**
 * Pages that are not articles spread their content over the page: a service page over many sections, a listing or a
 * shop's category over a grid of cards, a forum over its posts, documentation over a main column beside the
 * navigation. When the article-style pick holds less than this share of the `<main>` region's text (else of the
 * whole cleaned page's), the region is the content. Documentation keeps its `<main>` most readily: beside it are
 * only navigation and TOCs, which cleaning removes. An article widens only when its pick is a sliver of the page: a
 * listing or a hub page that declares itself an article (SEO plugins do) and whose pick is its intro paragraph. A
 * listing's pick is often its featured entry or one block of its feed: the rest of the feed is content too. (A shop's
 * category stays at 0.3: there the pick is often the category's own text, and its grid of cards comes with filters.)
 */
const WIDEN_BELOW: Record<PageType, number> = {
  article: 0.1,
  documentation: 0.8,
  product: 0.6,
  listing: 0.5,
  collection: 0.3,
  forum: 0.3,
  service: 0.3,
};

/**
 * Widening ratio of a service page (or a page read like one) when the text beside its pick is further sections under
 * their own headings, with few links (see `spreadOverSections`).
 */
const SPREAD_RATIO = 0.5;

/**
 * Widening ratio of a service page's declared <main> region (and a listing's, when its pick has few paragraphs of
 * prose): the region unless the pick is nearly all of it (a pick of 80-90% still leaves out a hero or a closing
 * section).
 */
const SERVICE_REGION_RATIO = 0.9;
/** Paragraphs of prose (≥ PROSE_PARAGRAPH characters) below which a listing's pick is its intro rather than an article. */
const FEW_PARAGRAPHS = 5;
const PROSE_PARAGRAPH = 150;
/** Paragraphs of prose below which a category's pick is a blurb beside its grid (see selectMainContent). */
const BLURB_PARAGRAPHS = 2;

function proseParagraphs(nodes: ParentNode[]): number {
  return nodes.reduce((a, n) => a + findAll(n, (e) => e.name === 'p' && renderText(e).length >= PROSE_PARAGRAPH).length, 0);
}

/**
 * Share of a widened region's text held in list items above which a service page or thread is not widened. Feature
 * cards (items with their own heading and few links, see `isFeatureItem`) are sections of the page, not list items.
 */
const MAX_LIST_SHARE = 0.6;

function listShare(root: Element): number {
  const total = renderText(root).length;
  const items = findAll(root, (e) => e.name === 'li' && !hasAncestor(e, (a) => a.name === 'li') && !isFeatureItem(e));
  return total === 0 ? 0 : items.reduce((a, li) => a + renderText(li).length, 0) / total;
}

/** `renderText(node).length`, remembered per node: for a tree that is not changed while it is in use. */
function lengthsOnce(): (node: ParentNode) => number {
  const lengths = new Map<ParentNode, number>();
  return (node) => {
    let length = lengths.get(node);
    if (length === undefined) {
      length = renderText(node).length;
      lengths.set(node, length);
    }
    return length;
  };
}

/**
 * The `<main>` region of a cleaned document, or its body, when the article-style pick is a small part of it. `doc`
 * is an untouched copy of the cleaned page (the article pick prunes its own in place).
 */
function widened(doc: Document, pickedText: number, pageType: PageType, ratio: number, regionRatio: number, pick?: SectionStats): ParentNode[] | undefined {
  const body = bodyOf(doc);
  const region = findFirst(body, (e) => e.name === 'main' || e.attribs.role === 'main');
  // The region and the body are each rendered once here, however many ratios they are compared against.
  const textLength = lengthsOnce();
  let wide: Element | undefined;
  if (region && pickedText < regionRatio * textLength(region)) wide = region;
  else if (pickedText < ratio * textLength(body) && isTag(body)) wide = body;
  else if (pick) {
    // A service page whose pick is one of several sections under their own headings: up to half the page.
    const target = region ?? (isTag(body) ? body : undefined);
    if (target && pickedText < SPREAD_RATIO * textLength(target) && spreadOverSections(sectionStats([target]), pick)) wide = target;
  }
  if (!wide) return undefined;
  // A thread widens to its posts; a page whose remaining text is a long list of short items (an archive, a link
  // directory) beside a short article is still that article. Within the <main> region a site declares, a service
  // page's lists are its own: its offers, or the products of a shop page that showed no prices.
  if (((pageType === 'service' && wide !== region) || pageType === 'forum') && listShare(wide) > MAX_LIST_SHARE) return undefined;
  // What the article pick would have pruned inside its container is boilerplate here too: bylines, share bars,
  // related links; and the region's edges hold the same teasers and date lines. (On a forum the posts carry
  // comment and reply class names: they are the content, so nothing is removed by name there.)
  if (pageType !== 'forum') removeInnerBoilerplate([wide], false, pageType === 'listing' || pageType === 'collection' ? CARD_KIND_SHARE : undefined, pageType === 'service');
  // Menus and "more like this" rails that no class name gave away are blocks of links. On a listing or a collection
  // the cards are links too, and they are the content; on service and docs pages, link blocks are often their lists
  // of offers and topics (measured: both lose when these are removed); a docs page's navigation landmarks are its
  // sidebar and table of contents, and a service page's lone short links are its buttons.
  if (pageType === 'product' || pageType === 'forum') removeLinkBlocks(wide);
  if (pageType === 'documentation') removeDocsNavigation(wide);
  if (pageType === 'service') removeCallsToAction(wide);
  // A category's grid comes with its filter panels; widened to the grid, the panels come too.
  if (pageType === 'collection' || pageType === 'listing') removeFilterPanels([wide]);
  trimEdges([wide]);
  return [wide];
}

/**
 * On a listing or a shop's category, a class word on at least three cards (`new-listing__categories`, a BEM part of the
 * card template) that holds half the region's text is the cards' own text, not boilerplate among prose.
 */
const CARD_KIND_SHARE = 0.5;

/** Link share of a block's text above which it is navigation rather than content. */
const LINK_BLOCK_SHARE = 0.6;
const LINK_BLOCK_TAGS = new Set(['div', 'ul', 'ol', 'section', 'table', 'dl', 'header', 'footer', 'form']);

/** Remove the blocks of `root` whose text is mostly link text, in place. */
export function removeLinkBlocks(root: Element): void {
  const visit = (el: Element, inLink: boolean): { text: number; link: number } => {
    const acc = { text: 0, link: 0 };
    const doomed = new Set<ChildNode>();
    for (const c of el.children) {
      if (c.type === 'text') {
        const n = squashedLength(c.data);
        acc.text += n;
        if (inLink) acc.link += n;
      } else if (isTag(c)) {
        const m = visit(c, inLink || c.name === 'a');
        if (LINK_BLOCK_TAGS.has(c.name) && m.text >= 20 && m.link > m.text * LINK_BLOCK_SHARE) {
          doomed.add(c);
          continue;
        }
        acc.text += m.text;
        acc.link += m.link;
      }
    }
    removeChildren(el, doomed);
    return acc;
  };
  visit(root, false);
}

/**
 * Pick main content from an aggressively cleaned document (cleaned with `keepComments` on a forum); falls back to
 * the conservatively cleaned page. `proseLike`: the page reads like an article, though it is selected as another type
 * (see `guessPageType`). `description`: a product's description from its JSON-LD; a pick that shows nearly all of a
 * long one is the product's text and is not widened (see `showsDescription`).
 */
export function selectMainContent(doc: Document, html: string, url: string, pageType: PageType = 'article', proseLike = false, description?: string): MainContent {
  const ratio = WIDEN_BELOW[pageType];
  // The wide selection starts from the same cleaned page as the article pick, which prunes in place: copying the
  // cleaned tree costs a fraction of parsing and cleaning the page again.
  const copy = cloneNode(doc, true);
  // A service page's blocks are named for what they show (promo, teaser, banner): those names prune nothing of its pick,
  // unless it reads like an article, whose promo and teaser blocks are boilerplate.
  const picked = articleContent(doc, html, url, pageType === 'forum', pageType === 'article', undefined, pageType === 'service' && !proseLike);
  // A service page (not read like an article) widens to the <main> region the site declares unless the pick is nearly
  // all of it, however much prose the pick holds: a course or a platform page puts paragraphs in its overview and
  // its dates, prices and testimonials around it (measured: gating service pages on the pick's prose loses recall).
  // A listing does when its pick holds few paragraphs of prose (its intro). Without a declared region (news pages
  // that carry no metadata look the same), only the usual ratio applies.
  const regionRatio = !proseLike && picked.found && (pageType === 'service' || (pageType === 'listing' && proseParagraphs(picked.nodes) < FEW_PARAGRAPHS)) ? SERVICE_REGION_RATIO : ratio;
  const spread = pageType === 'service' && picked.found ? sectionStats(picked.nodes) : undefined;
  const pickedText = picked.found ? picked.textLength : 0;
  if (description && picked.found && showsDescription(description, picked.nodes)) return picked;
  // A service page is widened by what its pick found besides the FAQ that pruning keeps whole in it: a pick that is
  // mostly the page's closing FAQ is not its content, and the sections above it are.
  const judgedText = pageType === 'service' ? pickedText - faqTextWithin(picked.nodes) : pickedText;
  const wide = widened(copy, judgedText, pageType, ratio, regionRatio, spread) ?? (pageType === 'forum' && picked.found ? thread(copy, picked.nodes, pickedText) : undefined);
  if (wide) return { nodes: wide, found: true };
  // A listing that keeps its pick keeps its feed of entries with it, unpruned (see feed.ts). Decided after widening: a
  // pick holding the feed is no longer a small part of the page, and the page would not widen when it should. A shop's
  // category adds its grid beside a pick that is a blurb (under BLURB_PARAGRAPHS paragraphs of prose); beside a
  // category's own article, whether the grid is content varies too much between shops (measured: collections lose
  // when it is added there), so it is only kept from pruning when the pick holds it.
  if ((pageType === 'listing' || pageType === 'collection') && picked.found) {
    const fed = articleContent(copy, html, url, false, false, pageType === 'listing' || proseParagraphs(picked.nodes) < BLURB_PARAGRAPHS ? 'add' : 'keep');
    if (fed.found && fed.textLength > pickedText) return fed;
  }
  // A service page that kept its pick still has its FAQ, wherever it sits.
  const faq = pageType === 'service' && picked.found ? faqOutside(doc, picked.nodes) : [];
  return faq.length > 0 ? { nodes: [...picked.nodes, ...faq], found: true } : { nodes: picked.nodes, found: picked.found };
}

/**
 * A forum pick that is one post of a run of posts widens to the run, in the untouched copy `doc` of the cleaned
 * page, with the same clean-up a widened thread gets.
 */
function thread(doc: Document, nodes: ParentNode[], pickedText: number): ParentNode[] | undefined {
  const first = nodes[0];
  if (!first || !isTag(first)) return undefined;
  // Replies nested under the posts they answer, the tree most of the page: the thread is the tree. Its list items
  // are the posts.
  const { tree, share } = largestReplyTree(bodyOf(doc));
  const treeThread = tree && share >= MIN_TREE_SHARE ? tree : undefined;
  const group = postGroup(first);
  const target = treeThread ?? (group ? atPath(doc, pathOf(group)) : undefined);
  if (!target || renderText(target).length <= pickedText || (!treeThread && listShare(target) > MAX_LIST_SHARE)) return undefined;
  removeLinkBlocks(target);
  trimEdges([target]);
  return [target];
}

/**
 * A pick with the length of its rendered text (0 when nothing was found), measured when it was chosen: rendering it
 * again to compare it with the page would read the whole pick a second time (the pick is not changed in between).
 */
interface MeasuredContent extends MainContent {
  textLength: number;
}

/**
 * The article-style pick: the best-scoring container and its siblings. `sectionRuns`: the pick extends to the run of
 * same-template sections it belongs to (see `sectionRun`); only on articles, as other types widen by the size of their
 * pick against the page, which the run would hide (measured: service pages lose when it applies to them).
 */
function articleContent(doc: Document, html: string, url: string, forum: boolean, sectionRuns: boolean, feed?: FeedMode, landing = false): MeasuredContent {
  const body = bodyOf(doc);
  const main = extractMainContent(body, forum, sectionRuns, feed, landing);
  const mainText = main ? renderText(main).length : 0;
  if (main && mainText >= MIN_MAIN_TEXT) return { nodes: main, found: true, textLength: mainText };

  // Too little: the aggressive cleaning may have eaten the article (a "sidebar" class on a wrapper…). Retry on a
  // conservatively cleaned copy, like Readability's flag-relaxing retries, and keep whichever yields more text.
  const relaxed = parseHtml(html);
  cleanDocument(relaxed, { url, aggressive: false });
  const relaxedBody = bodyOf(relaxed);
  const relaxedMain = extractMainContent(relaxedBody, forum, sectionRuns, feed);
  const relaxedText = relaxedMain ? renderText(relaxedMain).length : 0;
  if (relaxedMain && relaxedText >= MIN_MAIN_TEXT && relaxedText > mainText) return { nodes: relaxedMain, found: true, textLength: relaxedText };
  if (main && mainText > 0) return { nodes: main, found: true, textLength: mainText };
  // Nothing qualifies: the whole cleaned page (the aggressive one, unless that is empty). Selection prunes in place,
  // so the fallback starts from a fresh parse.
  const whole = parseHtml(html);
  cleanDocument(whole, { url, aggressive: true, keepComments: forum });
  if (renderText(bodyOf(whole)).length > 0) return { nodes: [bodyOf(whole)], found: false, textLength: 0 };
  const conservative = parseHtml(html);
  cleanDocument(conservative, { url, aggressive: false });
  return { nodes: [bodyOf(conservative)], found: false, textLength: 0 };
}

const squash = (s: string): string => s.replace(/\s+/g, ' ').trim().toLowerCase();

/**
 * page_text is the body text: the headline is metadata (as in Readability and trafilatura output), so the <h1>/<h2>
 * that repeats the title is left out (not on a product page, where it names the product); Markdown keeps it. "Repeats" is measured on words, as Readability does: most
 * of the heading's words are in the title, and it is not a short heading that merely shares a word with it.
 */
function withoutTitleHeading(nodes: ParentNode[], title: string | undefined): ParentNode[] {
  if (!title) return nodes;
  const titleWords = new Set(words(title));
  const titleLength = squash(title).length;
  let best: Element | undefined;
  let bestScore = 0;
  for (const h of nodes.flatMap((n) => findAll(n, (e) => e.name === 'h1' || e.name === 'h2'))) {
    const hw = words(textContent(h));
    const chars = hw.reduce((a, w) => a + w.length, 0);
    if (chars === 0 || squash(textContent(h)).length < titleLength * 0.3) continue;
    const shared = hw.filter((w) => titleWords.has(w)).reduce((a, w) => a + w.length, 0) / chars;
    if (shared >= TITLE_SIMILARITY && shared > bestScore) {
      best = h;
      bestScore = shared;
    }
  }
  if (best) removeNode(best); // the tree is ours; detaching the heading only affects text rendering now
  return nodes;
}

/** Share of a heading's word characters found in the title from which it repeats the title. */
const TITLE_SIMILARITY = 0.75;
const words = (s: string): string[] => s.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

function emptyPage(html: string, formats: OutputFormats, metadata: PageMetadata = {}): FormattedPage {
  const page: FormattedPage = { metadata };
  if (formats.raw_html) page.raw_html = html;
  if (formats.enhanced_html) page.enhanced_html = '';
  if (formats.markdown) page.markdown = '';
  if (formats.page_text) page.page_text = '';
  return page;
}

/**
 * Run the pipeline for the requested formats. Pure and synchronous; never throws. A page it cannot extract (nested
 * past MAX_NESTING_DEPTH) comes back with `unextractable` set and no formats: see assertExtractable.
 */
export function formatPage(html: string, options: FormatOptions): FormattedPage {
  const input = typeof html === 'string' ? html : '';
  const { formats } = options;
  let metadata: PageMetadata = {};
  try {
    const { doc, tooDeep } = parseHtmlWithin(input, MAX_NESTING_DEPTH);
    if (tooDeep) return { metadata, unextractable: TOO_DEEP_MESSAGE };
    metadata = extractMetadataFromDocument(doc, options.url);
    const url = pageAddress(options.url, metadata, doc);
    if (url !== options.url) metadata = extractMetadataFromDocument(doc, url);
    const guess = options.pageType ? { type: options.pageType, selectAs: options.pageType, proseLike: false } : guessPageType(doc, url);
    // A story under a tree of nested replies is a thread, whatever it declares (see isReplyTreePage). Not a product
    // or a category: their trees are customer reviews and questions beside what is sold.
    const pageType = !options.pageType && STORY_TYPES.has(guess.selectAs) && isReplyTreePage(bodyOf(doc)) ? 'forum' : guess.selectAs;
    // An empty page has no type.
    if (holdsText(bodyOf(doc))) (metadata as ExtractedMetadata).pageType = guess.type;
    const page: FormattedPage = { metadata };
    if (formats.raw_html) page.raw_html = input;
    // Read before cleaning drops the scripts that carry it.
    const ldDescription = pageType === 'product' && (formats.markdown || formats.page_text) ? productDescription(doc) : undefined;
    const proseLike = pageType === guess.selectAs ? guess.proseLike : guess.type !== pageType;
    // A service page's promos and banners are its sections (unless it reads like an article: see LANDING_WORDS_RE).
    cleanDocument(doc, { url, aggressive: true, keepComments: pageType === 'forum', landing: pageType === 'service' && !proseLike });
    if (formats.enhanced_html) {
      const hasDoctype = doc.children.some((c) => c.type === 'directive');
      page.enhanced_html = (hasDoctype ? '' : '<!DOCTYPE html>\n') + serialize(doc);
    }
    if (!formats.markdown && !formats.page_text) return page;

    const { nodes, found } = selectMainContent(doc, input, url, pageType, proseLike, ldDescription);
    removeRecirculation(nodes);
    removeResponsiveDuplicates(nodes);
    removeMarquees(nodes);
    if (pageType === 'forum') {
      removeThreadCounters(nodes);
      removeForumNotices(nodes);
    }
    removeRepeatedQuotes(nodes);
    // A consent banner that no class gave away, or an embed's "allow cookies to see this" placeholder.
    removeCookieNotices(nodes);
    // A card labelled "Sponsored" or "Promoted" beside a product or a story is a paid placement. In a listing or a
    // shop's grid, a sponsored result is one of the results (measured: listings lose when it is removed).
    if (pageType !== 'listing' && pageType !== 'collection') removeAdCards(nodes);
    // The "Compare" toggle on each card of a grid.
    if (pageType === 'listing' || pageType === 'collection' || pageType === 'product') removeCompareControls(nodes);
    // A shop's category shows reviews of the shop or of its best sellers beside its grid, as a product page does.
    if (pageType === 'collection') removeProductReviews(nodes, true);
    if (pageType === 'product') {
      removeProductReviews(nodes);
      removeProductRails(nodes, url);
      removeFinePrint(nodes);
      // A shop prints some blocks twice (per breakpoint, in a sticky bar or a drawer): one copy is the product's.
      removeRepeatedBlocks(nodes);
    }
    // A product whose description sits in a tab the page hides, or is only rendered by script: the structured data's.
    const added = ldDescription ? missingDescription(ldDescription, nodes, url) : undefined;
    if (added) nodes.push(added);
    // No description in the head: the article's first paragraph, as Readability's excerpt (not from a whole-page fallback).
    if (!metadata.description && found) {
      const description = descriptionFromContent(nodes);
      if (description) metadata.description = description;
    }
    if (formats.markdown) {
      const converter = markdownConverter(options.markdownConverter);
      shapeForMarkdown(nodes);
      // A thread reads as one section per post, with its author and date.
      const thread = pageType === 'forum' ? forumMarkdown(nodes, (h) => converter.convert(h)) : undefined;
      page.markdown = thread ?? converter.convert(serialize(nodes as Element[]));
    }
    // A product's name is the first of its details (name, price, description), not a headline that metadata carries:
    // the title is the shop's ("Desk lamp | Brand"), and a reader of the text needs the name.
    if (formats.page_text) page.page_text = renderText(pageType === 'product' ? nodes : withoutTitleHeading(nodes, metadata.title));
    return page;
  } catch {
    // Pathological input (deep nesting, converter panic): return what we can rather than fail the crawl.
    return emptyPage(input, formats, metadata);
  }
}
