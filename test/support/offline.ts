/**
 * No test reaches the internet, by construction: every upstream of a test Trawl is a closed loopback port unless the
 * test names a fixture, and host names can be answered by a resolver the test controls instead of the system's.
 */
import type { DnsResolver } from '#fetch';

/** Port 9 (discard) on loopback: nothing listens there, a connection is refused at once. */
export const CLOSED_UPSTREAM = 'http://127.0.0.1:9';

/** Every search, maps and OSM upstream of the configuration (libs/config), pointed at the closed port. */
export const OFFLINE_UPSTREAMS = {
  GOOGLE_BASE_URL: CLOSED_UPSTREAM,
  BING_BASE_URL: CLOSED_UPSTREAM,
  DUCKDUCKGO_BASE_URL: CLOSED_UPSTREAM,
  NOMINATIM_BASE_URL: CLOSED_UPSTREAM,
  OVERPASS_BASE_URL: CLOSED_UPSTREAM,
} as const;

/** A resolver answering from `answers` (name → IPv4 address); any other name fails as ENOTFOUND, as a real one would. */
export function tableResolver(answers: Record<string, string>): DnsResolver & { asked: string[] } {
  const asked: string[] = [];
  const resolve = async (hostname: string) => {
    asked.push(hostname);
    const address = answers[hostname.toLowerCase().replace(/\.$/, '')];
    if (address) return [{ address, family: address.includes(':') ? 6 : 4 }];
    throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
  };
  return Object.assign(resolve, { asked });
}
