/**
 * The format pipeline: parse → metadata → profile → clean → select (the pick, widened as the page's type spreads its
 * content, with the `pick` and `region` passes) → the `content` passes → markdown / text. Each step is a pure function
 * of its input (see the modules it imports) so it can be tested and timed alone; `formatPage` composes them and never
 * throws. The removals after cleaning are the ordered list in passes/index.ts.
 */
import { pageCandidates } from '#chunks';
import type { FormattedPage, OutputFormats, PageChunksRequest, PageMetadata, PageScope } from '#contracts';
import { bodyOf, findAll, holdsText, parseHtmlWithin, removeNode, serialize, textContent, type Element, type ParentNode } from './dom.js';
import { MAX_NESTING_DEPTH, TOO_DEEP_MESSAGE } from './nesting-depth.js';
import { cleanDocument } from './clean/clean.js';
import { descriptionFromContent, extractMetadataFromDocument } from './metadata.js';
import { markdownConverter, type MarkdownConverterName } from './markdown/converters.js';
import { forumMarkdown } from './markdown/forum.js';
import { shapeForMarkdown } from './markdown/structure.js';
import { renderText } from './text.js';
import { runPasses } from './passes/index.js';
import type { PageType } from './signals/page-type.js';
import { pageAddress } from './page-address.js';
import { missingDescription } from './product-description.js';
import { pageLinks } from './links.js';
import { pageProfile } from './profile.js';
import { selectMainContent } from './selection/select.js';
import { applyScope, wholePage } from './scope.js';

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
  /** The page's links and canonical (site crawls, map), read before cleaning drops navigation. */
  links?: boolean;
  /** Elements kept or dropped, and main content or the whole page (the Firecrawl-compatible scrape's options). */
  scope?: PageScope;
  /** The page's chunks most relevant to a query, made from its Markdown (which is returned only when asked for). */
  chunks?: PageChunksRequest;
}

const squash = (s: string): string => s.replace(/\s+/g, ' ').trim().toLowerCase();

/**
 * page_text is the body text: the headline is metadata (as in Readability and trafilatura output), so the <h1>/<h2>
 * that repeats the title is left out (not on a product page, where it names the product); Markdown keeps it. "Repeats" is measured on words, as Readability does: most
 * of the heading's words are in the title, and it is not a short heading that merely shares a word with it.
 */
function withoutTitleHeading(nodes: ParentNode[], title: string | undefined): ParentNode[] {
  const best = titleHeading(nodes, title);
  if (best) removeNode(best); // the tree is ours; detaching the heading only affects text rendering now
  return nodes;
}

/** The <h1>/<h2> that repeats the title (most of its words are in it; not a short heading sharing a word), if any. */
export function titleHeading(nodes: ParentNode[], title: string | undefined): Element | undefined {
  if (!title) return undefined;
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
  return best;
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
  const page = formatContent(html, options.chunks && !options.formats.markdown ? { ...options, formats: { ...options.formats, markdown: true } } : options);
  if (!options.chunks || page.unextractable) return page;
  // Chunking is bounded (input capped, long runs cut) and pure; a failure here still leaves the formats.
  try {
    page.chunks = pageCandidates(page.markdown ?? '', options.chunks.query, { perPage: options.chunks.perPage });
  } catch {
    // no chunks: the gateway reads a page without them as having none
  }
  if (!options.formats.markdown) delete page.markdown;
  return page;
}

function formatContent(html: string, options: FormatOptions): FormattedPage {
  const input = typeof html === 'string' ? html : '';
  const { formats } = options;
  let metadata: PageMetadata = {};
  try {
    const { doc, tooDeep } = parseHtmlWithin(input, MAX_NESTING_DEPTH);
    if (tooDeep) return { metadata, unextractable: TOO_DEEP_MESSAGE };
    metadata = extractMetadataFromDocument(doc, options.url);
    const url = pageAddress(options.url, metadata, doc);
    if (url !== options.url) metadata = extractMetadataFromDocument(doc, url);
    const profile = pageProfile(doc, url, { declared: options.pageType, description: formats.markdown || formats.page_text });
    // An empty page has no type.
    if (holdsText(bodyOf(doc))) (metadata as ExtractedMetadata).pageType = profile.type;
    const page: FormattedPage = { metadata };
    if (formats.raw_html) page.raw_html = input;
    if (options.links) Object.assign(page, pageLinks(doc, options.url));
    if (options.scope) applyScope(doc, options.scope);
    const whole = wholePage(options.scope);
    // A thread's posts carry comment names, and a landing page's promos and banners are its sections (see clean.ts).
    // The whole page keeps its navigation and boilerplate: only the aggressive clean judges them.
    cleanDocument(doc, { url, aggressive: !whole, keepComments: profile.forum, landing: profile.landing });
    if (formats.enhanced_html) {
      const hasDoctype = doc.children.some((c) => c.type === 'directive');
      page.enhanced_html = (hasDoctype ? '' : '<!DOCTYPE html>\n') + serialize(doc);
    }
    if (!formats.markdown && !formats.page_text) return page;

    const { nodes, found } = whole ? { nodes: [bodyOf(doc)], found: false } : selectMainContent(doc, input, profile);
    runPasses('content', { roots: nodes, profile });
    // A product whose description sits in a tab the page hides, or is only rendered by script: the structured data's.
    const added = profile.description ? missingDescription(profile.description, nodes, url) : undefined;
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
      const thread = profile.forum ? forumMarkdown(nodes, (h) => converter.convert(h)) : undefined;
      page.markdown = thread ?? converter.convert(serialize(nodes as Element[]));
    }
    // A product's name is the first of its details (name, price, description), not a headline that metadata carries:
    // the title is the shop's ("Desk lamp | Brand"), and a reader of the text needs the name.
    if (formats.page_text) page.page_text = renderText(profile.selectAs === 'product' ? nodes : withoutTitleHeading(nodes, metadata.title));
    return page;
  } catch {
    // Pathological input (deep nesting, converter panic): return what we can rather than fail the crawl.
    return emptyPage(input, formats, metadata);
  }
}
