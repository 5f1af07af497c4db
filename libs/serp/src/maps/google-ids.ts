/**
 * Google's three names for one place and how they convert, offline:
 * - the feature id ("data_id") `0x<hi>:0x<lo>`, two unsigned 64-bit halves in hex, found at place[10];
 * - the cid (customer id, `maps.google.com/?cid=`): the low half as a decimal string; public Maps links accept a
 *   zero high half, `0x0:0x<hex(cid)>`;
 * - the place id `ChIJ…`: base64url of a protobuf `{1: {1: fixed64 hi, 2: fixed64 lo}}`, so it carries the full
 *   feature id (every ChIJ/data_id pair of the gosom corpus agrees). Other place id forms (`Ei…`, `GhIJ…`: addresses,
 *   plus codes) encode no feature id and cannot be resolved without a browser.
 */

const FEATURE_ID = /^0x([0-9a-f]{1,16}):0x([0-9a-f]{1,16})$/i;
const MAX_U64 = (1n << 64n) - 1n;

/** `0x14e732fd76f0d90d:0xe5415928d6702b47` → `16519582940102929223`; undefined for anything else. */
export function cidFromFeatureId(featureId: string): string | undefined {
  const m = FEATURE_ID.exec(featureId.trim());
  if (!m) return undefined;
  const cid = BigInt(`0x${m[2]}`);
  return cid === 0n ? undefined : cid.toString(10);
}

/** A decimal cid (digits only, 1..2^64-1) → `0x0:0x<hex>`; undefined when not a valid cid. */
export function featureIdFromCid(cid: string): string | undefined {
  if (!/^\d{1,20}$/.test(cid)) return undefined;
  const n = BigInt(cid);
  if (n === 0n || n > MAX_U64) return undefined;
  return `0x0:0x${n.toString(16)}`;
}

function readFixed64LE(bytes: Uint8Array, at: number): bigint {
  let v = 0n;
  for (let i = 7; i >= 0; i--) v = (v << 8n) | BigInt(bytes[at + i]);
  return v;
}

/** `ChIJ…` place id → feature id `0x<hi>:0x<lo>`; undefined for other forms or malformed input. */
export function featureIdFromPlaceId(placeId: string): string | undefined {
  if (!/^ChIJ[A-Za-z0-9_-]{23}$/.test(placeId)) return undefined;
  const bytes = Buffer.from(placeId, 'base64url');
  // 0a 12 | 09 <8 bytes hi> | 11 <8 bytes lo>
  if (bytes.length !== 20 || bytes[0] !== 0x0a || bytes[1] !== 0x12 || bytes[2] !== 0x09 || bytes[11] !== 0x11) return undefined;
  return `0x${readFixed64LE(bytes, 3).toString(16)}:0x${readFixed64LE(bytes, 12).toString(16)}`;
}

function writeFixed64LE(v: bigint, out: Uint8Array, at: number): void {
  for (let i = 0; i < 8; i++) out[at + i] = Number((v >> BigInt(8 * i)) & 0xffn);
}

/** Feature id → `ChIJ…` place id (the inverse of featureIdFromPlaceId); undefined for a zero high half or junk. */
export function placeIdFromFeatureId(featureId: string): string | undefined {
  const m = FEATURE_ID.exec(featureId.trim());
  if (!m) return undefined;
  const hi = BigInt(`0x${m[1]}`);
  const lo = BigInt(`0x${m[2]}`);
  if (hi === 0n || lo === 0n) return undefined;
  const bytes = new Uint8Array(20);
  bytes.set([0x0a, 0x12, 0x09], 0);
  writeFixed64LE(hi, bytes, 3);
  bytes[11] = 0x11;
  writeFixed64LE(lo, bytes, 12);
  return Buffer.from(bytes).toString('base64url');
}
