/**
 * Tracks a page's requests in flight to decide when its network has gone quiet. Event-driven: a waiter wakes on
 * every request start/end and on its own timer, never polls. Long-polling or endless requests keep it busy, which
 * is why every wait has a cap.
 */
import type { Page, Request } from 'playwright-core';

const STREAMED_TYPES = new Set(['fetch', 'xhr', 'eventsource']);

export class NetworkActivity {
  private readonly inflight = new Set<Request>();
  private lastChange = performance.now();
  private readonly listeners = new Set<() => void>();

  constructor(page: Page) {
    page.on('request', (request) => {
      // A redirect hop replaces its predecessor, which never gets a finished/failed event of its own.
      const previous = request.redirectedFrom();
      if (previous) this.inflight.delete(previous);
      this.inflight.add(request);
      this.changed();
    });
    const done = (request: Request): void => {
      if (this.inflight.delete(request)) this.changed();
    };
    page.on('requestfinished', done);
    page.on('requestfailed', done);
    // A fetch whose body the page never reads never "finishes", and an event stream is endless by design: for
    // these, the response arriving is the end of network activity that rendering can wait on.
    page.on('response', (response) => {
      const request = response.request();
      if (STREAMED_TYPES.has(request.resourceType())) done(request);
    });
  }

  get pending(): number {
    return this.inflight.size;
  }

  /** Resolves true once nothing has been in flight for `idleMs`, or false when `until` (performance.now()) comes first. */
  async waitForQuiet(idleMs: number, until: number): Promise<boolean> {
    for (;;) {
      const now = performance.now();
      if (this.inflight.size === 0 && now - this.lastChange >= idleMs) return true;
      if (now >= until) return false;
      const wake = this.inflight.size === 0 ? Math.min(this.lastChange + idleMs, until) : until;
      await this.nextChange(Math.max(1, wake - now));
    }
  }

  private changed(): void {
    this.lastChange = performance.now();
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
