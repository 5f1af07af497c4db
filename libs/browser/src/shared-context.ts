/**
 * One BrowserContext shared by the concurrent render jobs of one isolation key — an account, with one upstream
 * proxy and one device — each job in a tab (page) of its own with its own limits, headers, emulation and resource
 * blocking. Cookies, storage and the HTTP cache are the account's own and live as long as the context does; nothing
 * is shared between keys. Why: Chromium spends far less CPU per page on several pages of one context than on the
 * same pages spread over several live contexts (bench/browser/render-factors.ts), which is also how Crawlee runs.
 *
 * The guard proxy is assigned once, at open, with the key's address policy and upstream proxy: every request of
 * every tab still passes it. Pages the context opens by itself (popups) are closed.
 *
 * A tab whose job ended with a result is kept (its scripts stopped) for the key's next job, which navigates
 * it instead of opening a new one: a new tab costs Chromium a renderer start-up, and reusing tabs cut its CPU per
 * page by about a third (bench/browser/render-factors.ts, variants a/x and S/T). The tab stays in the same context,
 * so nothing crosses keys; what the page left in it (its tab's sessionStorage and history) is the key's own, like
 * the context's cookies. Every setting of the next job is applied again or undone (JobTab.prepare, renew). Kept
 * tabs are few (TabReuse.max per browser) and short-lived (TAB_IDLE_MS). Stopping scripts covers the page's own
 * process: a cross-site iframe running in a process of its own keeps its timers until the tab is reused or closed.
 */
import type { BrowserContext, Page } from 'playwright-core';
import type { DeviceProfile, ProxyInfo } from '#contracts';
import { GuardProxy } from './guard-proxy.js';
import type { HostPolicy } from './host-policy.js';
import { TabView, closeGuardedContext, closeWithinCap, openGuardedContext, openTab, type BrowserLease, type JobSettings, type JobTab, type RenderSurface } from './job-context.js';
import { fromGuardFailure } from './render-errors.js';

/** How long a kept tab waits for the next job of its key before it is closed. */
const TAB_IDLE_MS = 2_000;
/** Stopping or restarting a kept tab's scripts taking longer means a busy renderer: the tab is closed instead. */
const SCRIPT_SWITCH_CAP_MS = 1_000;

/** Tabs kept for reuse on one browser, over all its shared contexts (`held` of at most `max`). */
export interface TabReuse {
  max: number;
  held: number;
}

interface KeptTab {
  tab: JobTab;
  timer: NodeJS.Timeout;
}

export class SharedContext {
  /** Jobs holding or waiting for a tab. */
  users = 0;
  private closed = false;
  private opening = 0;
  private readonly tabs = new Set<Page>();
  /** Kept tabs, most recently used last. */
  private readonly kept: KeptTab[] = [];

  private constructor(
    readonly device: DeviceProfile,
    readonly guard: GuardProxy,
    private readonly context: BrowserContext,
    private readonly reuse: TabReuse | null,
  ) {
    context.on('page', (other) => {
      if (this.opening === 0 && !this.tabs.has(other)) other.close().catch(() => undefined);
    });
  }

  static async open(lease: BrowserLease, device: DeviceProfile, policy: HostPolicy, proxy: ProxyInfo | null, reuse: TabReuse | null = null): Promise<SharedContext> {
    const guard = await GuardProxy.start();
    let context: BrowserContext | undefined;
    try {
      try {
        guard.assign(policy, proxy);
      } catch (error) {
        throw fromGuardFailure({ kind: 'proxy', detail: (error as Error).message });
      }
      context = await openGuardedContext(lease, device, guard);
      return new SharedContext(device, guard, context, reuse);
    } catch (error) {
      await guard.close();
      if (context && !lease.isGone()) context.close().catch(() => undefined);
      throw error;
    }
  }

  get usable(): boolean {
    return !this.closed;
  }

