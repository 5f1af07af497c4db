/** The output formats a page can be returned in (spec §2.4). */
import type { PageChunks } from './jobs.js';

export const OUTPUT_FORMATS = ['raw_html', 'enhanced_html', 'markdown', 'page_text'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];
export type OutputFormats = Record<OutputFormat, boolean>;

/** Metadata read from a page's head and markup, where present. */
export interface PageMetadata {
  title?: string;
  description?: string;
  language?: string;
  canonicalUrl?: string;
  publishedDate?: string;
  author?: string;
  siteName?: string;
  /** What kind of page the content was selected as: article, service, product, collection, forum, listing, documentation. */
  pageType?: 'article' | 'service' | 'product' | 'collection' | 'forum' | 'listing' | 'documentation';
  /** A document's page count (PDF), however many of them were read (PDF_MAX_PAGES). */
  pages?: number;
}

/**
 * A caller's narrowing of a page before its formats are made: elements dropped (`exclude`, CSS selectors), only some
 * elements kept (`include`), and whether markdown and text take the main content (default) or the whole cleaned page.
 * Links and metadata always come from the whole page.
 */
export interface PageScope {
  include?: string[];
  exclude?: string[];
  /** false: markdown and page_text are the whole page (cleaned of scripts and styles), not its main content. */
  mainContent?: boolean;
}

/** What the format pipeline produces for one page; a field is present only when its format was asked for. */
export interface FormattedPage {
  raw_html?: string;
  enhanced_html?: string;
  markdown?: string;
  page_text?: string;
  metadata: PageMetadata;
  /** Set when the page cannot be extracted (e.g. nested too deeply): why, and every format is left out. */
  unextractable?: string;
  /** With `links` asked for: the page's links and its canonical URL. */
  links?: Array<{ url: string; nofollow?: true }>;
  canonical?: string;
  /** With chunks asked for: the page's best chunks for the query (made from its Markdown, asked for or not). */
  chunks?: PageChunks;
}

/** A page's content in the formats that were asked for: a key is present only for an asked-for format. */
export type PageContent = Partial<Record<OutputFormat, string>>;

/** The formats a request's flags ask for (`raw_html=true&markdown=true` …), each one explicitly on or off. */
export function formatsOf(flags: Partial<Record<OutputFormat, boolean>>): OutputFormats {
  return Object.fromEntries(OUTPUT_FORMATS.map((format) => [format, flags[format] === true])) as OutputFormats;
}

/**
 * The content to hand back for a formatted page: `raw_html` is the page as fetched (when asked for), the other
 * formats what the pipeline produced. The one place the four formats are copied.
 */
export function contentOf(formats: OutputFormats, html: string, formatted: PageContent): PageContent {
  const content: PageContent = {};
  for (const format of OUTPUT_FORMATS) {
    const value = format === 'raw_html' ? (formats.raw_html ? html : undefined) : formatted[format];
    if (value !== undefined) content[format] = value;
  }
  return content;
}

/** The formats present on `source` (a job result, a formatted page), and nothing else of it. */
export function presentContent(source: PageContent): PageContent {
  const content: PageContent = {};
  for (const format of OUTPUT_FORMATS) if (source[format] !== undefined) content[format] = source[format];
  return content;
}
