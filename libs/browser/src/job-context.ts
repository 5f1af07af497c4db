/**
 * The browser state a render job runs in: a guard proxy, a BrowserContext routed through it, and the job's page.
 * It can be opened ahead of time as a warm spare (context and renderer start-up is the largest fixed cost of a
 * job), because everything job-specific — SSRF policy, upstream proxy, language, resource blocking — is applied by
 * `prepare()` just before navigation.
 *
 * A context may serve several jobs of the same isolation key (the account) one after another: `reset()` between
 * them closes the page, deletes every cookie and the storage of every origin the page touched, unbinds the guard
 * (which drops every connection Chromium holds through it, so no tunnel admitted under one job's policy serves the
 * next) and opens a new page. The HTTP cache is kept: it is the account's own. Creating a context per job was
 * measured as the largest share of Chromium CPU per page (bench/browser/render-factors.ts); a context is never
 * shared between isolation keys.
 */
import type { Browser, BrowserContext, CDPSession, Page } from 'playwright-core';
import { ErrorCode, TrawlError, type DeviceProfile } from '#contracts';
import { parseContentEncoding } from '#fetch';
import { applyUserAgentOverride, contextDeviceOptions } from './device-emulation.js';
import { GuardProxy } from './guard-proxy.js';
import type { HostPolicy } from './host-policy.js';
import { NetworkActivity } from './network-activity.js';
import { fromGuardFailure, renderFailed, type OutOfMemory } from './render-errors.js';
import { ResourceBlocking } from './resource-blocking.js';
import type { ProxyInfo } from '#contracts';

/** How long closing a context or a page may take before the browser is considered wedged. */
const CLOSE_CAP_MS = 5_000;

/** What a job needs from the pool's view of its browser. */
export interface BrowserLease {
  browser: Browser;
  /** Rejects (never resolves) when the browser disconnects. */
  gone: Promise<never>;
  isGone(): boolean;
  onPageCrash(): void;
  /** A context could not be closed in time: the browser should be replaced. */
  markWedged(): void;
  /** Whether a failed job's page (when it crashed) or browser died of memory. */
  outOfMemory(pageCrashed: boolean): Promise<OutOfMemory | undefined>;
}

export interface JobSettings {
  policy: HostPolicy;
  proxy: ProxyInfo | null;
  device: DeviceProfile;
  acceptLanguage: string;
  blockResources: boolean;
  locale?: string;
  timezoneId?: string;
  /** HTTP redirects the main document may follow (CRAWL_MAX_REDIRECTS); Chromium's own cap is 19. */
  maxRedirects: number;
  /** Decoded bytes one response may deliver (CRAWL_MAX_BYTES, as for plain HTTP). */
  maxResponseBytes: number;
  /** Decoded bytes all of the job's responses may deliver together (RENDER_MAX_JOB_BYTES). */
  maxJobBytes: number;
}

/** What a render job needs of the page it runs in: a JobContext of its own, or a tab of a SharedContext. */
export interface RenderSurface {
  readonly guard: GuardProxy;
  readonly page: Page;
  /** The job's own CDP session to the page. */
  readonly session: CDPSession;
  /** CDP id of the page's main frame. */
  readonly mainFrameId: string;
  readonly activity: NetworkActivity;
  readonly crashed: Promise<never>;
  readonly capped: Promise<never>;
  readonly pageCrashed: boolean;
  readonly usable: boolean;
  lastNavigationHost: string;
  prepare(job: JobSettings): Promise<void>;
  close(lease: BrowserLease): Promise<void>;
}

/** One job's page in the context, with what is tracked about it. */
export class JobTab {
  pageCrashed = false;
  /** Host of the latest main-frame request (redirect hops included), to attribute guard failures. */
  lastNavigationHost = '';
  /** Origins the page sent requests to: the storage `reset()` clears. */
  readonly origins = new Set<string>();
  /** Rejects when the page's renderer crashes. */
  readonly crashed: Promise<never>;
  /** Rejects when the page exceeds one of the current job's limits (redirects of the main document, bytes). */
  capped!: Promise<never>;
  /** Infinity until `prepare()`: a warm spare follows nothing of its own. */
  maxRedirects = Number.POSITIVE_INFINITY;
  readonly activity: NetworkActivity;
  private rejectCapped: (error: Error) => void = () => undefined;
  private readonly blocking: ResourceBlocking;
  private countingBytes = false;
  /** Whether the last job set a locale or time zone override, which the next job in this page must undo. */
  private localeSet = false;
  private timezoneSet = false;
  private maxResponseBytes = Number.POSITIVE_INFINITY;
  private maxJobBytes = Number.POSITIVE_INFINITY;
  /** Language and device whose overrides the page has now (JSON), or null before the first job. */
  private identity: string | null = null;
  /** Redirect hops of the main frame's current navigation, by CDP request id (a redirect keeps the id). */
  private readonly navigationHops = new Map<string, number>();
  /** Decoded bytes received so far, per CDP request id (while it loads) and for the whole job. */
  private readonly responseBytes = new Map<string, number>();
  private jobBytes = 0;

