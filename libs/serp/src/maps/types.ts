/**
 * Shapes of the `/serp-maps` providers (§4.3, §2.3): the query the gateway hands in, the upstream request a provider
 * builds, the verdict on what came back, and the place objects of `serp_maps_results`.
 */

/** Query and place shapes live in libs/contracts (they cross the queue); re-exported for the providers. */
export type { LatLngZoom, MapsParams, Place } from '#contracts';
import type { MapsParams, Place } from '#contracts';

export type MapsBlockReason = 'captcha' | 'consent' | 'unusual_traffic' | 'rate_limited' | 'unknown';

/**
 * `ok`: the payload was read (a search may still have zero places); `not_found`: a lookup whose place does not exist
 * (or is not the one asked for); `blocked`: anything that is not the provider's data (captcha, consent page, error
 * page, unreadable body) — an upstream failure, charged 0.
 */
export type MapsVerdict =
  | { kind: 'ok' }
  | { kind: 'not_found'; reason: string }
  | { kind: 'blocked'; reason: MapsBlockReason; detail?: string };

export interface MapsRequest {
  url: string;
  headers: Record<string, string>;
}

export interface MapsParseResult {
  verdict: MapsVerdict;
  places: Place[];
}

export interface MapsProvider {
  name: 'google' | 'osm';
  buildSearchRequest(query: MapsParams): MapsRequest;
  /**
   * The request for a `placeId` / `cid` lookup. A value the provider can never resolve (e.g. a `cid` for OSM, or a
   * Google place id that is not of the `ChIJ…` form) yields `{ verdict: not_found }` instead of a request.
   */
  buildLookupRequest(query: MapsParams): MapsRequest | { verdict: Extract<MapsVerdict, { kind: 'not_found' }> };
  /** Pure and total: never throws, whatever the body. */
  parse(body: string, query: MapsParams): MapsParseResult;
}

export const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'] as const;
export type Weekday = (typeof WEEKDAYS)[number];
