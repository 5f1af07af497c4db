/**
 * One BrowserContext shared by the concurrent render jobs of one isolation key — an account, with one upstream
 * proxy and one device — each job in a tab (page) of its own with its own limits, headers, emulation and resource
 * blocking. Cookies, storage and the HTTP cache are the account's own and live as long as the context does; nothing
 * is shared between keys. Why: Chromium spends far less CPU per page on several pages of one context than on the
 * same pages spread over several live contexts (bench/browser/render-factors.ts), which is also how Crawlee runs.
 *
 * The guard proxy is assigned once, at open, with the key's address policy and upstream proxy: every request of
 * every tab still passes it. Pages the context opens by itself (popups) are closed.
 */
import type { BrowserContext, Page } from 'playwright-core';
import type { DeviceProfile, ProxyInfo } from '#contracts';
import { GuardProxy } from './guard-proxy.js';
import type { HostPolicy } from './host-policy.js';
import { TabView, closeGuardedContext, closeWithinCap, openGuardedContext, openTab, type BrowserLease, type JobSettings, type JobTab, type RenderSurface } from './job-context.js';
import { fromGuardFailure } from './render-errors.js';

export class SharedContext {
  /** Jobs holding or waiting for a tab. */
  users = 0;
  private closed = false;
  private opening = 0;
  private readonly tabs = new Set<Page>();

  private constructor(
    readonly device: DeviceProfile,
    readonly guard: GuardProxy,
    private readonly context: BrowserContext,
  ) {
    context.on('page', (other) => {
      if (this.opening === 0 && !this.tabs.has(other)) other.close().catch(() => undefined);
    });
  }

  static async open(lease: BrowserLease, device: DeviceProfile, policy: HostPolicy, proxy: ProxyInfo | null): Promise<SharedContext> {
    const guard = await GuardProxy.start();
    let context: BrowserContext | undefined;
    try {
      try {
        guard.assign(policy, proxy);
      } catch (error) {
        throw fromGuardFailure({ kind: 'proxy', detail: (error as Error).message });
      }
      context = await openGuardedContext(lease, device, guard);
      return new SharedContext(device, guard, context);
    } catch (error) {
      await guard.close();
      if (context && !lease.isGone()) context.close().catch(() => undefined);
      throw error;
    }
  }

  get usable(): boolean {
    return !this.closed;
  }

  /** A new tab for one job; `onClose` runs once when the tab is closed. */
  async openTab(lease: BrowserLease, onClose: () => void): Promise<SharedTab> {
    this.opening++;
    try {
      const tab = await openTab(lease, this.context);
      this.tabs.add(tab.page);
      return new SharedTab(this, tab, () => {
        this.tabs.delete(tab.page);
        onClose();
      });
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

/** One job's tab of a SharedContext; closing it closes the page only. */
export class SharedTab extends TabView implements RenderSurface {
  private done = false;

  constructor(
    private readonly owner: SharedContext,
    private readonly own: JobTab,
    private readonly onClose: () => void,
  ) {
    super();
  }

  protected get tab(): JobTab {
    return this.own;
  }

  get guard(): GuardProxy {
    return this.owner.guard;
  }


  get usable(): boolean {
    return this.owner.usable && !this.done && !this.tab.pageCrashed && !this.tab.page.isClosed();
  }

  prepare(job: JobSettings): Promise<void> {
    return this.tab.prepare(job);
  }

  async close(lease: BrowserLease): Promise<void> {
    if (this.done) return;
    this.done = true;
    try {
      await closeWithinCap(lease, () => this.tab.page.close());
    } finally {
      this.onClose();
    }
  }
}