  constructor(
    readonly page: Page,
    readonly session: CDPSession,
    lease: BrowserLease,
    /** CDP id of the page's main frame (its target's id; it stays the same across navigations). */
    readonly mainFrameId: string,
  ) {
    let rejectCrash: (error: Error) => void = () => undefined;
    this.crashed = new Promise<never>((_, reject) => {
      rejectCrash = reject;
    });
    this.crashed.catch(() => undefined);
    this.renewLimits();
    this.activity = new NetworkActivity(session);
    this.blocking = new ResourceBlocking(session);
    page.once('crash', () => {
      this.pageCrashed = true;
      lease.onPageCrash();
      rejectCrash(renderFailed('the page crashed'));
    });
    // The job's own CDP session, not Playwright's request events (see NetworkActivity for why).
    session.on('Network.requestWillBeSent', (event) => {
      let url: URL;
      try {
        url = new URL(event.request.url);
      } catch {
        return;
      }
      if (url.protocol === 'http:' || url.protocol === 'https:') this.origins.add(url.origin);
      // The main frame's navigation (a document request that starts its own load), each redirect hop included.
      if (event.type === 'Document' && event.requestId === event.loaderId && event.frameId === mainFrameId) {
        this.lastNavigationHost = url.hostname;
        const hops = event.redirectResponse ? (this.navigationHops.get(event.requestId) ?? 0) + 1 : 0;
        if (!event.redirectResponse) this.navigationHops.clear();
        this.navigationHops.set(event.requestId, hops);
        if (hops > this.maxRedirects) {
          this.rejectCapped(new TrawlError(ErrorCode.TOO_MANY_REDIRECTS, `More than ${this.maxRedirects} redirects`, 'permanent'));
        }
      }
    });
  }
  /**
   * Counts the decoded bytes Chromium receives for this page (CDP Network.dataReceived, which reports them as they
   * arrive, so a 50 MB body or a gzip bomb is stopped after the cap, not after it was read whole) and fails the job
   * past a cap.
   */
  async limitReceivedBytes(maxResponseBytes: number, maxJobBytes: number): Promise<void> {
    this.maxResponseBytes = maxResponseBytes;
    this.maxJobBytes = maxJobBytes;
    this.responseBytes.clear();
    this.jobBytes = 0;
    if (this.countingBytes) return;
    this.countingBytes = true;
    this.session.on('Network.dataReceived', ({ requestId, dataLength, encodedDataLength }) => {
      // Decoded length catches compression bombs; encoded covers bodies Chromium does not decode.
      const received = Math.max(dataLength, encodedDataLength);
      const forResponse = (this.responseBytes.get(requestId) ?? 0) + received;
      this.responseBytes.set(requestId, forResponse);
      this.jobBytes += received;
      if (forResponse > this.maxResponseBytes) {
        this.rejectCapped(new TrawlError(ErrorCode.TOO_LARGE, `A response of the page exceeds the ${this.maxResponseBytes}-byte limit`, 'permanent'));
      } else if (this.jobBytes > this.maxJobBytes) {
        this.rejectCapped(new TrawlError(ErrorCode.TOO_LARGE, `The page's responses exceed the ${this.maxJobBytes}-byte limit together`, 'permanent'));
      }
    });
    // A response that declares more than the cap (an unencoded Content-Length) fails at its headers, as the plain
    // fetch refuses it: the renderer may be slow to drain a huge body, so counting alone can outlast the URL budget.
    this.session.on('Network.responseReceived', ({ response }) => {
      const declared = declaredLength(response.headers);
      if (declared > this.maxResponseBytes) {
        this.rejectCapped(new TrawlError(ErrorCode.TOO_LARGE, `A response of the page declares ${declared} bytes, more than the ${this.maxResponseBytes}-byte limit`, 'permanent'));
      }
    });
    const done = ({ requestId }: { requestId: string }) => void this.responseBytes.delete(requestId);
    this.session.on('Network.loadingFinished', done);
    this.session.on('Network.loadingFailed', done);
    // No body buffers: this session never asks for a response body, and by default each session with the Network
    // domain on keeps copies of the page's response bodies in the renderer (Playwright's own session still does).
    await this.session.send('Network.enable', { maxTotalBufferSize: 0, maxResourceBufferSize: 0 });
  }

