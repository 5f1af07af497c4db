/**
 * The Google Maps provider. Requests are the JSON endpoints Maps itself calls (UPSTREAMS.md §C'): search is
 * `/search?tbm=map&pb=…` (gosom's form), a lookup is the `/maps/preview/place?pb=!1m…!1s<feature id>` RPC; both
 * answer `)]}'` plus a JSON array. The place array has the same layout in both: a search result item carries it at
 * `[14]` of `data[0][1][i≥1]`, a place payload at `jd[6]`. Indexes drift over time, so every read is guarded and the
 * parser never throws. The request forms are taken from public code and are not verified against live Google here.
 */
import { DEVICE_PROFILES, acceptLanguage } from '#contracts';
import { blockReason } from '../detect/page-markers.js';
import { unwrapGoogleLink } from '../util/urls.js';
import { cidFromFeatureId, featureIdFromCid, featureIdFromPlaceId, placeIdFromFeatureId } from './google-ids.js';
import type { LatLngZoom, MapsParseResult, MapsProvider, MapsParams, MapsRequest, MapsVerdict, Place } from './types.js';
import { WEEKDAYS } from './types.js';

export interface GoogleMapsOptions {
  /** e.g. `https://www.google.com` (GOOGLE_BASE_URL); a fixture server in tests. */
  baseUrl: string;
}

/**
 * Viewport distance in metres for a zoom level: SerpApi's `m` form tops out at 15,028,132 m ≈ 3z at the equator,
 * i.e. metres ≈ 120,225,048 / 2^zoom. Google's pb carries it as `!1d`; `!4f13.1` is the constant field of view its
 * own links use (and the corpus payloads echo in `jd[4]`).
 */
export function viewportMetres(zoom: number): number {
  return Math.round((120_225_048 / 2 ** zoom) * 100) / 100;
}

const WORLD: LatLngZoom = { lat: 0, lng: 0, zoom: 3 };

/** gosom `gmaps/searchjob.go`: 20 results from offset 0; the `!12m22…` tail asks for the full place arrays. */
function searchPb(ll: LatLngZoom | undefined): string {
  const view = ll
    ? `!4m12!1m3!1d${viewportMetres(ll.zoom)}!2d${ll.lng}!3d${ll.lat}!2m3!1f0!2f0!3f0!3m2!1i600!2i800!4f13.1`
    : '!4m8!2m3!1f0!2f0!3f0!3m2!1i600!2i800!4f13.1';
  return `${view}!7i20!8i0!10b1!12m22!1m3!18b1!30b1!34e1!2m3!5m1!6e2!20e3!4b0!10b1!12b1!13b1!16b1!17m1!3e1`
    + '!20m3!5e2!6b1!14b1!46m1!1b0!96b1!19m4!2m3!1i360!2i120!4i8';
}

/** The preview-place RPC seen in public links, without the place's own lat/lng (`!4m2`), which a lookup lacks. */
function placePb(featureId: string, ll: LatLngZoom | undefined): string {
  const v = ll ?? WORLD;
  return `!1m14!1s${featureId}!3m12!1m3!1d${viewportMetres(v.zoom)}!2d${v.lng}!3d${v.lat}!2m3!1f0!2f0!3f0!3m2!1i1280!2i665!4f13.1`
    + '!12m4!2m3!1i360!2i120!4i8';
}

function buildUrl(base: string, path: string, params: Record<string, string | undefined>): string {
  const url = new URL(path, base.endsWith('/') ? base : `${base}/`);
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== '') url.searchParams.set(k, v);
  return url.toString();
}

function headers(hl: string | undefined): Record<string, string> {
  return {
    'user-agent': DEVICE_PROFILES.desktop.userAgent,
    accept: '*/*',
    'accept-language': acceptLanguage(hl ?? 'en'),
  };
}

export function buildGoogleMapsSearchRequest(opts: GoogleMapsOptions, q: MapsParams): MapsRequest {
  const url = buildUrl(opts.baseUrl, 'search', { tbm: 'map', authuser: '0', hl: q.hl, q: q.q, pb: searchPb(q.ll) });
  return { url, headers: headers(q.hl) };
}

/** The feature id a lookup asks for: from a `ChIJ…` placeId when given (it wins over cid), else from the cid. */
export function lookupFeatureId(q: MapsParams): string | undefined {
  if (q.placeId) return featureIdFromPlaceId(q.placeId);
  return q.cid ? featureIdFromCid(q.cid) : undefined;
}

