import { isCountryCode } from './countries.js';

/** A forward proxy (HTTP/HTTPS CONNECT) that a fetch or a browser context is routed through. */
export interface ProxyInfo {
  /** e.g. `http://127.0.0.1:8000`; never logged with credentials. */
  server: string;
  username?: string;
  password?: string;
  /** ISO 3166-1 alpha-2, lower case. */
  country: string;
}

/** Hands out proxies for a country, rotating among those configured. */
export interface ProxyProvider {
  /** The next proxy for `country` (lower-case alpha-2), or null when none is configured for it. */
  next(country: string): ProxyInfo | null;
  /** Countries that have at least one proxy. */
  countries(): string[];
}

/** The country key of a proxy list that serves every country without proxies of its own. */
export const ANY_COUNTRY = '*';

/** One forward proxy of a configured list, its credentials split out of the URL so `server` is safe to log. */
export interface ProxyEntry {
  server: string;
  username?: string;
  password?: string;
}

const PROXY_SCHEMES = new Set(['http:', 'https:']);

/**
 * Parses a proxy list (`PROXIES`, `RESIDENTIAL_PROXIES`): `us=http://user:pass@127.0.0.1:8001|http://127.0.0.1:8002,
 * de=http://127.0.0.1:8003,*=http://…`. Countries are ISO 3166-1 alpha-2 (any case) or `*`; an empty spec is an empty
 * list. Throws on a malformed entry, naming the entry but never echoing its URL (it may hold credentials). The config
 * schema runs it at boot, so a process never starts with a list it cannot use.
 */
export function parseProxyList(spec: string): Map<string, ProxyEntry[]> {
  const byCountry = new Map<string, ProxyEntry[]>();
  for (const [index, group] of spec.split(',').entries()) {
    if (group.trim() === '') continue;
    const eq = group.indexOf('=');
    if (eq === -1) throw new Error(`entry ${index + 1} has no "country=" prefix`);
    const country = group.slice(0, eq).trim().toLowerCase();
    if (country !== ANY_COUNTRY && !isCountryCode(country)) {
      throw new Error(`entry ${index + 1}: "${country.slice(0, 10)}" is not an ISO 3166-1 alpha-2 country code`);
    }
    const entries = byCountry.get(country) ?? [];
    for (const raw of group.slice(eq + 1).split('|')) {
      if (raw.trim() === '') continue;
      entries.push(parseProxyUrl(raw.trim(), `entry ${index + 1} (${country})`));
    }
    if (entries.length > 0) byCountry.set(country, entries);
  }
  return byCountry;
}

function parseProxyUrl(raw: string, where: string): ProxyEntry {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(`${where}: not a valid proxy URL`);
  }
  if (!PROXY_SCHEMES.has(url.protocol)) throw new Error(`${where}: the scheme must be http or https`);
  const entry: ProxyEntry = { server: `${url.protocol}//${url.host}` };
  if (url.username !== '') entry.username = decodeURIComponent(url.username);
  if (url.password !== '') entry.password = decodeURIComponent(url.password);
  return entry;
}

/** Which countries a proxy configuration serves: the one answer the gateway (validation) and the workers (leasing) share. */
export interface ProxyCoverage {
  serves(country: string): boolean;
  /** The configured countries, for messages ("any country" when a `*` entry or a provider template serves every one). */
  describe(): string;
}

/** The coverage of the residential proxies: per-country lists (`RESIDENTIAL_PROXIES`) and/or a provider template. */
export function residentialCoverage(lists: string, template?: string): ProxyCoverage {
  const countries = parseProxyList(lists);
  const everyCountry = template !== undefined || countries.has(ANY_COUNTRY);
  return {
    serves: (country) => {
      const c = country.toLowerCase();
      return isCountryCode(c) && (everyCountry || countries.has(c));
    },
    describe: () => {
      if (everyCountry) return 'any country';
      const named = [...countries.keys()].sort();
      return named.length > 0 ? named.join(', ') : 'none (set RESIDENTIAL_PROXIES or RESIDENTIAL_PROXY_URL)';
    },
  };
}