  /**
   * Readies a page that served an earlier job (a reused tab) for the next one: fresh limits and network tracking.
   * The next `prepare()` re-applies every job setting.
   */
  renew(): void {
    this.renewLimits();
    this.maxRedirects = Number.POSITIVE_INFINITY;
    this.activity.reset();
  }

  private renewLimits(): void {
    this.capped = new Promise<never>((_, reject) => {
      this.rejectCapped = reject;
    });
    this.capped.catch(() => undefined);
  }

  /** Applies everything job-specific to this page before navigation (the guard's policy is the context's). */
  async prepare(job: JobSettings): Promise<void> {
    this.lastNavigationHost = '';
    this.maxRedirects = job.maxRedirects;
    await this.limitReceivedBytes(job.maxResponseBytes, job.maxJobBytes);
    const session = this.session;
    // Per page, so that tabs of a shared context each send their own job's language. A kept tab whose previous job
    // had the same language and device keeps both overrides: they last until changed.
    const identity = JSON.stringify([job.acceptLanguage, job.device]);
    if (identity !== this.identity) {
      this.identity = null;
      await this.page.setExtraHTTPHeaders({ 'accept-language': job.acceptLanguage });
      await applyUserAgentOverride(session, job.device, job.acceptLanguage);
      this.identity = identity;
    }
    // Per job over CDP (not at context creation), so a warm context can still serve any country.
    // An override of an earlier job in this page is cleared (no locale / an empty zone restore the defaults).
    if (job.locale || this.localeSet) await session.send('Emulation.setLocaleOverride', job.locale ? { locale: job.locale } : {});
    this.localeSet = Boolean(job.locale);
    if (job.timezoneId || this.timezoneSet) await session.send('Emulation.setTimezoneOverride', { timezoneId: job.timezoneId ?? '' });
    this.timezoneSet = Boolean(job.timezoneId);
    await this.blocking.set(job.blockResources);
  }
}

/** Each step of opening a context or tab also ends when the browser dies, so a half-open one never outlives it. */
function step<T>(lease: BrowserLease, work: Promise<T>): Promise<T> {
  work.catch(() => undefined);
  return Promise.race([work, lease.gone]);
}

/** A context routed through its guard proxy, with the device's emulation. */
export function openGuardedContext(lease: BrowserLease, device: DeviceProfile, guard: GuardProxy): Promise<BrowserContext> {
  return step(lease, lease.browser.newContext({
    ...contextDeviceOptions(device),
    // Loopback must go through the guard too ('<-loopback>' removes Chromium's implicit bypass).
    proxy: { server: guard.url, bypass: '<-loopback>' },
    serviceWorkers: 'block',
    acceptDownloads: false,
    ignoreHTTPSErrors: true,
  }));
}

/** A page of `context` with its CDP session, as a JobTab. */
export async function openTab(lease: BrowserLease, context: BrowserContext): Promise<JobTab> {
  const page = await step(lease, context.newPage());
  const session = await step(lease, context.newCDPSession(page));
  const { frameTree } = await step(lease, session.send('Page.getFrameTree'));
  return new JobTab(page, session, lease, frameTree.frame.id);
}

/** Closes a context (bounded: a context that will not close marks the browser wedged) and then its guard. */
export async function closeGuardedContext(lease: BrowserLease, context: BrowserContext, guard: GuardProxy): Promise<void> {
  await closeWithinCap(lease, () => context.close());
  await guard.close();
}

/**
 * Closes a context or page unless the browser is gone, waiting at most CLOSE_CAP_MS: one that will not close means
 * a wedged renderer, and the browser is marked for replacement.
 */
export async function closeWithinCap(lease: BrowserLease, close: () => Promise<unknown>): Promise<void> {
  if (lease.isGone()) return;
  let timer: NodeJS.Timeout | undefined;
  const closed = await Promise.race([
    close().then(
      () => true,
      () => true,
    ),
    new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), CLOSE_CAP_MS);
    }),
  ]);
  clearTimeout(timer);
  if (!closed) lease.markWedged();
}

