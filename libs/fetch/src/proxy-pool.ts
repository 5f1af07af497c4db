/**
 * A static, per-country pool of forward proxies parsed from configuration, rotated round-robin. The same
 * ProxyProvider abstraction serves the HTTP worker and the headful browser worker. Credentials are split out of the
 * proxy URL into ProxyInfo.username/password so `server` is safe to log.
 */
import { ErrorCode, TrawlError, isCountryCode, type ProxyInfo, type ProxyProvider } from '#contracts';

/** The country key that serves every country without proxies of its own. */
export const ANY_COUNTRY = '*';

interface ProxyEntry {
  server: string;
  username?: string;
  password?: string;
}

const PROXY_SCHEMES = new Set(['http:', 'https:']);

export class StaticProxyPool implements ProxyProvider {
  private readonly cursors = new Map<string, number>();

  private constructor(private readonly byCountry: ReadonlyMap<string, readonly ProxyEntry[]>) {}

  /**
   * Parses `us=http://user:pass@127.0.0.1:8001|http://127.0.0.1:8002,de=http://127.0.0.1:8003,*=http://…`.
   * Countries are ISO 3166-1 alpha-2 (any case) or `*`. An empty spec is an empty pool. Errors never echo the URL,
   * which may hold credentials.
   */
  static parse(spec: string): StaticProxyPool {
    const byCountry = new Map<string, ProxyEntry[]>();
    for (const [index, group] of spec.split(',').entries()) {
      if (group.trim() === '') continue;
      const eq = group.indexOf('=');
      if (eq === -1) throw new Error(`Proxy pool entry ${index + 1} has no "country=" prefix`);
      const country = group.slice(0, eq).trim().toLowerCase();
      if (country !== ANY_COUNTRY && !isCountryCode(country)) {
        throw new Error(`Proxy pool entry ${index + 1}: "${country.slice(0, 10)}" is not an ISO 3166-1 alpha-2 country code`);
      }
      const entries = byCountry.get(country) ?? [];
      for (const raw of group.slice(eq + 1).split('|')) {
        if (raw.trim() === '') continue;
        entries.push(parseProxyUrl(raw.trim(), `entry ${index + 1} (${country})`));
      }
      if (entries.length > 0) byCountry.set(country, entries);
    }
    return new StaticProxyPool(byCountry);
  }

  static fromProxies(proxies: readonly ProxyInfo[]): StaticProxyPool {
    const byCountry = new Map<string, ProxyEntry[]>();
    for (const { country, server, username, password } of proxies) {
      const key = country.toLowerCase();
      byCountry.set(key, [...(byCountry.get(key) ?? []), { server, username, password }]);
    }
    return new StaticProxyPool(byCountry);
  }

  next(country: string): ProxyInfo | null {
    const wanted = country.toLowerCase();
    const key = this.byCountry.has(wanted) ? wanted : ANY_COUNTRY;
    const entries = this.byCountry.get(key);
    if (!entries) return null;
    const cursor = this.cursors.get(key) ?? 0;
    this.cursors.set(key, (cursor + 1) % entries.length);
    const entry = entries[cursor];
    const info: ProxyInfo = { server: entry.server, country: wanted };
    if (entry.username !== undefined) info.username = entry.username;
    if (entry.password !== undefined) info.password = entry.password;
    return info;
  }

  /** Countries with proxies of their own (sorted; `*` is not a country — see servesAnyCountry). */
  countries(): string[] {
    return [...this.byCountry.keys()].filter((c) => c !== ANY_COUNTRY).sort();
  }

  /** True when a `*` entry serves countries that have no proxies of their own. */
  servesAnyCountry(): boolean {
    return this.byCountry.has(ANY_COUNTRY);
  }

  /** The proxies configured for exactly `country` (or `*`), in order, credentials included: for pools built on this one. */
  entries(country: string): ProxyInfo[] {
    const key = country.toLowerCase();
    return (this.byCountry.get(key) ?? []).map((e) => ({ ...e, country: key }));
  }

  /** Every proxy server in the pool, credentials removed (for health checks and logs). */
  servers(): string[] {
    return [...this.byCountry.values()].flatMap((entries) => entries.map((e) => e.server));
  }
}

function parseProxyUrl(raw: string, where: string): ProxyEntry {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(`Proxy pool ${where}: not a valid proxy URL`);
  }
  if (!PROXY_SCHEMES.has(url.protocol)) throw new Error(`Proxy pool ${where}: the scheme must be http or https`);
  const entry: ProxyEntry = { server: `${url.protocol}//${url.host}` };
  if (url.username !== '') entry.username = decodeURIComponent(url.username);
  if (url.password !== '') entry.password = decodeURIComponent(url.password);
  return entry;
}

/**
 * The next proxy for a requested geolocation, or PROXY_UNAVAILABLE — the per-URL error for a country the operator
 * has not configured (a retry cannot fix it, so it is permanent).
 */
export function proxyForCountry(provider: ProxyProvider, country: string): ProxyInfo {
  const proxy = provider.next(country.toLowerCase());
  if (proxy === null) {
    throw new TrawlError(
      ErrorCode.PROXY_UNAVAILABLE,
      `No proxy is configured for geolocation "${country.slice(0, 10).toLowerCase()}"`,
      'permanent',
    );
  }
  return proxy;
}

/** A proxy URL fit for logs: `http://user:pass@host:8000` → `http://***@host:8000`; never echoes unparseable input. */
export function redactProxy(server: string): string {
  let url: URL;
  try {
    url = new URL(server);
  } catch {
    return '[invalid proxy url]';
  }
  const auth = url.username !== '' || url.password !== '' ? '***@' : '';
  return `${url.protocol}//${auth}${url.host}`;
}
