/**
 * The OpenStreetMap provider over Nominatim (osm-search/Nominatim docs/api/Search.md, Lookup.md, Output.md): search
 * with `format=jsonv2`, `extratags`/`addressdetails`/`namedetails`, a `viewbox` derived from `ll` (a boost, not a
 * filter: `bounded=0`) and `accept-language` from `hl`; lookup by OSM id, our `placeId` form `N123` / `W456` /
 * `R789` (node / way / relation). OSM has no cid. Phone, website and `opening_hours` come from the extratags.
 *
 * Public nominatim.openstreetmap.org usage policy: at most 1 request/s for the whole application, an identifying
 * User-Agent (stock library agents are refused), caching, no bulk harvesting. This module sends the User-Agent; the
 * 1 request/s limit belongs to whoever schedules the requests (the worker), and a self-hosted Nominatim has none.
 */
import { blockReason } from '../detect/page-markers.js';
import { weeklyOpeningHours } from './osm-hours.js';
import type { LatLngZoom, MapsParseResult, MapsProvider, MapsParams, MapsRequest, MapsVerdict, Place } from './types.js';

export interface OsmOptions {
  /** e.g. `https://nominatim.openstreetmap.org` (NOMINATIM_BASE_URL). */
  nominatimBaseUrl: string;
  /** OVERPASS_BASE_URL: accepted for configuration symmetry; not used (Nominatim answers every query form). */
  overpassBaseUrl?: string;
  /** Identifying User-Agent; put a contact (URL or e-mail) in it when pointing at the public instance. */
  userAgent?: string;
}

export const DEFAULT_OSM_USER_AGENT = 'Trawl/0.1 (self-hosted search API; /serp-maps OpenStreetMap provider)';
const RESULT_LIMIT = 20;
/** The viewport the viewbox stands for, in CSS pixels (Google's own Maps payloads echo 1024×768). */
const VIEWPORT = { width: 1024, height: 768 };

/**
 * `ll` → Nominatim `viewbox=<left>,<top>,<right>,<bottom>` (lon,lat). Web Mercator at zoom z shows 256·2^z px for
 * 360° of longitude, so a W px wide viewport spans `360·W / (256·2^z)` degrees of longitude; a degree of latitude
 * takes 1/cos(lat) times the pixels of a degree of longitude, so the latitude span is `lonSpan·cos(lat)·H/W`.
 * Clamped to the valid ranges. Zoom 14 at 40.7° N: about 0.088° × 0.050°.
 */
export function viewboxFor(ll: LatLngZoom): string {
  const lonSpan = (360 * VIEWPORT.width) / (256 * 2 ** ll.zoom);
  const latSpan = lonSpan * Math.cos((ll.lat * Math.PI) / 180) * (VIEWPORT.height / VIEWPORT.width);
  const clamp = (v: number, lim: number) => Math.max(-lim, Math.min(lim, v));
  const r = (v: number) => Math.round(v * 1e6) / 1e6;
  return [
    r(clamp(ll.lng - lonSpan / 2, 180)), r(clamp(ll.lat + latSpan / 2, 90)),
    r(clamp(ll.lng + lonSpan / 2, 180)), r(clamp(ll.lat - latSpan / 2, 90)),
  ].join(',');
}

const OSM_ID = /^([NWR])([1-9]\d{0,18})$/;
const OSM_TYPE_LETTER: Record<string, string> = { node: 'N', way: 'W', relation: 'R', N: 'N', W: 'W', R: 'R' };

function url(base: string, path: string, params: Record<string, string | undefined>): string {
  const u = new URL(path, base.endsWith('/') ? base : `${base}/`);
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== '') u.searchParams.set(k, v);
  return u.toString();
}

function headers(opts: OsmOptions, hl: string | undefined): Record<string, string> {
  return {
    'user-agent': opts.userAgent ?? DEFAULT_OSM_USER_AGENT,
    accept: 'application/json',
    ...(hl ? { 'accept-language': hl } : {}),
  };
}

const DETAIL_PARAMS = { format: 'jsonv2', extratags: '1', addressdetails: '1', namedetails: '1' };

export function buildNominatimSearchRequest(opts: OsmOptions, q: MapsParams): MapsRequest {
  return {
    url: url(opts.nominatimBaseUrl, 'search', {
      q: q.q,
      ...DETAIL_PARAMS,
      ...(q.ll ? { viewbox: viewboxFor(q.ll), bounded: '0' } : {}),
      'accept-language': q.hl,
      limit: String(RESULT_LIMIT),
    }),
    headers: headers(opts, q.hl),
  };
}

export function buildNominatimLookupRequest(
  opts: OsmOptions,
  q: MapsParams,
): MapsRequest | { verdict: Extract<MapsVerdict, { kind: 'not_found' }> } {
  if (!q.placeId) {
    const reason = q.cid ? 'OpenStreetMap has no cid; look places up by placeId (N123, W456, R789)' : 'neither placeId nor cid given';
    return { verdict: { kind: 'not_found', reason } };
  }
  if (!OSM_ID.test(q.placeId)) {
    return { verdict: { kind: 'not_found', reason: `placeId ${q.placeId} is not an OSM id of the form N123, W456 or R789` } };
  }
  return {
    url: url(opts.nominatimBaseUrl, 'lookup', { osm_ids: q.placeId, ...DETAIL_PARAMS, 'accept-language': q.hl }),
    headers: headers(opts, q.hl),
  };
}

// ---- response reading ------------------------------------------------------------------------------------------

type Json = Record<string, unknown>;

