/**
 * Shapes of the `/serp-maps` providers (§4.3, §2.3): the query the gateway hands in, the upstream request a provider
 * builds, the verdict on what came back, and the place objects of `serp_maps_results`.
 */

/** A location bias parsed from `ll` (`@<lat>,<lng>,<zoom>z`). */
export interface LatLngZoom {
  lat: number;
  lng: number;
  /** Integer map zoom, 1 (world) to 21 (building). */
  zoom: number;
}

/**
 * A `/serp-maps` query after validation. In a lookup (`placeId` or `cid` set) `q` is not sent upstream: the
 * identifier alone names the place, and `q` is only echoed in `parameters`. With both `placeId` and `cid`, the
 * lookup goes by `placeId` and the place found must also carry that `cid`, otherwise the verdict is `not_found`.
 */
export interface MapsQuery {
  q: string;
  /** ISO 639-1 language code. */
  hl?: string;
  ll?: LatLngZoom;
  placeId?: string;
  /** Decimal digits only. */
  cid?: string;
}

/** A place object of §2.3. Absent values are omitted, never null or empty. */
export interface Place {
  /** 1-based rank in the list. */
  position: number;
  title: string;
  address?: string;
  rating?: number;
  ratingCount?: number;
  phoneNumber?: string;
  website?: string;
  /** Primary category (the first of `types`). */
  type?: string;
  types?: string[];
  priceLevel?: string;
  placeId?: string;
  /** Decimal string (Google's 64-bit customer id does not fit a JSON number). */
  cid?: string;
  latitude?: number;
  longitude?: number;
  /** Keyed by English weekday name (`Monday` … `Sunday`); the value a text range such as `9 AM–5 PM` or `Closed`. */
  openingHours?: Record<string, string>;
  thumbnailUrl?: string;
}

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
  buildSearchRequest(query: MapsQuery): MapsRequest;
  /**
   * The request for a `placeId` / `cid` lookup. A value the provider can never resolve (e.g. a `cid` for OSM, or a
   * Google place id that is not of the `ChIJ…` form) yields `{ verdict: not_found }` instead of a request.
   */
  buildLookupRequest(query: MapsQuery): MapsRequest | { verdict: Extract<MapsVerdict, { kind: 'not_found' }> };
  /** Pure and total: never throws, whatever the body. */
  parse(body: string, query: MapsQuery): MapsParseResult;
}

export const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'] as const;
export type Weekday = (typeof WEEKDAYS)[number];
