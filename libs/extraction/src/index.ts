/**
 * Output-format pipeline (raw_html, enhanced_html, markdown, page_text + metadata) for crawled pages.
 * `formatPage` is the pure entry point; `ExtractionPool` runs it on worker threads.
 */
export type { FormattedPage, OutputFormats, PageMetadata } from '#contracts';
export { formatPage, selectMainContent, type ExtractedMetadata, type FormatOptions, type MainContent } from './format-page.js';
export { detectPageType, guessPageType, PAGE_TYPES, type PageType, type PageTypeGuess } from './page-type.js';
export { extractMetadata, extractMetadataFromDocument } from './metadata.js';
export { decodeHtml, charsetFromContentType, charsetFromMeta } from './decode.js';
export { ExtractionPool, type ExtractionPoolOptions } from './pool.js';
export { markdownConverter, tidyMarkdown, type MarkdownConverter, type MarkdownConverterName } from './markdown/converters.js';
export { cleanDocument, type CleanOptions } from './clean.js';
export { extractMainContent } from './main-content.js';
export { renderText } from './text.js';
export { markdownToText } from './markdown/to-text.js';
export { parseHtml, serialize } from './dom.js';
export { assertExtractable, toCrawlPageSuccess } from './crawl-result.js';
export { ExtractionModule } from './extraction.module.js';
