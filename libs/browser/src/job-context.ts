/**
 * The browser state one render job owns: a guard proxy, a BrowserContext routed through it, and its one page.
 * It can be opened ahead of time as a warm spare (context and renderer start-up is the largest fixed cost of a
 * job), because everything job-specific — SSRF policy, upstream proxy, language, resource blocking — is applied by
 * `prepare()` just before navigation. Each JobContext serves exactly one job and is then closed.
 */
import type { Browser, BrowserContext, CDPSession, Page, Request } from 'playwright-core';
import { ErrorCode, TrawlError, type DeviceProfile } from '#contracts';
import { applyUserAgentOverride, contextDeviceOptions } from './device-emulation.js';
import { GuardProxy } from './guard-proxy.js';
import type { HostPolicy } from './host-policy.js';
import { NetworkActivity } from './network-activity.js';
import { fromGuardFailure, renderFailed } from './render-errors.js';
import { blockHeavyResources } from './resource-blocking.js';
import type { ProxyInfo } from '#contracts';

/** How long closing a context may take before the browser is considered wedged. */
const CONTEXT_CLOSE_CAP_MS = 5_000;

/** What a job needs from the pool's view of its browser. */
export interface BrowserLease {
  browser: Browser;
  /** Rejects (never resolves) when the browser disconnects. */
  gone: Promise<never>;
  isGone(): boolean;
  onPageCrash(): void;
  /** A context could not be closed in time: the browser should be replaced. */
  markWedged(): void;
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

export class JobContext {
  pageCrashed = false;
  /** Host of the latest main-frame request (redirect hops included), to attribute guard failures. */
  lastNavigationHost = '';
  /** Rejects when the page's renderer crashes. */
  readonly crashed: Promise<never>;
  /** Rejects when the page exceeds one of the job's limits (redirects of the main document). */
  readonly capped: Promise<never>;
  private rejectCrash: (error: Error) => void = () => undefined;
  private rejectCapped: (error: Error) => void = () => undefined;
  /** Infinity until `prepare()`: a warm spare follows nothing of its own. */
  private maxRedirects = Number.POSITIVE_INFINITY;
  private maxResponseBytes = Number.POSITIVE_INFINITY;
  private maxJobBytes = Number.POSITIVE_INFINITY;
  /** Decoded bytes received so far, per CDP request id (while it loads) and for the whole job. */
  private readonly responseBytes = new Map<string, number>();
  private jobBytes = 0;
  private closed = false;

  private constructor(
    readonly device: DeviceProfile,
    readonly guard: GuardProxy,
    private readonly context: BrowserContext,
    readonly page: Page,
    private readonly session: CDPSession,
    readonly activity: NetworkActivity,
    lease: BrowserLease,
  ) {
    this.crashed = new Promise<never>((_, reject) => {
      this.rejectCrash = reject;
    });
    this.crashed.catch(() => undefined);
    this.capped = new Promise<never>((_, reject) => {
      this.rejectCapped = reject;
    });
    this.capped.catch(() => undefined);
    page.once('crash', () => {
      this.pageCrashed = true;
      lease.onPageCrash();
      this.rejectCrash(renderFailed('the page crashed'));
    });
    // Popups are not part of the job; close them so they cannot hold resources.
    context.on('page', (other) => {
      if (other !== page) other.close().catch(() => undefined);
    });
    page.on('request', (request) => {
      try {
        if (request.isNavigationRequest() && request.frame() === page.mainFrame()) {
          this.lastNavigationHost = new URL(request.url()).hostname;
          if (redirectHops(request) > this.maxRedirects) {
            this.rejectCapped(new TrawlError(ErrorCode.TOO_MANY_REDIRECTS, `More than ${this.maxRedirects} redirects`, 'permanent'));
          }
        }
      } catch {
        // a request without a frame (worker) is never the main navigation
      }
    });
  }

  static async open(lease: BrowserLease, device: DeviceProfile): Promise<JobContext> {
    const guard = await GuardProxy.start();
    let context: BrowserContext | undefined;
    // Each step also ends when the browser dies, so a half-open context never outlives it.
    const step = <T>(work: Promise<T>): Promise<T> => {
      work.catch(() => undefined);
      return Promise.race([work, lease.gone]);
    };
    try {
      context = await step(lease.browser.newContext({
        ...contextDeviceOptions(device),
        // Loopback must go through the guard too ('<-loopback>' removes Chromium's implicit bypass).
        proxy: { server: guard.url, bypass: '<-loopback>' },
        serviceWorkers: 'block',
        acceptDownloads: false,
        ignoreHTTPSErrors: true,
      }));
      const page = await step(context.newPage());
      const session = await step(context.newCDPSession(page));
      return new JobContext(device, guard, context, page, session, new NetworkActivity(page), lease);
    } catch (error) {
      await guard.close();
      if (context && !lease.isGone()) context.close().catch(() => undefined);
      throw error;
    }
  }

  /**
   * Counts the decoded bytes Chromium receives (CDP Network.dataReceived, which reports them as they arrive, so a
   * 50 MB body or a gzip bomb is stopped after the cap, not after it was read whole) and fails the job past a cap.
   */
  private async countReceivedBytes(): Promise<void> {
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
    const done = ({ requestId }: { requestId: string }) => void this.responseBytes.delete(requestId);
    this.session.on('Network.loadingFinished', done);
    this.session.on('Network.loadingFailed', done);
    await this.session.send('Network.enable');
  }

  /** Still fit to serve a job (a warm spare whose renderer died meanwhile is not). */
  get usable(): boolean {
    return !this.closed && !this.pageCrashed && !this.page.isClosed();
  }

  /** Applies everything job-specific before navigation. */
  async prepare(job: JobSettings): Promise<void> {
    try {
      this.guard.assign(job.policy, job.proxy);
    } catch (error) {
      throw fromGuardFailure({ kind: 'proxy', detail: (error as Error).message });
    }
    this.lastNavigationHost = '';
    this.maxRedirects = job.maxRedirects;
    this.maxResponseBytes = job.maxResponseBytes;
    this.maxJobBytes = job.maxJobBytes;
    await this.countReceivedBytes();
    await this.context.setExtraHTTPHeaders({ 'accept-language': job.acceptLanguage });
    await applyUserAgentOverride(this.session, job.device, job.acceptLanguage);
    // Per job over CDP (not at context creation), so a warm context can still serve any country.
    if (job.locale) await this.session.send('Emulation.setLocaleOverride', { locale: job.locale });
    if (job.timezoneId) await this.session.send('Emulation.setTimezoneOverride', { timezoneId: job.timezoneId });
    if (job.blockResources) await blockHeavyResources(this.session);
  }

  async close(lease: BrowserLease): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (!lease.isGone()) {
      let timer: NodeJS.Timeout | undefined;
      const closed = await Promise.race([
        this.context.close().then(
          () => true,
          () => true,
        ),
        new Promise<boolean>((resolve) => {
          timer = setTimeout(() => resolve(false), CONTEXT_CLOSE_CAP_MS);
        }),
      ]);
      clearTimeout(timer);
      if (!closed) lease.markWedged();
    }
    await this.guard.close();
  }
}

/** How many HTTP redirects led to this request (each hop's request points at the one it replaced). */
function redirectHops(request: Request): number {
  let hops = 0;
  for (let previous = request.redirectedFrom(); previous; previous = previous.redirectedFrom()) hops++;
  return hops;
}
