import { isCountryCode } from './countries.js';
import { ErrorCode } from './error-codes.js';
import { TrawlError } from './trawl-error.js';

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
  return proxyCoverage(lists, template, 'set RESIDENTIAL_PROXIES or RESIDENTIAL_PROXY_URL');
}

/** The coverage of a proxy list (`PROXIES` or `RESIDENTIAL_PROXIES` syntax) and/or a provider template that serves every country. */
export function proxyCoverage(lists: string, template?: string, howToAdd = 'set PROXIES'): ProxyCoverage {
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
      return named.length > 0 ? named.join(', ') : `none (${howToAdd})`;
    },
  };
}

/**
 * Where a call's traffic leaves from: through a proxy of `country`, or direct (the machine's own address). Trawl's
 * `egress` field (`/search` with `geolocation`, each `/headful-browser` result) and the request log's `detail.egress`.
 */
export interface Egress {
  via: 'proxy' | 'direct';
  /** With `via: 'proxy'`: the country the proxy was asked for (lower-case alpha-2). */
  country?: string;
}

/**
 * The one rule for a country on every endpoint (`/crawl` and `/search` `geolocation`, `/headful-browser` `country`,
 * their MCP tools): a country the caller **named** is a promise about where the request comes from — through a proxy
 * that serves it, or not at all: PROXY_UNAVAILABLE, nothing fetched from elsewhere and nothing charged (never a 400:
 * the request is well-formed, the deployment lacks the proxy). A country **chosen for the caller** (a default, or
 * `random` with no proxy to pick from) goes through a proxy when one serves it, else direct — and says so. `/crawl`'s
 * workers apply the same rule per URL (proxyFor with `required`), where a failed URL is the contract's own outcome.
 */
export function egressFor(coverage: ProxyCoverage, country: string, named: boolean, what = 'proxy'): Egress {
  if (coverage.serves(country)) return { via: 'proxy', country: country.toLowerCase() };
  if (!named) return { via: 'direct' };
  throw new TrawlError(
    ErrorCode.PROXY_UNAVAILABLE,
    `No ${what} serves country "${country.slice(0, 10)}" on this server (configured: ${coverage.describe()}); nothing was fetched or charged`,
    'permanent',
  );
}
