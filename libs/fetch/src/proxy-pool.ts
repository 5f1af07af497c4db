/**
 * A static, per-country pool of forward proxies parsed from configuration, rotated round-robin. The same
 * ProxyProvider abstraction serves the HTTP worker and the headful browser worker. Credentials are split out of the
 * proxy URL into ProxyInfo.username/password so `server` is safe to log.
 */
import { ANY_COUNTRY, ErrorCode, TrawlError, parseProxyList, type ProxyEntry, type ProxyInfo, type ProxyProvider } from '#contracts';

export { ANY_COUNTRY };

export class StaticProxyPool implements ProxyProvider {
  private readonly cursors = new Map<string, number>();

  private constructor(private readonly byCountry: ReadonlyMap<string, readonly ProxyEntry[]>) {}

  /** A pool over a proxy list (`PROXIES` syntax, see parseProxyList); throws on a malformed one. */
  static parse(spec: string): StaticProxyPool {
    try {
      return new StaticProxyPool(parseProxyList(spec));
    } catch (error) {
      throw new Error(`Proxy pool ${(error as Error).message}`, { cause: error });
    }
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

/**
 * The one rule for which proxy a fetch goes through. With a `country` the caller asked for (a `geolocation`):
 * a proxy of that country, else the pool's `*` entry, else PROXY_UNAVAILABLE — the permanent per-URL error for a
 * country the operator has not configured. With a country that is only a hint (`required: false`, a search's market):
 * the same, else direct. Without a country: a `*` proxy, else direct.
 */
export function proxyFor(pool: ProxyProvider | null, country: string | null, options: { required?: boolean } = {}): ProxyInfo | null {
  const wanted = country?.toLowerCase() ?? ANY_COUNTRY;
  const proxy = pool?.next(wanted) ?? null;
  if (proxy === null && options.required && country !== null) {
    throw new TrawlError(ErrorCode.PROXY_UNAVAILABLE, `No proxy is configured for geolocation "${wanted.slice(0, 10)}"`, 'permanent');
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
