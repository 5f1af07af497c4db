/** The API reference: every endpoint's documentation, from which /openapi.json and the MCP tool schemas are built. */
import { crawlEndpoint } from './crawl.reference.js';
import type { ApiEndpoint } from './endpoint-reference.js';
import { headfulBrowserEndpoint } from './headful-browser.reference.js';
import { searchEndpoint } from './search.reference.js';
import { serpMapsEndpoint } from './serp-maps.reference.js';
import { serpSearchEndpoint } from './serp-search.reference.js';

export * from './endpoint-reference.js';
export * from './responses.js';
export { crawlEndpoint, headfulBrowserEndpoint, searchEndpoint, serpMapsEndpoint, serpSearchEndpoint };

/** In the order the reference lists them. A new endpoint is one line here. */
export const API_ENDPOINTS: readonly ApiEndpoint[] = [searchEndpoint, serpSearchEndpoint, serpMapsEndpoint, crawlEndpoint, headfulBrowserEndpoint];
