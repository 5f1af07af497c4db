/**
 * Main-content selection on a cleaned page: the article-style pick (see `extractMainContent`), widened to the page's
 * `<main>` region, its body or its thread when the pick is a small part of what a page of its type spreads its content
 * over, and completed with a listing's feed or a service page's FAQ. What widening brings in is cleaned by the passes
 * of the `region` stage.
 */
import { bodyOf, cloneNode, findAll, findFirst, hasAncestor, isTag, parseHtml, type Document, type Element, type ParentNode } from '../dom.js';
import { cleanDocument } from '../clean/clean.js';
import { runPasses } from '../passes/index.js';
import type { PageProfile } from '../profile.js';
import { showsDescription } from '../product-description.js';
import { faqOutside, faqTextWithin } from '../signals/faq.js';
import { isFeatureItem } from '../signals/feature-items.js';
import type { PageType } from '../signals/page-type.js';
import { atPath, pathOf, postGroup } from '../signals/post-group.js';
import { largestReplyTree, MIN_TREE_SHARE } from '../signals/reply-tree.js';
import { sectionStats, spreadOverSections, type SectionStats } from '../signals/sections.js';
import { renderText } from '../text.js';
import { extractMainContent, type FeedMode } from './main-content.js';

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
/**
 * Widening ratio of documentation's declared <main> region: a docs site's main column is the page, and a pick of 80-90%
 * of it has left out sections under their own headings (a reference's later sections, a quickstart's steps).
 */
const DOCS_REGION_RATIO = 0.9;
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
 * The `<main>` region of a cleaned document, or its body, when the article-style pick is a small part of it, cleaned by
 * the `region` passes. `doc` is an untouched copy of the cleaned page (the article pick prunes its own in place).
 */
function widened(doc: Document, pickedText: number, profile: PageProfile, ratio: number, regionRatio: number, pick?: SectionStats): ParentNode[] | undefined {
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
  if (((profile.selectAs === 'service' && wide !== region) || profile.forum) && listShare(wide) > MAX_LIST_SHARE) return undefined;
  runPasses('region', { roots: [wide], profile });
  return [wide];
}

/**
 * Pick main content from an aggressively cleaned document (cleaned as `profile` says: see `formatPage`); falls back to
 * the conservatively cleaned page. A product's pick that shows nearly all of a long description from its structured
 * data is the product's text and is not widened (see `showsDescription`).
 */
export function selectMainContent(doc: Document, html: string, profile: PageProfile): MainContent {
  const { selectAs, proseLike } = profile;
  const ratio = WIDEN_BELOW[selectAs];
  // The wide selection starts from the same cleaned page as the article pick, which prunes in place: copying the
  // cleaned tree costs a fraction of parsing and cleaning the page again.
  const copy = cloneNode(doc, true);
  const picked = articleContent(doc, html, profile);
  // A service page (not read like an article) widens to the <main> region the site declares unless the pick is nearly
  // all of it, however much prose the pick holds: a course or a platform page puts paragraphs in its overview and
  // its dates, prices and testimonials around it (measured: gating service pages on the pick's prose loses recall).
  // A listing does when its pick holds few paragraphs of prose (its intro). Without a declared region (news pages
  // that carry no metadata look the same), only the usual ratio applies.
  const serviceLike = !proseLike && picked.found && (selectAs === 'service' || (selectAs === 'listing' && proseParagraphs(picked.nodes) < FEW_PARAGRAPHS));
  const regionRatio = selectAs === 'documentation' ? DOCS_REGION_RATIO : serviceLike ? SERVICE_REGION_RATIO : ratio;
  const spread = selectAs === 'service' && picked.found ? sectionStats(picked.nodes) : undefined;
  const pickedText = picked.found ? picked.textLength : 0;
  if (profile.description && picked.found && showsDescription(profile.description, picked.nodes)) return picked;
  // A service page is widened by what its pick found besides the FAQ that pruning keeps whole in it: a pick that is
  // mostly the page's closing FAQ is not its content, and the sections above it are.
  const judgedText = selectAs === 'service' ? pickedText - faqTextWithin(picked.nodes) : pickedText;
  const wide = widened(copy, judgedText, profile, ratio, regionRatio, spread) ?? (profile.forum && picked.found ? thread(copy, picked.nodes, pickedText, profile) : undefined);
  if (wide) return { nodes: wide, found: true };
  // A listing that keeps its pick keeps its feed of entries with it, unpruned (see feed.ts). Decided after widening: a
  // pick holding the feed is no longer a small part of the page, and the page would not widen when it should. A shop's
  // category adds its grid beside a pick that is a blurb (under BLURB_PARAGRAPHS paragraphs of prose); beside a
  // category's own article, whether the grid is content varies too much between shops (measured: collections lose
  // when it is added there), so it is only kept from pruning when the pick holds it.
  if (profile.feed && picked.found) {
    const fed = articleContent(copy, html, profile, selectAs === 'listing' || proseParagraphs(picked.nodes) < BLURB_PARAGRAPHS ? 'add' : 'keep');
    if (fed.found && fed.textLength > pickedText) return fed;
  }
  // A service page that kept its pick still has its FAQ, wherever it sits.
  const faq = selectAs === 'service' && picked.found ? faqOutside(doc, picked.nodes) : [];
  return faq.length > 0 ? { nodes: [...picked.nodes, ...faq], found: true } : { nodes: picked.nodes, found: picked.found };
}

