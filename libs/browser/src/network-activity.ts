/**
 * Tracks a page's requests in flight to decide when its network has gone quiet. Event-driven: a waiter wakes on
 * every request start/end and on its own timer, never polls. Long-polling or endless requests keep it busy, which
 * is why every wait has a cap.
 *
 * The quiet window adapts to the page (see `waitForQuiet`): a page that has started no request since its `load`
 * event and has none in flight is most likely done, and only has to stay quiet for a brief window (long enough for
 * a fetch from a short timer or from the load handler to show up) and until its main thread has caught up (so a
 * page still running scripts after load is waited for, however long they take, up to a cap); once a request starts after load, the page is
 * fetching content and the full window applies, so chained fetches (one answer triggering the next) are waited for.
 * Only requests that can change the document count as fetching: a favicon (which Chromium asks for after `load`), an
 * image, a style sheet or a beacon cannot, nor can a request refused before it reached the network (a
 * Content-Security-Policy or our own blocking turned it down). They still hold the window while in flight.
 */
import type { CDPSession } from 'playwright-core';

const STREAMED_TYPES = new Set(['Fetch', 'XHR', 'EventSource']);
/** Request types whose answer can change the document once it has loaded (CDP's Network.ResourceType). */
const DOCUMENT_CHANGING_TYPES = new Set(['Document', 'Script', 'Fetch', 'XHR', 'EventSource', 'WebSocket']);
/** Failures of requests the browser refused itself, before anything was sent. */
const REFUSED_BEFORE_SENDING = /^net::ERR_BLOCKED_BY_(CLIENT|CSP|RESPONSE|ORB|ADMINISTRATOR)$/i;

/** How long after the main thread caught up a request its last task started may still be on its way to us. */
export const CAUGHT_UP_GRACE_MS = 30;

/**
 * Built on the job's own CDP session (Network domain, enabled by the tab before each job) rather than Playwright's
 * request events: subscribing to those makes Playwright create, validate and dispatch an object per request and per
 * response of the page to this process, which costs more than the page's rendering on pages of many subresources.
 * The session sees the page's own target: requests of cross-site iframes (their own renderer) are not counted, and
 * they cannot change the captured document.
 */
export class NetworkActivity {
  /** CDP request ids in flight (a redirect keeps its id). */
  private readonly inflight = new Set<string>();
  private lastChange = performance.now();
  private loadedAt: number | null = null;
  /** Document-changing requests started since `markLoaded`, less those the browser refused before sending. */
  private fetchesSinceLoad = 0;
  private readonly countedSinceLoad = new Set<string>();
  /** Document-changing request ids in flight (for `busyAtLoad`). */
  private readonly changing = new Set<string>();
  /**
   * The document-changing requests in flight at load, less those the browser then refused: a request the page's load
   * handler made can reach us before the load does, and its refusal (a Content-Security-Policy) after it.
   */
  private readonly busyAtLoad = new Set<string>();
  /** When the page's main thread caught up after `markLoaded` (its load time when nobody asked); null until then. */
  private caughtUpAt: number | null = null;
  /** Counts loads, so a signal from an earlier job of a reused tab is ignored. */
  private generation = 0;
  private readonly listeners = new Set<() => void>();

  constructor(session: CDPSession) {
    session.on('Network.requestWillBeSent', (event) => {
      const id = event.requestId;
      const isNew = !this.inflight.has(id);
      this.inflight.add(id);
      if (event.type !== undefined && DOCUMENT_CHANGING_TYPES.has(event.type)) {
        this.changing.add(id);
        if (isNew && this.loadedAt !== null) {
          this.countedSinceLoad.add(id);
          this.fetchesSinceLoad++;
        }
      }
      this.changed();
    });
    const done = (id: string): void => {
      this.changing.delete(id);
      this.countedSinceLoad.delete(id);
      if (this.inflight.delete(id)) this.changed();
    };
    session.on('Network.loadingFinished', (event) => done(event.requestId));
    session.on('Network.loadingFailed', (event) => {
      const refused = event.blockedReason !== undefined || REFUSED_BEFORE_SENDING.test(event.errorText);
      if (refused && this.countedSinceLoad.has(event.requestId)) this.fetchesSinceLoad--;
      if (refused) this.busyAtLoad.delete(event.requestId);
      done(event.requestId);
    });
    // A fetch whose body the page never reads never "finishes", and an event stream is endless by design: for
    // these, the response arriving is the end of network activity that rendering can wait on.
    session.on('Network.responseReceived', (event) => {
      if (STREAMED_TYPES.has(event.type)) done(event.requestId);
    });
  }