const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined);
const firstOf = (v: string | undefined) => v?.split(';').map((s) => s.trim()).find((s) => s !== '');

function coord(v: unknown, lim: number): number | undefined {
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v.trim()) ? Number(v) : NaN;
  return Number.isFinite(n) && Math.abs(n) <= lim ? n : undefined;
}

/** `fast_food` → `Fast food`; `yes` and other non-words → undefined. */
export function humanizeTag(value: string | undefined): string | undefined {
  const v = value?.trim().replace(/[_:]+/g, ' ').replace(/\s+/g, ' ');
  if (!v || v === 'yes' || v === 'no' || !/[a-z]/i.test(v)) return undefined;
  return v.charAt(0).toUpperCase() + v.slice(1);
}

function placeTypes(r: Json, tags: Json): string[] {
  const category = str(r.category) ?? str(r.class);
  const primary = humanizeTag(str(r.type)) ?? humanizeTag(category);
  const cuisines = (str(tags.cuisine) ?? '').split(';').map((c) => humanizeTag(c)).filter((c): c is string => !!c);
  return [...new Set([primary, ...cuisines].filter((t): t is string => !!t))];
}

function httpUrl(v: string | undefined): string | undefined {
  if (!v) return undefined;
  if (/^https?:\/\//i.test(v)) return v;
  // OSM website tags are often written without a scheme (`www.example.org`)
  return /^[a-z0-9-]+(\.[a-z0-9-]+)+(\/|$)/i.test(v) ? `https://${v}` : undefined;
}

/** One Nominatim jsonv2 result → a Place (without position), or undefined without a name. */
export function placeFromNominatim(r: unknown): Omit<Place, 'position'> | undefined {
  if (!isObj(r)) return undefined;
  const tags = isObj(r.extratags) ? r.extratags : {};
  const names = isObj(r.namedetails) ? r.namedetails : {};
  const display = str(r.display_name);
  const title = str(r.name) ?? str(names.name) ?? display?.split(',')[0].trim();
  if (!title) return undefined;
  const address = display?.startsWith(`${title}, `) ? display.slice(title.length + 2) : display !== title ? display : undefined;
  const letter = OSM_TYPE_LETTER[str(r.osm_type) ?? ''];
  const osmId = typeof r.osm_id === 'number' || typeof r.osm_id === 'string' ? String(r.osm_id) : '';
  const types = placeTypes(r, tags);
  const hours = str(tags.opening_hours);
  const p: Omit<Place, 'position'> = {
    title,
    address,
    phoneNumber: firstOf(str(tags.phone) ?? str(tags['contact:phone'])),
    website: httpUrl(firstOf(str(tags.website) ?? str(tags['contact:website']) ?? str(tags.url))),
    type: types[0],
    types: types.length > 0 ? types : undefined,
    placeId: letter && /^[1-9]\d{0,18}$/.test(osmId) ? `${letter}${osmId}` : undefined,
    latitude: coord(r.lat, 90),
    longitude: coord(r.lon, 180),
    openingHours: hours ? weeklyOpeningHours(hours) : undefined,
    thumbnailUrl: httpUrl(str(tags.image)),
  };
  for (const k of Object.keys(p) as Array<keyof typeof p>) if (p[k] === undefined) delete p[k];
  return p;
}

export function parseNominatim(body: string, q: MapsParams): MapsParseResult {
  const isLookup = !!(q.placeId || q.cid);
  try {
    const text = (typeof body === 'string' ? body : '').replace(/^\uFEFF/, '').trim();
    if (text === '') return { verdict: { kind: 'blocked', reason: 'unknown', detail: 'empty body' }, places: [] };
    if (text.startsWith('<')) {
      const reason = blockReason(text) ?? (/access blocked|usage policy|bandwidth limit/i.test(text) ? 'rate_limited' : 'unknown');
      return { verdict: { kind: 'blocked', reason, detail: 'HTML page instead of Nominatim JSON' }, places: [] };
    }
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch {
      return { verdict: { kind: 'blocked', reason: 'unknown', detail: 'unreadable response' }, places: [] };
    }
    if (isObj(data) && 'error' in data) {
      const err = data.error;
      const message = isObj(err) ? str(err.message) : str(err);
      return { verdict: { kind: 'blocked', reason: 'unknown', detail: `Nominatim error: ${message ?? 'unspecified'}` }, places: [] };
    }
    if (!Array.isArray(data)) return { verdict: { kind: 'blocked', reason: 'unknown', detail: 'not a Nominatim result list' }, places: [] };
    let places = data.map(placeFromNominatim).filter((p): p is Omit<Place, 'position'> => !!p);
    if (isLookup) {
      places = places.filter((p) => !!q.placeId && p.placeId === q.placeId).slice(0, 1);
      if (places.length === 0) {
        const what = q.placeId ? `placeId ${q.placeId}` : `cid ${q.cid}`;
        return { verdict: { kind: 'not_found', reason: `OpenStreetMap has no place with ${what}` }, places: [] };
      }
    }
    return { verdict: { kind: 'ok' }, places: places.slice(0, RESULT_LIMIT).map((p, i) => ({ position: i + 1, ...p })) };
  } catch (e) {
    return { verdict: { kind: 'blocked', reason: 'unknown', detail: `parser fault: ${(e as Error).message}` }, places: [] };
  }
}

export function createOsmProvider(opts: OsmOptions): MapsProvider {
  return {
    name: 'osm',
    buildSearchRequest: (q) => buildNominatimSearchRequest(opts, q),
    buildLookupRequest: (q) => buildNominatimLookupRequest(opts, q),
    parse: parseNominatim,
  };
}
