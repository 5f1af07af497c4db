/** The one method every engine implements: fetch (or render) a page and hand back its HTML. */
import type { DeviceKind, FetchedPage, PageAction, ProxyInfo } from '#contracts';

export type { FetchedPage };
import type { EngineRow } from '#contracts';

export interface PageRequest {
  url: string;
  /** Budget for this fetch: connecting, redirects, rendering, capture. */
  timeoutMs: number;
  device: DeviceKind;
  acceptLanguage: string;
  proxy: ProxyInfo | null;
  /** Extra request headers (search-engine upstreams send their own). */
  headers?: Record<string, string>;
  screenshot?: false | 'viewport' | 'full';
  /** Browser engines: a wait after the page settled, before it is captured. */
  waitForMs?: number;
  /** Browser engines: actions run on the page after the wait, before it is captured. */
  actions?: PageAction[];
  /** Browser engines: the page's locale and timezone (the headful engine matches them to the proxy's country). */
  locale?: string;
  timezoneId?: string;
  /**
   * `crawl`: a user's URL, under the SSRF guard as configured. `upstream`: an operator-configured search engine,
   * which may sit on a private network (a self-hosted SearXNG); metadata and link-local addresses stay refused.
   */
  target: 'crawl' | 'upstream';
  /** Browser engines: jobs with the same key (the account) may share a reset browser context; others never do. */
  isolationKey?: string;
  /** An upstream that checks TLS fingerprints: fetch with a browser's handshake (the render path has one anyway). */
  browserTls?: boolean;
  /** Default GET. POST (a search engine's form, e.g. DuckDuckGo) sends `body`; engines that render ignore both. */
  method?: 'GET' | 'POST';
  body?: string;
  /** Plain HTTP only: any content type, the undecoded bytes in `FetchedPage.body` (robots.txt, sitemaps). */
  raw?: boolean;
  /** Plain HTTP only: false answers a redirect (its target in `FetchedPage.location`) instead of following it. */
  followRedirects?: boolean;
}


export interface PageEngine {
  readonly row: EngineRow;
  /** Expected outcomes are values; failures are TrawlErrors (transient ones are retried by the queue). */
  fetchPage(request: PageRequest): Promise<FetchedPage>;
  close(): Promise<void>;
}
