/**
 * The public API, one module per endpoint: parameter schemas (zod) with their query-string coercion, and the
 * response types. REST validation, MCP tool inputs and the OpenAPI document all derive from these.
 */
export * from './query.js';
export * from './fields.js';
export * from './chunks.js';
export * from './crawl.js';
export * from './url-list.js';
export * from './serp-search.js';
export * from './serp-results.js';
export * from './serp-maps.js';
export * from './maps-place.js';
export * from './ll.js';
export * from './search.js';
export * from './reference.js';
export * from './param-table.js';
export * from './headful-browser.js';
export * from './crawl-jobs.js';
