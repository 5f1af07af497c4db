/**
 * Trawl's page results as Firecrawl Documents: `markdown`, `html` (Trawl's enhanced, cleaned HTML), `rawHtml`,
 * `links`, `images`, `screenshot` (a link) and `metadata` with `sourceURL` (as requested), `url` (after redirects),
 * `statusCode` — a page answering 404 is a document with statusCode 404 — and Trawl's own `engine`.
 */
import { load } from 'cheerio';
import type { CrawlJobPage, PageMetadata } from '#contracts';
import type { DocumentFormats } from './scrape-options.js';

export interface FirecrawlDocument {
  markdown?: string;
  html?: string;
  rawHtml?: string;
  links?: string[];
  images?: string[];
  screenshot?: string;
  /** The `summary` format: the LLM's summary of the page. */
  summary?: string;
  /** The `json` format: what the LLM extracted (valid against the schema when one was given). */
  json?: unknown;
  /** The `highlights` format: the page's passages most relevant to its query, best first, in the page's own words. */
  highlights?: string;
  metadata: Record<string, unknown>;
  warning?: string;
  /** What the scrape's actions produced (only when it had actions). */
  actions?: DocumentActions;
}

/** Firecrawl's `actions` of a Document: screenshots as links, each scrape's URL and HTML, each script's return. */
export interface DocumentActions {
  screenshots: string[];
  scrapes: Array<{ url: string; html: string }>;
  javascriptReturns: Array<{ type: string; value: unknown }>;
  /** Links to the pdf actions' PDFs (scrape only). */
  pdfs: string[];
}

/** What a page job brought back, in Trawl's names. */
export interface PageOutcome {
  url: string;
  finalUrl: string;
  statusCode: number;
  raw_html?: string;
  enhanced_html?: string;
  markdown?: string;
  metadata?: PageMetadata;
  links?: string[];
  /** Where the screenshot can be fetched (a signed link). */
  screenshotUrl?: string;
  /** The actions' outputs, their screenshots already links. */
  actions?: DocumentActions;
}

export interface DocumentContext {
  formats: DocumentFormats;
  removeBase64Images: boolean;
  /** Extra metadata: scrapeId, creditsUsed, proxyUsed, engine. */
  metadata?: Record<string, unknown>;
}

const BASE64_IMAGE = /\]\(data:image\/[a-z0-9.+-]+;base64,[^)]*\)/gi;

export function toDocument(page: PageOutcome, context: DocumentContext): FirecrawlDocument {
  const { formats } = context;
  const doc: FirecrawlDocument = { metadata: {} };
  if (formats.markdown) doc.markdown = stripImages(page.markdown ?? '', context.removeBase64Images);
  if (formats.html) doc.html = page.enhanced_html ?? '';
  if (formats.rawHtml) doc.rawHtml = page.raw_html ?? '';
  if (formats.links) doc.links = page.links ?? [];
  if (formats.images) doc.images = imagesOf(page.raw_html ?? '', page.finalUrl, context.removeBase64Images);
  if (formats.screenshot && page.screenshotUrl) doc.screenshot = page.screenshotUrl;
  doc.metadata = { ...metadataOf(page.metadata ?? {}), sourceURL: page.url, url: page.finalUrl, statusCode: page.statusCode, ...context.metadata };
  if (page.actions) doc.actions = page.actions;
  return doc;
}

/** A stored page of a crawl or a batch as a Document. */
export function storedDocument(page: CrawlJobPage, context: DocumentContext): FirecrawlDocument {
  const outcome: PageOutcome = { url: page.source_url, finalUrl: page.url, statusCode: page.status_code };
  if (page.raw_html !== undefined) outcome.raw_html = page.raw_html;
  if (page.enhanced_html !== undefined) outcome.enhanced_html = page.enhanced_html;
  if (page.markdown !== undefined) outcome.markdown = page.markdown;
  if (page.metadata) outcome.metadata = page.metadata;
  if (page.links) outcome.links = page.links;
  const doc = toDocument(outcome, context);
  if (page.actions) doc.actions = { screenshots: [], scrapes: page.actions.scrapes, javascriptReturns: page.actions.javascriptReturns, pdfs: [] };
  if (page.truncated) doc.warning = 'The page was cut to the server\'s stored-page size limit';
  return doc;
}

function metadataOf(m: PageMetadata): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (m.title !== undefined) out.title = m.title;
  if (m.description !== undefined) out.description = m.description;
  if (m.language !== undefined) out.language = m.language;
  if (m.canonicalUrl !== undefined) out.canonical = m.canonicalUrl;
  if (m.author !== undefined) out.author = m.author;
  if (m.publishedDate !== undefined) out.publishedTime = m.publishedDate;
  if (m.siteName !== undefined) out.ogSiteName = m.siteName;
  if (m.pages !== undefined) out.numPages = m.pages;
  return out;
}

function stripImages(markdown: string, strip: boolean): string {
  return strip ? markdown.replace(BASE64_IMAGE, '](<Base64-Image-Removed>)') : markdown;
}

/** The page's image addresses (img src, absolute, document order, no duplicates). */
export function imagesOf(html: string, base: string, dropInline: boolean): string[] {
  if (!html) return [];
  const $ = load(html);
  const seen = new Set<string>();
  $('img[src]').each((_, el) => {
    const src = $(el).attr('src')?.trim();
    if (!src || (dropInline && src.startsWith('data:'))) return;
    try {
      seen.add(new URL(src, base).toString());
    } catch {
      // not an address
    }
  });
  return [...seen];
}
