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
