/**
 * The `ll` parameter (§4.3): `@<latitude>,<longitude>,<zoom>z`, e.g. `@40.7455096,-74.0083012,14z`. Strict on
 * purpose — plain decimals only (no exponents, signs other than `-`, spaces or trailing text), latitude −90..90,
 * longitude −180..180, zoom an integer 1..21 without leading zeros. The gateway answers 400 with the message.
 */
import type { LatLngZoom } from './maps-place.js';

export interface LlError {
  param: 'll';
  message: string;
}

export type LlResult = { ok: true; value: LatLngZoom } | { ok: false; error: LlError };

const DECIMAL = '-?\\d{1,3}(?:\\.\\d+)?';
// Zoom `0z` passes the pattern so that the range check can say what is wrong with it; leading zeros do not.
const LL_PATTERN = new RegExp(`^@(${DECIMAL}),(${DECIMAL}),(0|[1-9]\\d?)z$`);
const FORMAT = 'expected @<latitude>,<longitude>,<zoom>z, e.g. @40.7455,-74.0083,14z';

function fail(message: string): LlResult {
  return { ok: false, error: { param: 'll', message: `ll: ${message}` } };
}

export function parseLl(raw: string): LlResult {
  if (typeof raw !== 'string' || raw === '') return fail(`must not be empty (${FORMAT})`);
  const m = LL_PATTERN.exec(raw);
  if (!m) return fail(`malformed value ${JSON.stringify(raw.slice(0, 64))} (${FORMAT})`);
  const lat = Number(m[1]);
  const lng = Number(m[2]);
  const zoom = Number(m[3]);
  if (lat < -90 || lat > 90) return fail(`latitude ${m[1]} is outside -90..90`);
  if (lng < -180 || lng > 180) return fail(`longitude ${m[2]} is outside -180..180`);
  if (zoom < 1 || zoom > 21) return fail(`zoom ${m[3]}z is outside 1z..21z`);
  return { ok: true, value: { lat, lng, zoom } };
}

/** The canonical text form, for echoing in `parameters`. */
export function formatLl(ll: LatLngZoom): string {
  return `@${ll.lat},${ll.lng},${ll.zoom}z`;
}
