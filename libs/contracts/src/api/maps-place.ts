/**
 * The `/serp-maps` query after validation and the place objects of `serp_maps_results` (§4.3, §2.3): built by the
 * providers in libs/serp, carried across the queue, returned to the client.
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
export interface MapsParams {
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
