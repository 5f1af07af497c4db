/**
 * The public shapes of the render pool: what a job asks for, what it returns, and how the pool is configured.
 * worker-render (headless) and worker-headful (headed under Xvfb) both program against `PageRenderer`.
 */
import type { DeviceKind, PageAction, PageActionsOutcome, ProxyInfo } from '#contracts';
import type { AddressKind, DnsResolver } from '#fetch';

export interface RenderOptions {
  url: string;
  /** The whole job budget: waiting for a slot, navigation, settling, capture. */
  timeoutMs: number;
  /** Default 'desktop'. */
  device?: DeviceKind;
  /** Sent as Accept-Language and exposed as navigator.languages; default `en-US,en;q=0.9`. */
  acceptLanguage?: string;
  /** Upstream forward proxy for this job (geolocation); null/undefined = direct. Only http:// proxies. */
  proxy?: ProxyInfo | null;
  screenshot?: false | 'viewport' | 'full';
  /** A wait after the page settled, before it is captured (within the budget, less the capture's reserve). */
  waitMs?: number;
  /**
   * Actions run on the page after the wait, before it is captured, within the same budget (see page-actions.ts);
   * the HTML and the screenshot are of the page as they left it.
   */
  actions?: readonly PageAction[];
  /** Abort image, media and font requests. Default: true when no screenshot is asked for. */
  blockResources?: boolean;
  /** How long the network must stay quiet to count as settled. Default 500 ms. */
  networkIdleMs?: number;
  /**
   * The shorter quiet window of a page that had nothing in flight at its load event and has started no request
   * since, counted from load and lasting at least until its main thread is idle (a page that does fetch after load
   * gets the full `networkIdleMs`). Default 100 ms; capped at networkIdleMs.
   */
  loadQuietMs?: number;
  /** The longest wait for network quiet after the load event. Default 3000 ms. */
  settleCapMs?: number;
  /**
   * `device` (default): the device profile's user agent (a Windows Chrome for desktop). `browser`: the headed
   * browser's own (its real version and platform), so the user agent, client hints and the engine agree.
   */
  userAgent?: 'device' | 'browser';
  /** BCP 47 locale (navigator.language, Intl) for this job, e.g. `de-DE`; default: the browser's. */
  locale?: string;
  /** IANA timezone for this job, e.g. `Europe/Berlin`; default: the host's. */
  timezoneId?: string;
  /**
   * Who the job is for (the account id): a later job with the same key may run in the same browser context after it
   * was reset (cookies and every touched origin's storage deleted, connections dropped); jobs with different keys
   * never share one. Without a key the job gets a context of its own.
   */
  isolationKey?: string;
  /** Replaces the pool's address policy for this job (e.g. an operator-configured search upstream on a private network). */
  addressPolicy?: AddressPolicy;
}

export interface RenderTimings {
  totalMs: number;
  /** From navigation start until the response committed. */
  navigationMs: number;
  /** From commit until capture began (load + network quiet, capped). */
  settleMs: number;
  /** The part of `settleMs` after the `load` event: the wait for network quiet (0 when the page never loaded). */
  quietMs: number;
}

export interface RenderResult {
  url: string;
  finalUrl: string;
  /** HTTP status of the main document (a 404 page is a result, not an error). */
  status: number;
  html: string;
  /** Base64 PNG when a screenshot was asked for. */
  screenshot?: string;
  /** What the actions produced, when there were any. */
  actions?: PageActionsOutcome;
  /** Response headers of the main document (lower-case names), for block detection. */
  headers?: Record<string, string>;
  /** Whether the load event fired and the network went quiet before capture (false = captured at a cap). */
  loaded: boolean;
  networkQuiet: boolean;
  timings: RenderTimings;
}

export interface PageRenderer {
  render(options: RenderOptions): Promise<RenderResult>;
  close(): Promise<void>;
}

/** Decides whether an IP may be connected to; `AddressGuard` from libs/fetch satisfies it. */
export interface AddressPolicy {
  blockedKind(ip: string): AddressKind | null;
}