  get pending(): number {
    return this.inflight.size;
  }

  /** Forgets the previous job's page (a reused tab): its requests and its load. */
  reset(): void {
    this.inflight.clear();
    this.changing.clear();
    this.countedSinceLoad.clear();
    this.loadedAt = null;
    this.fetchesSinceLoad = 0;
    this.busyAtLoad.clear();
    this.caughtUpAt = null;
    this.generation++;
    this.lastChange = performance.now();
  }

  /**
   * The page's `load` event fired (as seen from here): the brief window of `waitForQuiet` counts from now. With
   * `idle` (see mainThreadCaughtUp), the brief window also lasts until the page's main thread has caught up.
   */
  markLoaded(caughtUp?: Promise<void>): void {
    this.loadedAt = performance.now();
    this.fetchesSinceLoad = 0;
    this.countedSinceLoad.clear();
    this.busyAtLoad.clear();
    for (const id of this.changing) this.busyAtLoad.add(id);
    const generation = ++this.generation;
    this.caughtUpAt = caughtUp === undefined ? this.loadedAt : null;
    void caughtUp?.then(() => {
      if (generation !== this.generation) return;
      this.caughtUpAt = performance.now();
      this.wake();
    });
  }

  /**
   * Whether the page had a document-changing request in flight at load or has started one since that the browser
   * did not refuse (false before `markLoaded`).
   */
  get activeSinceLoad(): boolean {
    return this.loadedAt !== null && (this.busyAtLoad.size > 0 || this.fetchesSinceLoad > 0);
  }

  /**
   * Resolves true once nothing has been in flight for `idleMs`, or false when `until` (performance.now()) comes
   * first. After `markLoaded`, a page not active since load needs only `briefMs` of quiet counted from load (or from
   * its last request, if later) and its main thread caught up; the full `idleMs` applies again as soon as it starts a
   * request.
   */
  async waitForQuiet(idleMs: number, until: number, briefMs = idleMs): Promise<boolean> {
    for (;;) {
      const now = performance.now();
      const brief = this.loadedAt !== null && !this.activeSinceLoad;
      const quietSince = brief ? Math.max(this.lastChange, this.loadedAt as number) : this.lastChange;
      const needed = brief ? Math.min(briefMs, idleMs) : idleMs;
      // A fetch the page's last task started can reach us just after the signal: it counts after a grace.
      const grace = Math.min(CAUGHT_UP_GRACE_MS, needed);
      const caughtUp = !brief || (this.caughtUpAt !== null && now - this.caughtUpAt >= grace);
      if (this.inflight.size === 0 && now - quietSince >= needed && caughtUp) return true;
      if (now >= until) return false;
      const quietEnds = now - quietSince < needed ? quietSince + needed : this.caughtUpAt !== null ? this.caughtUpAt + grace : until;
      const wake = this.inflight.size === 0 ? Math.min(quietEnds, until) : until;
      await this.nextChange(Math.max(1, wake - now));
    }
  }

  private changed(): void {
    this.lastChange = performance.now();
    this.wake();
  }

  private wake(): void {
    for (const listener of [...this.listeners]) listener();
  }

  private nextChange(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const finish = (): void => {
        clearTimeout(timer);
        this.listeners.delete(finish);
        resolve();
      };
      const timer = setTimeout(finish, ms);
      this.listeners.add(finish);
    });
  }
}
