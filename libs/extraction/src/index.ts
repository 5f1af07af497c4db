/**
 * Output-format pipeline (raw_html, enhanced_html, markdown, page_text + metadata) for crawled pages.
 * `formatPage` is the pure entry point; `ExtractionPool` runs it on worker threads.
 */
export type { FormattedPage, OutputFormats, PageMetadata } from '#contracts';
export { formatPage, type ExtractedMetadata, type FormatOptions } from './format-page.js';
export { selectMainContent, type MainContent } from './selection/select.js';
export { pageProfile, profileOf, type PageProfile, type ProfileOptions } from './profile.js';
export { PASSES, runPasses } from './passes/index.js';
export type { Pass, PassContext, Stage } from './passes/pass.js';
export { detectPageType, guessPageType, PAGE_TYPES, type PageType, type PageTypeGuess } from './signals/page-type.js';
export { extractMetadata, extractMetadataFromDocument } from './metadata.js';
export { decodeHtml, charsetFromContentType, charsetFromMeta } from './decode.js';
export { ExtractionPool, type ExtractionPoolOptions } from './pool.js';
export { markdownConverter, tidyMarkdown, type MarkdownConverter, type MarkdownConverterName } from './markdown/converters.js';
export { cleanDocument, type CleanOptions } from './clean/clean.js';
export { extractMainContent } from './selection/main-content.js';
export { renderText } from './text.js';
export { markdownToText } from './markdown/to-text.js';
export { parseHtml, serialize } from './dom.js';
export { assertExtractable, toCrawlPageSuccess } from './crawl-result.js';
export { ExtractionModule } from './extraction.module.js';
export { formatDocument, type DocumentLimits } from './documents/format-document.js';