export interface ChromiumPoolOptions {
  executablePath: string;
  /** Concurrent jobs (one BrowserContext each). */
  maxContexts: number;
  /** Recycle the shared browser after this many jobs. */
  pagesPerBrowser: number;
  /** HTTP redirects a page's main document may follow before the job fails with TOO_MANY_REDIRECTS. Default 10. */
  maxRedirects?: number;
  /** Decoded bytes one response of a page may deliver before the job fails with TOO_LARGE. Default 10 MiB. */
  maxResponseBytes?: number;
  /** Decoded bytes all responses of a job may deliver together before it fails with TOO_LARGE. Default 50 MiB. */
  maxJobBytes?: number;
  /** Elements the loaded document may hold (and bytes its captured HTML, maxResponseBytes) before TOO_LARGE. */
  maxDomNodes?: number;
  /** Allow loopback targets (tests, local development); private networks and metadata stay refused. */
  allowPrivateAddresses: boolean;
  /** Replaces DEFAULT_CHROMIUM_ARGS when given. */
  launchArgs?: string[];
  /** Default true; the headful worker passes false and runs under Xvfb. */
  headless?: boolean;
  /** Environment for each launch (e.g. DISPLAY of a supervised Xvfb, which may change after a restart). May throw. */
  launchEnv?: () => Promise<Record<string, string>>;
  /** Playwright default switches to leave out (the headful pool drops `--enable-automation`). */
  ignoreDefaultArgs?: string[];
  /** Overrides the address policy built from `allowPrivateAddresses` (e.g. an AddressGuard with allowedKinds). */
  addressPolicy?: AddressPolicy;
  /** DNS resolver for the SSRF checks (default: the system resolver). */
  resolve?: DnsResolver;
  /**
   * Memory admission: while more than one job runs, a new job waits until free memory is at least this many MiB.
   * 0 (default) disables the check; one job is always admitted so the pool cannot stall.
   */
  minFreeMemoryMb?: number;
  /** Free memory probe in MiB (default: os.freemem, which is MemAvailable on Linux). */
  freeMemoryMb?: () => number;
  /**
   * Keep one desktop context (with its page and renderer) open ahead of the next job per browser. Default true:
   * context and renderer start-up is the largest fixed cost of a job, and this takes it off the job's latency.
   */
  prewarm?: boolean;
  /**
   * Reuse a job's context for the next job with the same `isolationKey` (reset in between). Default false: in raw
   * Playwright a context per page costs ~0.3-0.6 s more Chromium CPU than a shared one, but inside the pool the
   * reset (storage clearing, a new page) has so far cost about as much as it saves (bench/browser/render-factors.ts).
   */
  reuseContexts?: boolean;
  /**
   * Run the concurrent jobs of one `isolationKey` (with the same upstream proxy and device) as tabs of one shared
   * context (see SharedContext): cookies, storage and cache are then shared among that key's jobs, never between
   * keys. Takes precedence over `reuseContexts` for jobs with a key. Default false.
   */
  shareContexts?: boolean;
  /**
   * With `shareContexts`: a tab whose job ended with a result is kept (its scripts stopped) for a couple of seconds and navigated
   * by the same key's next job instead of opening a new tab (at most `maxContexts` kept per browser). Default true.
   */
  reuseTabs?: boolean;
  /**
   * Private resident memory (anonymous + shared pages) one renderer process (one page's context) may reach, MiB, before it is killed and its job fails with
   * TOO_LARGE; also V8's heap cap (`--max-old-space-size`) unless `launchArgs` set `--js-flags`. Default 1024; 0 = off.
   */
  maxPageMemoryMb?: number;
  /** Private resident memory all of a browser's processes may reach together, MiB, before it is killed and relaunched. Default 3072; 0 = off. */
  maxBrowserMemoryMb?: number;
  /** How often a browser with jobs is sampled for the memory limits. Default 250 ms. */
  memorySampleMs?: number;
  /** Timeout for launching Chromium. Default 30 s. */
  launchTimeoutMs?: number;
}

export interface PoolStats {
  /** Browsers alive (the current one plus retired ones still finishing jobs). */
  browsers: number;
  activeContexts: number;
  /** Jobs waiting for a slot. */
  queued: number;
  /** Warm spare contexts held open (at most one per browser). */
  warmContexts: number;
  launches: number;
  /** Unplanned browser deaths plus renderer (page) crashes. */
  crashes: number;
  /** Jobs started since the pool was created. */
  jobs: number;
  /** Reset contexts kept for the next job of their isolation key. */
  idleContexts: number;
  /** Shared contexts open (one per isolation key, proxy and device in use). */
  sharedContexts: number;
  /** Jobs that ran in a reused or shared context. */
  reusedContexts: number;
  /** Jobs that ran in a tab kept from an earlier job of their key (see `reuseTabs`). */
  reusedTabs: number;
  /** Tabs kept now, waiting for their key's next job. */
  keptTabs: number;
  /** Renderers and browsers killed for going past their memory limit. */
  memoryKills: number;
  /** Highest private memory one browser (all its processes) was sampled at, MiB. */
  peakBrowserMb: number;
}