  /** A tab for one job navigating to `url` (a kept one when there is one); `onClose` runs once when the job is done with it. */
  async openTab(lease: BrowserLease, url: URL, onClose: () => void): Promise<SharedTab> {
    for (let kept = this.kept.pop(); kept; kept = this.kept.pop()) {
      this.unkeep(kept);
      const { tab } = kept;
      // Navigating to the kept page's own URL with another #fragment would only scroll it: open a new tab then.
      const sameDocument = url.hash !== '' && withoutHash(tab.page.url()) === withoutHash(url.href);
      if (this.closed || tab.pageCrashed || tab.page.isClosed() || sameDocument || !(await runScripts(tab, true))) {
        this.closeTab(lease, tab);
        continue;
      }
      tab.renew();
      return new SharedTab(this, tab, onClose, true);
    }
    this.opening++;
    try {
      const tab = await openTab(lease, this.context);
      this.tabs.add(tab.page);
      tab.page.once('close', () => this.tabs.delete(tab.page));
      return new SharedTab(this, tab, onClose, false);
    } finally {
      this.opening--;
    }
  }

  /**
   * Keeps the tab of a job that ended with a result for the next job, its scripts stopped; false when it cannot be
   * kept (no room, the context closing, a renderer too busy to answer), and the caller closes it.
   */
  async keep(lease: BrowserLease, tab: JobTab): Promise<boolean> {
    const reuse = this.reuse;
    if (!reuse || this.closed || reuse.held >= reuse.max || tab.pageCrashed || tab.page.isClosed()) return false;
    reuse.held++;
    if (!(await runScripts(tab, false)) || this.closed) {
      reuse.held--;
      return false;
    }
    const kept: KeptTab = {
      tab,
      timer: setTimeout(() => {
        const at = this.kept.indexOf(kept);
        if (at < 0) return;
        this.kept.splice(at, 1);
        this.unkeep(kept);
        this.closeTab(lease, tab);
      }, TAB_IDLE_MS),
    };
    kept.timer.unref();
    this.kept.push(kept);
    return true;
  }

  async close(lease: BrowserLease): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const kept of this.kept.splice(0)) this.unkeep(kept);
    await closeGuardedContext(lease, this.context, this.guard);
  }

  private unkeep(kept: KeptTab): void {
    clearTimeout(kept.timer);
    if (this.reuse) this.reuse.held--;
  }

  private closeTab(lease: BrowserLease, tab: JobTab): void {
    void closeWithinCap(lease, () => tab.page.close());
  }
}

function withoutHash(href: string): string {
  const at = href.indexOf('#');
  return at < 0 ? href : href.slice(0, at);
}

/**
 * Stops a kept tab's scripts (its timers and event handlers no longer run, so a page left behind cannot fetch or
 * burn CPU while it waits) or lets them run again for its next job; false when the renderer did not answer in time.
 * (Page.setWebLifecycleState 'frozen' was tried first: headless Chromium 156 keeps running the page's timers.)
 */
async function runScripts(tab: JobTab, run: boolean): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    tab.session.send('Emulation.setScriptExecutionDisabled', { value: !run }).then(() => true, () => false),
    new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), SCRIPT_SWITCH_CAP_MS);
    }),
  ]).finally(() => clearTimeout(timer));
}

/** One job's tab of a SharedContext; closing it closes the page only. */
export class SharedTab extends TabView implements RenderSurface {
  private done = false;

  constructor(
    private readonly owner: SharedContext,
    private readonly own: JobTab,
    private readonly onClose: () => void,
    /** Whether the tab was kept from an earlier job of the key. */
    readonly reused: boolean,
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

  /** Ends the job's use of the tab: kept for the key's next job when `reusable` (and there is room), else closed. */
  async release(lease: BrowserLease, reusable: boolean): Promise<void> {
    if (this.done) return;
    this.done = true;
    try {
      if (reusable && (await this.owner.keep(lease, this.tab))) return;
      await closeWithinCap(lease, () => this.tab.page.close());
    } finally {
      this.onClose();
    }
  }

  close(lease: BrowserLease): Promise<void> {
    return this.release(lease, false);
  }
}
