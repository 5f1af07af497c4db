/**
 * The Firecrawl-compatible API as a translation: Firecrawl's request bodies (zod, strict, bookkeeping fields ignored)
 * onto Trawl's service inputs, and Trawl's answers back to Firecrawl's shapes and error answers. No I/O here.
 */
export * from './input.js';
export * from './scrape-options.js';
export * from './bodies.js';
export * from './document.js';
export * from './jobs.js';
export * from './errors.js';
export * from './answers.js';
export * from './search-sources.js';
export * from './reference.js';