/**
 * A forum pick that is one post of a run of posts widens to the run, in the untouched copy `doc` of the cleaned
 * page, with the same clean-up a widened thread gets.
 */
function thread(doc: Document, nodes: ParentNode[], pickedText: number, profile: PageProfile): ParentNode[] | undefined {
  const first = nodes[0];
  if (!first || !isTag(first)) return undefined;
  // Replies nested under the posts they answer, the tree most of the page: the thread is the tree. Its list items
  // are the posts.
  const { tree, share } = largestReplyTree(bodyOf(doc));
  const treeThread = tree && share >= MIN_TREE_SHARE ? tree : undefined;
  const group = postGroup(first);
  const target = treeThread ?? (group ? atPath(doc, pathOf(group)) : undefined);
  if (!target || renderText(target).length <= pickedText || (!treeThread && listShare(target) > MAX_LIST_SHARE)) return undefined;
  runPasses('region', { roots: [target], profile });
  return [target];
}

/**
 * A pick with the length of its rendered text (0 when nothing was found), measured when it was chosen: rendering it
 * again to compare it with the page would read the whole pick a second time (the pick is not changed in between).
 */
interface MeasuredContent extends MainContent {
  textLength: number;
}

/** The article-style pick: the best-scoring container and its siblings (see `extractMainContent`). */
function articleContent(doc: Document, html: string, profile: PageProfile, feed?: FeedMode): MeasuredContent {
  const { url } = profile;
  const body = bodyOf(doc);
  const main = extractMainContent(body, profile, feed);
  const mainText = main ? renderText(main).length : 0;
  if (main && mainText >= MIN_MAIN_TEXT) return { nodes: main, found: true, textLength: mainText };

  // Too little: the aggressive cleaning may have eaten the article (a "sidebar" class on a wrapper…). Retry on a
  // conservatively cleaned copy, like Readability's flag-relaxing retries, and keep whichever yields more text. The
  // retry prunes as on any page: a landing page's block names count there.
  const relaxed = parseHtml(html);
  cleanDocument(relaxed, { url, aggressive: false });
  const relaxedBody = bodyOf(relaxed);
  const relaxedMain = extractMainContent(relaxedBody, { ...profile, landing: false }, feed);
  const relaxedText = relaxedMain ? renderText(relaxedMain).length : 0;
  if (relaxedMain && relaxedText >= MIN_MAIN_TEXT && relaxedText > mainText) return { nodes: relaxedMain, found: true, textLength: relaxedText };
  if (main && mainText > 0) return { nodes: main, found: true, textLength: mainText };
  // Nothing qualifies: the whole cleaned page (the aggressive one, unless that is empty). Selection prunes in place,
  // so the fallback starts from a fresh parse.
  const whole = parseHtml(html);
  cleanDocument(whole, { url, aggressive: true, keepComments: profile.forum });
  if (renderText(bodyOf(whole)).length > 0) return { nodes: [bodyOf(whole)], found: false, textLength: 0 };
  const conservative = parseHtml(html);
  cleanDocument(conservative, { url, aggressive: false });
  return { nodes: [bodyOf(conservative)], found: false, textLength: 0 };
}
