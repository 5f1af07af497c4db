/**
 * Request headers that look like one real browser on one device: the device profile's navigation headers and user
 * agent from libs/contracts, plus an Accept-Language that matches the proxy's country when geolocated.
 */
import {
  DEVICE_PROFILES,
  ErrorCode,
  TrawlError,
  acceptLanguage as acceptLanguageFor,
  isCountryCode,
  primaryLanguage,
  type DeviceKind,
} from '#contracts';

export const DEFAULT_ACCEPT_LANGUAGE = 'en-US,en;q=0.9';

/** Accept-Language for a geolocated fetch: `de` → `de-DE,de;q=0.9,en;q=0.8`; no or unknown country → en-US. */
export function acceptLanguageForCountry(country: string | undefined): string {
  if (!country || !isCountryCode(country)) return DEFAULT_ACCEPT_LANGUAGE;
  return acceptLanguageFor(primaryLanguage(country), country);
}

/** Headers that identify the client or carry its credentials: dropped when a redirect leaves the origin. */
const ORIGIN_BOUND_HEADERS = new Set(['authorization', 'cookie', 'proxy-authorization']);

/** Base header sets by device and Accept-Language: a few dozen combinations at most, shared read-only. */
const baseHeaders = new Map<string, Readonly<Record<string, string>>>();
const MAX_CACHED_HEADER_SETS = 512;

/**
 * The request headers for a device and Accept-Language plus the caller's extras. Without extras the result is a
 * shared read-only object (undici never mutates request headers): no per-request copy on the hot path.
 */
export function buildRequestHeaders(
  device: DeviceKind,
  acceptLanguage: string,
  extra?: Record<string, string>,
): Readonly<Record<string, string>> {
  const key = `${device}\n${acceptLanguage}`;
  let base = baseHeaders.get(key);
  if (base === undefined) {
    const profile = DEVICE_PROFILES[device];
    if (profile === undefined) {
      throw new TrawlError(ErrorCode.INVALID_PARAMETER, `Unknown device "${String(device).slice(0, 20)}"`, 'permanent');
    }
    base = Object.freeze({ ...profile.headers, 'user-agent': profile.userAgent, 'accept-language': acceptLanguage });
    if (baseHeaders.size < MAX_CACHED_HEADER_SETS) baseHeaders.set(key, base);
  }
  if (!extra) return base;
  const headers: Record<string, string> = { ...base };
  for (const name of Object.keys(extra)) {
    const lower = name.toLowerCase();
    // Proxy credentials come from ProxyInfo only (a caller's header would reach the target); Host follows the URL.
    if (lower === 'proxy-authorization' || lower === 'host') continue;
    headers[lower] = extra[name];
  }
  return headers;
}

/** The headers to send after a redirect to another origin: without the caller's cookies and authorization. */
export function crossOriginHeaders(headers: Readonly<Record<string, string>>): Readonly<Record<string, string>> {
  let copy: Record<string, string> | null = null;
  for (const name of ORIGIN_BOUND_HEADERS) {
    if (name in headers) {
      copy ??= { ...headers };
      delete copy[name];
    }
  }
  return copy ?? headers;
}
