/**
 * `GET /serp-maps` parameters (spec §4.3), validated before anything is charged, and the response (§2.3).
 *
 * Decisions the contract leaves open (libs/serp/src/maps/README.md):
 * - `q` stays required in a lookup but is not sent upstream: `placeId` / `cid` alone name the place; `q` is echoed.
 * - `placeId` and `cid` together: the lookup goes by `placeId`, and the place found must also carry that `cid`,
 *   otherwise no place (200, empty `serp_maps_results`, 30 credits: the contract charges per request and lists no 404).
 *   A lookup never answers with a different place than the one asked for.
 * - `ll` with a lookup is accepted; it only sets the map viewport of the upstream request.
 */
import { z } from 'zod';
import { parseLl } from './ll.js';
import type { LatLngZoom, Place } from './maps-place.js';

/** Google's cid is an unsigned 64-bit integer. */
const MAX_CID = (1n << 64n) - 1n;

const optionalText = (name: string, check: (value: string) => string | undefined) =>
  z
    .string()
    .optional()
    .transform((value, ctx) => {
      if (value === undefined) return undefined;
      const v = value.trim();
      if (v === '') {
        ctx.addIssue({ code: 'custom', message: `${name} must not be empty when given` });
        return z.NEVER;
      }
      const problem = check(v);
      if (problem) {
        ctx.addIssue({ code: 'custom', message: `${name} ${problem}` });
        return z.NEVER;
      }
      return v;
    });

export const serpMapsParamsSchema = z.object({
  q: z
    .string({ error: 'q is required' })
    .transform((v) => v.trim())
    .pipe(z.string().min(1, 'q is required').max(2048, 'q must be at most 2048 characters')),
  hl: optionalText('hl', (v) =>
    /^[A-Za-z]{2}(-[A-Za-z0-9]{2,8})?$/.test(v) ? undefined : 'must be an ISO 639-1 language code such as en, de or el',
  ).transform((v) => (v === undefined ? undefined : v.slice(0, 2).toLowerCase() + v.slice(2))),
  ll: z
    .string()
    .optional()
    .transform((value, ctx): { text: string; value: LatLngZoom } | undefined => {
      if (value === undefined) return undefined;
      // `@` sent raw or as %40 arrives decoded; a `+` or space in the text is malformed, not silently trimmed.
      const parsed = parseLl(value);
      if (!parsed.ok) {
        ctx.addIssue({ code: 'custom', message: parsed.error.message });
        return z.NEVER;
      }
      return { text: value, value: parsed.value };
    }),
  placeId: optionalText('placeId', (v) =>
    v.length <= 512 && /^[A-Za-z0-9_-]+$/.test(v) ? undefined : 'must be a place identifier (letters, digits, - and _)',
  ),
  cid: optionalText('cid', (v) => {
    if (!/^\d{1,20}$/.test(v)) return 'must be a decimal number (digits only)';
    const n = BigInt(v);
    return n === 0n || n > MAX_CID ? 'is out of range (1 to 18446744073709551615)' : undefined;
  }),
});

export type SerpMapsParams = z.output<typeof serpMapsParamsSchema>;

/** A place of `serp_maps_results` (§2.3); absent values are omitted. */
export type SerpMapsPlace = Place;

/** The `/serp-maps` body (§2.3). `parameters` echoes the parameters that were given (`ll` as sent). */
export interface SerpMapsResponse {
  parameters: { q: string; hl?: string; ll?: string; placeId?: string; cid?: string };
  serp_maps_results: SerpMapsPlace[];
  credits: number;
}