/** What a job reads of its page, from the JobTab it currently runs in (shared by JobContext and SharedTab). */
export abstract class TabView {
  protected abstract get tab(): JobTab;

  get page(): Page {
    return this.tab.page;
  }

  get session(): CDPSession {
    return this.tab.session;
  }

  get mainFrameId(): string {
    return this.tab.mainFrameId;
  }

  get activity(): NetworkActivity {
    return this.tab.activity;
  }

  /** Rejects when the current page's renderer crashes. */
  get crashed(): Promise<never> {
    return this.tab.crashed;
  }

  /** Rejects when the current page exceeds one of its job's limits. */
  get capped(): Promise<never> {
    return this.tab.capped;
  }

  get pageCrashed(): boolean {
    return this.tab.pageCrashed;
  }

  get lastNavigationHost(): string {
    return this.tab.lastNavigationHost;
  }

  set lastNavigationHost(host: string) {
    this.tab.lastNavigationHost = host;
  }
}

export class JobContext extends TabView implements RenderSurface {
  /** Jobs this context has served (including the current one). */
  jobs = 0;
  private closed = false;
  /** Pages this object is opening itself (any other page of the context is a popup and is closed). */
  private opening = 0;

  private constructor(
    readonly device: DeviceProfile,
    readonly guard: GuardProxy,
    private readonly context: BrowserContext,
    private current: JobTab,
  ) {
    super();
    // Popups are not part of the job; close them so they cannot hold resources.
    context.on('page', (other) => {
      if (this.opening === 0 && other !== this.tab.page) other.close().catch(() => undefined);
    });
  }

  static async open(lease: BrowserLease, device: DeviceProfile): Promise<JobContext> {
    const guard = await GuardProxy.start();
    let context: BrowserContext | undefined;
    try {
      context = await openGuardedContext(lease, device, guard);
      return new JobContext(device, guard, context, await openTab(lease, context));
    } catch (error) {
      await guard.close();
      if (context && !lease.isGone()) context.close().catch(() => undefined);
      throw error;
    }
  }

  protected get tab(): JobTab {
    return this.current;
  }

  /** Still fit to serve a job (a warm spare whose renderer died meanwhile is not). */
  get usable(): boolean {
    return !this.closed && !this.tab.pageCrashed && !this.tab.page.isClosed();
  }

  /** Applies everything job-specific before navigation. */
  async prepare(job: JobSettings): Promise<void> {
    this.jobs++;
    try {
      this.guard.assign(job.policy, job.proxy);
    } catch (error) {
      throw fromGuardFailure({ kind: 'proxy', detail: (error as Error).message });
    }
    await this.tab.prepare(job);
  }

  /**
   * Makes the context fit for the next job of the same isolation key: no page, cookie, origin storage or
   * connection of this job survives it. Throws when any step fails (the caller then closes the context).
   */
  async reset(lease: BrowserLease): Promise<void> {
    const old = this.tab;
    // Cookies are per context; the rest of an origin's storage (localStorage, IndexedDB, Cache Storage, service
    // worker registrations, file systems) is cleared for each origin the page sent a request to — iframes and
    // subresources included, since their storage is keyed by their own origin.
    // Requests of cross-site iframes are not on the page's own CDP session: their frames' origins are added here.
    for (const frame of old.page.frames()) {
      const origin = originOf(frame.url());
      if (origin) old.origins.add(origin);
    }
    for (const origin of old.origins) {
      await old.session.send('Storage.clearDataForOrigin', { origin, storageTypes: 'all' });
    }
    await old.page.close();
    await this.context.clearCookies();
    this.guard.release();
    this.opening++;
    try {
      this.current = await openTab(lease, this.context);
    } finally {
      this.opening--;
    }
  }

  async close(lease: BrowserLease): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await closeGuardedContext(lease, this.context, this.guard);
  }
}

/** The http(s) origin of `href`, or null (about:blank, data:, a malformed URL). */
function originOf(href: string): string | null {
  try {
    const url = new URL(href);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : null;
  } catch {
    return null;
  }
}

/** The body length a response declares without a content coding (a coded body's decoded size is unknown); 0 if none. */
function declaredLength(headers: Record<string, unknown>): number {
  // CDP gives the headers as the server spelled them.
  const header = (name: string): string | undefined => {
    for (const [key, value] of Object.entries(headers)) if (key.toLowerCase() === name) return String(value);
    return undefined;
  };
  return parseContentEncoding(header('content-encoding')).length === 0 ? Number(header('content-length')) || 0 : 0;
}
