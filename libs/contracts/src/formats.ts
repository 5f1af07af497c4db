/** The output formats a page can be returned in (spec §2.4). */
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
}
