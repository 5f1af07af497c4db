/** The API reference: every endpoint's documentation, from which /openapi.json and the MCP tool schemas are built. */
import { crawlEndpoint } from './crawl.reference.js';
import { CRAWL_JOB_ENDPOINTS } from './crawl-jobs.reference.js';
import type { ApiEndpoint } from './endpoint-reference.js';
import { headfulBrowserEndpoint } from './headful-browser.reference.js';
import { mapEndpoint } from './map.reference.js';
import { searchEndpoint } from './search.reference.js';
import { serpMapsEndpoint } from './serp-maps.reference.js';
import { serpSearchEndpoint } from './serp-search.reference.js';

export * from './endpoint-reference.js';
export * from './responses.js';
export * from './crawl-job-responses.js';
export * from './crawl-jobs.reference.js';
export { crawlEndpoint, headfulBrowserEndpoint, mapEndpoint, searchEndpoint, serpMapsEndpoint, serpSearchEndpoint };

/** The data endpoints: a metered GET each, parameters in the query string. A new one is one line here. */
export const API_ENDPOINTS: readonly ApiEndpoint[] = [searchEndpoint, serpSearchEndpoint, serpMapsEndpoint, crawlEndpoint, headfulBrowserEndpoint];

/** Every endpoint the reference documents, in its order: the data endpoints, the crawl jobs, `/map`. */
export const API_REFERENCE: readonly ApiEndpoint[] = [...API_ENDPOINTS, ...CRAWL_JOB_ENDPOINTS, mapEndpoint];