export function buildGoogleMapsLookupRequest(
  opts: GoogleMapsOptions,
  q: MapsParams,
): MapsRequest | { verdict: Extract<MapsVerdict, { kind: 'not_found' }> } {
  const featureId = lookupFeatureId(q);
  if (!featureId) {
    const reason = q.placeId
      ? `placeId ${q.placeId} is not a Google place id of the ChIJ… form`
      : q.cid ? `cid ${q.cid} is not a 64-bit decimal number` : 'neither placeId nor cid given';
    return { verdict: { kind: 'not_found', reason } };
  }
  const url = buildUrl(opts.baseUrl, 'maps/preview/place', { authuser: '0', hl: q.hl, pb: placePb(featureId, q.ll) });
  return { url, headers: headers(q.hl) };
}

// ---- payload reading -------------------------------------------------------------------------------------------

function at(value: unknown, ...path: number[]): unknown {
  let v = value;
  for (const i of path) {
    if (!Array.isArray(v)) return undefined;
    v = v[i];
  }
  return v;
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

function num(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** Some captures hold JS-escaped strings (`\u003d` as six characters); a URL never legitimately contains them. */
function unescapeJs(s: string): string {
  return s.replace(/\\u([0-9a-fA-F]{4})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
}

/**
 * Opening hours: `place[203][0]` (since Nov 2025) = [[dayName, isoWeekday, [y,m,d], [[text, …], …]], …], else
 * `place[34][1]` = [[dayName, [text, …], _, _, "YYYY-MM-DD", …], …]. Keys come from the weekday number or the date,
 * so a payload in another language (hl=el: "Σάββατο") still gets English keys; the text stays in the payload's language.
 */
function openingHours(place: unknown): Record<string, string> | undefined {
  const out: Record<string, string> = {};
  const fromDate = (d: unknown): string | undefined => {
    const s = str(d);
    const m = s ? /^(\d{4})-(\d{2})-(\d{2})$/.exec(s) : null;
    if (!m) return undefined;
    return WEEKDAYS[(new Date(Date.UTC(+m[1], +m[2] - 1, +m[3])).getUTCDay() + 6) % 7];
  };
  const dayKey = (name: unknown, iso: unknown, date: unknown): string | undefined => {
    const n = num(iso);
    if (n !== undefined && Number.isInteger(n) && n >= 1 && n <= 7) return WEEKDAYS[n - 1];
    return fromDate(date) ?? (WEEKDAYS as readonly string[]).find((d) => d === str(name));
  };
  // Google writes `7\u202fAM–8:30\u202fPM` (narrow no-break spaces); §2.3's text range uses plain spaces.
  const add = (key: string | undefined, texts: string[]) => {
    if (key && texts.length > 0) out[key] = texts.join(', ').replace(/[\u00a0\u202f]/g, ' ');
  };
  const modern = at(place, 203, 0);
  if (Array.isArray(modern) && modern.length > 0) {
    for (const day of modern) {
      const slots = at(day, 3);
      const texts = Array.isArray(slots) ? slots.map((s) => str(at(s, 0))).filter((t): t is string => !!t) : [];
      const [y, m, d] = [num(at(day, 2, 0)), num(at(day, 2, 1)), num(at(day, 2, 2))];
      const iso = y && m && d ? `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}` : undefined;
      add(dayKey(at(day, 0), at(day, 1), iso), texts);
    }
  } else {
    const legacy = at(place, 34, 1);
    if (Array.isArray(legacy)) {
      for (const day of legacy) {
        const texts = at(day, 1);
        add(dayKey(at(day, 0), undefined, at(day, 4)), Array.isArray(texts) ? texts.map(str).filter((t): t is string => !!t) : []);
      }
    }
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

function address(place: unknown, title: string): string | undefined {
  const parts = at(place, 2);
  if (Array.isArray(parts)) {
    const joined = parts.map(str).filter((p): p is string => !!p).join(', ');
    if (joined) return joined;
  }
  const full = str(at(place, 18)) ?? str(at(place, 39));
  if (!full) return undefined;
  return full.startsWith(`${title}, `) ? full.slice(title.length + 2) : full;
}

/** One place array → a Place (without position), or undefined when it has no title. */
export function placeFromArray(place: unknown, rootCid?: string): Omit<Place, 'position'> | undefined {
  const title = str(at(place, 11));
  if (!title) return undefined;
  const featureId = str(at(place, 10));
  const types = (Array.isArray(at(place, 13)) ? (at(place, 13) as unknown[]) : []).map(str).filter((t): t is string => !!t);
  const website = str(at(place, 7, 0));
  const thumb = str(at(place, 72, 0, 1, 6, 0)) ?? str(at(place, 72, 0, 0, 6, 0)) ?? str(at(place, 37, 0, 0, 6, 0));
  const ratingCount = num(at(place, 4, 8));
  const p: Omit<Place, 'position'> = {
    title,
    address: address(place, title),
    rating: num(at(place, 4, 7)),
    ratingCount: ratingCount !== undefined ? Math.round(ratingCount) : undefined,
    phoneNumber: str(at(place, 178, 0, 0)),
    website: website ? unwrapGoogleLink(unescapeJs(website)) || undefined : undefined,
    type: types[0],
    types: types.length > 0 ? types : undefined,
    priceLevel: str(at(place, 4, 2)),
    placeId: str(at(place, 78)) ?? (featureId ? placeIdFromFeatureId(featureId) : undefined),
    cid: (featureId ? cidFromFeatureId(featureId) : undefined) ?? rootCid,
    latitude: num(at(place, 9, 2)),
    longitude: num(at(place, 9, 3)),
    openingHours: openingHours(place),
    thumbnailUrl: thumb ? unescapeJs(thumb) : undefined,
  };
  for (const k of Object.keys(p) as Array<keyof typeof p>) if (p[k] === undefined) delete p[k];
  return p;
}

/** Strips the `)]}'` guard; unwraps the older `{"c":0,"d":")]}'\n[…]"}` envelope. */
export function stripXssi(body: string): string {
  let s = body.replace(/^\uFEFF/, '').trimStart();
  if (s.startsWith(")]}'")) s = s.slice(4).trimStart();
  if (s.startsWith('{')) {
    try {
      const env = JSON.parse(s.replace(/\/\*""\*\/\s*$/, '')) as unknown;
      const d = env && typeof env === 'object' ? (env as { d?: unknown }).d : undefined;
      if (typeof d === 'string') return stripXssi(d);
    } catch {
      // not an envelope: fall through and let the caller judge it
    }
  }
  return s;
}

/** The place arrays of a payload: search items (`data[0][1][i≥1][14]`) or the single place (`jd[6]`). */
function placeArrays(data: unknown): { places: unknown[]; rootCid?: string } | undefined {
  if (!Array.isArray(data)) return undefined;
  const single = at(data, 6);
  if (Array.isArray(single) && str(at(single, 11))) {
    return { places: [single], rootCid: str(at(data, 25, 3, 0, 13, 0, 0, 1)) };
  }
  const items = at(data, 0, 1);
  if (Array.isArray(items)) {
    return { places: items.map((item) => at(item, 14)).filter((p) => Array.isArray(p)) };
  }
  // A search answered with no result list at all (`[["query", null, …]]`) is an empty result, not a block.
  if (Array.isArray(at(data, 0)) || data.length === 0) return { places: [] };
  return undefined;
}

function notFound(q: MapsParams): MapsParseResult {
  const what = q.placeId ? `placeId ${q.placeId}` : `cid ${q.cid}`;
  return { verdict: { kind: 'not_found', reason: `Google Maps has no place with ${what}` }, places: [] };
}

export function parseGoogleMaps(body: string, q: MapsParams): MapsParseResult {
  const isLookup = !!(q.placeId || q.cid);
  try {
    const text = stripXssi(typeof body === 'string' ? body : '');
    if (text === '') return { verdict: { kind: 'blocked', reason: 'unknown', detail: 'empty body' }, places: [] };
    if (text.startsWith('<')) {
      return { verdict: { kind: 'blocked', reason: blockReason(text) ?? 'unknown', detail: 'HTML page instead of a Maps payload' }, places: [] };
    }
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch {
      return { verdict: { kind: 'blocked', reason: 'unknown', detail: 'unreadable payload' }, places: [] };
    }
    const found = placeArrays(data);
    if (!found) return { verdict: { kind: 'blocked', reason: 'unknown', detail: 'unrecognised payload layout' }, places: [] };
    let places = found.places
      .map((a) => placeFromArray(a, found.rootCid))
      .filter((p): p is Omit<Place, 'position'> => !!p);
    if (isLookup) {
      places = places.filter((p) => (!q.placeId || p.placeId === q.placeId) && (!q.cid || p.cid === q.cid)).slice(0, 1);
      if (places.length === 0) return notFound(q);
    }
    return { verdict: { kind: 'ok' }, places: places.map((p, i) => ({ position: i + 1, ...p })) };
  } catch (e) {
    // Belt and braces: the readers above are guarded, but a parser must never take a worker down.
    return { verdict: { kind: 'blocked', reason: 'unknown', detail: `parser fault: ${(e as Error).message}` }, places: [] };
  }
}

export function createGoogleMapsProvider(opts: GoogleMapsOptions): MapsProvider {
  return {
    name: 'google',
    buildSearchRequest: (q) => buildGoogleMapsSearchRequest(opts, q),
    buildLookupRequest: (q) => buildGoogleMapsLookupRequest(opts, q),
    parse: parseGoogleMaps,
  };
}
