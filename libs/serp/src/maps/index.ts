/**
 * `/serp-maps` providers (issue 13): Google Maps (default) and OpenStreetMap/Nominatim. Each builds the upstream
 * request for a search or a `placeId`/`cid` lookup and parses what comes back into §2.3 place objects with a
 * verdict (ok / not_found / blocked). Pure: no I/O here; fetching, rate limits and credits belong to the callers.
 */
import { createGoogleMapsProvider } from './google-maps.js';
import { createOsmProvider } from './osm.js';
import type { MapsProvider } from './types.js';

export * from './types.js';
export { parseLl, formatLl, type LlError, type LlResult } from './ll.js';
export { cidFromFeatureId, featureIdFromCid, featureIdFromPlaceId, placeIdFromFeatureId } from './google-ids.js';
export { createGoogleMapsProvider, parseGoogleMaps, viewportMetres, type GoogleMapsOptions } from './google-maps.js';
export { createOsmProvider, parseNominatim, viewboxFor, DEFAULT_OSM_USER_AGENT, type OsmOptions } from './osm.js';
export { weeklyOpeningHours } from './osm-hours.js';

export type MapsProviderName = 'google' | 'osm';

export interface CreateMapsProviderOptions {
  provider: MapsProviderName;
  googleBaseUrl: string;
  nominatimBaseUrl: string;
  overpassBaseUrl?: string;
  osmUserAgent?: string;
}

/** The provider MAPS_PROVIDER names, with its configured base URLs. */
export function createMapsProvider(opts: CreateMapsProviderOptions): MapsProvider {
  return opts.provider === 'osm'
    ? createOsmProvider({ nominatimBaseUrl: opts.nominatimBaseUrl, overpassBaseUrl: opts.overpassBaseUrl, userAgent: opts.osmUserAgent })
    : createGoogleMapsProvider({ baseUrl: opts.googleBaseUrl });
}
