/**
 * The headless (or headed, under Xvfb) Chromium render pool: one shared browser, one BrowserContext at a time per
 * job, concurrency bounded by a JobGate (slots and free memory). With `reuseContexts`, a job with an isolation key
 * (its account) may run in a context an earlier job of the same key used, reset in between (see JobContext.reset);
 * contexts are never shared between keys, and a job without a key always gets a context of its own. The browser is
 * recycled after `pagesPerBrowser` jobs — a new one serves new jobs while the old one finishes its in-flight jobs and
 * is then closed — and relaunched when it dies. A dead browser fails only its in-flight jobs (RENDER_FAILED,
 * transient); nothing escapes as an unhandled rejection. While a browser has jobs its memory is watched
 * (MemoryWatch): a renderer past `maxPageMemoryMb` is killed and its job fails as TOO_LARGE; the browser past
 * `maxBrowserMemoryMb` is killed with its whole process tree, its in-flight jobs fail as RENDER_FAILED (transient)
 * and the next job gets a new browser. V8's own heap cap (`--max-old-space-size`) is set to the page limit too.
 */
import os from 'node:os';
import { chromium, type Browser, type CDPSession } from 'playwright-core';
import { ErrorCode, TrawlError } from '#contracts';
import { AddressGuard } from '#fetch';
import { metrics } from '#metrics';
import { DEFAULT_ACCEPT_LANGUAGE } from './device-emulation.js';
import { HostPolicy, systemResolve } from './host-policy.js';
import { JobGate } from './job-gate.js';
import { JobContext, type BrowserLease } from './job-context.js';
import { SharedContext, type SharedTab, type TabReuse } from './shared-context.js';
import { nativeDesktopProfile } from './device-emulation.js';
import { deviceProfile, renderPage, type RenderJob, type SurfaceSource } from './page-render.js';
import { MemoryWatch, procMemoryProbe } from './memory-watch.js';
import { killProcess, processTreeMemory } from './process-memory.js';
import { blockedAddress, dnsFailed, renderFailed, renderTimeout, type OutOfMemory } from './render-errors.js';
import type { AddressPolicy, ChromiumPoolOptions, PageRenderer, PoolStats, RenderOptions, RenderResult } from './render-types.js';

/** Launch flags that work on these machines (see ENVIRONMENT.md), plus WebRTC kept off non-proxied UDP. */
export const DEFAULT_CHROMIUM_ARGS: readonly string[] = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
];

const BROWSER_CLOSE_CAP_MS = 10_000;
/** Same default as the plain HTTP client (CRAWL_MAX_REDIRECTS). */
const DEFAULT_MAX_REDIRECTS = 10;
/** A reset that takes longer than this means a wedged renderer: the context is closed instead of kept. */
const CONTEXT_RESET_CAP_MS = 5_000;

/** How long a shared context outlives its last job (the account's next jobs reuse it meanwhile). */
const SHARED_IDLE_MS = 10_000;

/** The context one isolation key's concurrent jobs share on a browser (see SharedContext). */
interface SharedEntry {
  ctx: Promise<SharedContext>;
  idleTimer: NodeJS.Timeout | null;
}

/** A reset context waiting for the next job of its isolation key. */
interface IdleContext {
  key: string;
  ctx: JobContext;
}

/**
 * A page quiet since load is waited for this long, and until its main thread is idle: enough for a fetch from the
 * load handler, a short timer or the page's remaining scripts to start (and turn the wait into the full network-idle
 * window), far less than making every static page wait 500 ms.
 */
const DEFAULT_LOAD_QUIET_MS = 100;

/** Same defaults as CRAWL_MAX_BYTES, RENDER_MAX_JOB_BYTES and RENDER_MAX_DOM_NODES. */
const DEFAULT_MAX_RESPONSE_BYTES = 10 * 1024 * 1024;
const DEFAULT_MAX_JOB_BYTES = 50 * 1024 * 1024;
const DEFAULT_MAX_DOM_NODES = 250_000;
/** Same defaults as RENDER_MAX_PAGE_MEMORY_MB, RENDER_MAX_BROWSER_MEMORY_MB and RENDER_MEMORY_SAMPLE_MS. */
const DEFAULT_MAX_PAGE_MEMORY_MB = 1024;
const DEFAULT_MAX_BROWSER_MEMORY_MB = 3072;
const DEFAULT_MEMORY_SAMPLE_MS = 250;

interface BrowserSlot {
  id: number;
  browser: Browser;
  pid: number | null;
  /** The browser's own user agent (CDP Browser.getVersion), for jobs that present the browser as it is. */
  userAgent: string | null;
  jobs: number;
  active: number;
  retired: boolean;
  /** We asked it to close: its disconnect is not a crash. */
  closing: boolean;
  dead: boolean;
  gone: Promise<never>;
  lease: BrowserLease;
  /** A desktop JobContext opened ahead of the next job (see `prewarm`). */
  spare: Promise<JobContext> | null;
  /** Reset contexts by isolation key, oldest first; at most `maxContexts` are kept. */
  idle: IdleContext[];
  /** Shared contexts by key (isolation key, upstream proxy, device), with `shareContexts`. */
  shared: Map<string, SharedEntry>;
  /** Tabs of the shared contexts kept for reuse (null when `reuseTabs` is off). */
  tabReuse: TabReuse | null;
  watch: MemoryWatch;
  /** The browser's private memory (MiB) when it was killed for going past its memory limit; null otherwise. */
  killedAtMb: number | null;
}

export class ChromiumPool implements PageRenderer {
  private readonly gate: JobGate;
  private readonly policy: AddressPolicy;
  private readonly slots = new Set<BrowserSlot>();
  private current: BrowserSlot | null = null;
  private launching: Promise<BrowserSlot> | null = null;
  private launches = 0;
  private crashes = 0;
  private jobs = 0;
  private reusedContexts = 0;
  private reusedTabs = 0;
  private memoryKills = 0;
  private peakBrowserMb = 0;
  private nextSlotId = 1;
  private closed = false;
  private readonly untrack: () => void;

  constructor(private readonly opts: ChromiumPoolOptions) {
    if (!Number.isInteger(opts.pagesPerBrowser) || opts.pagesPerBrowser < 1) throw new RangeError('pagesPerBrowser must be a positive integer');
    const minFreeMb = opts.minFreeMemoryMb ?? 0;
    this.gate = new JobGate(
      opts.maxContexts,
      minFreeMb > 0 ? { minFreeMb, freeMb: opts.freeMemoryMb ?? (() => os.freemem() / 1024 / 1024) } : null,
    );
    this.policy = opts.addressPolicy ?? new AddressGuard({ allowPrivateAddresses: opts.allowPrivateAddresses });
    this.untrack = metrics.trackBrowserPool(this, opts.headless === false ? 'headed' : 'headless', () => this.stats());
  }

  stats(): PoolStats {
    return {
      browsers: this.slots.size,
      activeContexts: this.gate.active,
      queued: this.gate.queued,
      warmContexts: [...this.slots].filter((slot) => slot.spare !== null).length,
      launches: this.launches,
      crashes: this.crashes,
      jobs: this.jobs,
      idleContexts: [...this.slots].reduce((n, slot) => n + slot.idle.length, 0),
      sharedContexts: [...this.slots].reduce((n, slot) => n + slot.shared.size, 0),
      reusedContexts: this.reusedContexts,
      reusedTabs: this.reusedTabs,
      keptTabs: [...this.slots].reduce((n, slot) => n + (slot.tabReuse?.held ?? 0), 0),
      memoryKills: this.memoryKills + [...this.slots].reduce((n, slot) => n + slot.watch.rendererKills, 0),
      peakBrowserMb: Math.round(Math.max(this.peakBrowserMb, ...[...this.slots].map((slot) => slot.watch.peakMb))),
    };
  }

  /** OS process ids of the live browsers (for RSS metrics and tests); a browser that did not report one is left out. */
  browserPids(): number[] {
    return [...this.slots].flatMap((slot) => (slot.pid === null ? [] : [slot.pid]));
  }

  async render(options: RenderOptions): Promise<RenderResult> {
    const startedAt = performance.now();
    if (!(options.timeoutMs > 0)) throw new TrawlError(ErrorCode.INVALID_PARAMETER, 'timeoutMs must be positive', 'permanent');
    const deadline = startedAt + options.timeoutMs;
    const url = parseTarget(options.url);
    if (this.closed) throw new TrawlError(ErrorCode.SERVICE_UNAVAILABLE, 'The render pool is closed', 'transient');
    const proxy = options.proxy ?? null;
    const policy = new HostPolicy(options.addressPolicy ?? this.policy, this.opts.resolve ?? systemResolve, proxy !== null);
    await this.precheck(policy, url.hostname, deadline);

    const screenshot = options.screenshot ?? false;
    const job: RenderJob = {
      url,
      startedAt,
      deadline,
      device: deviceProfile(options.device),
      acceptLanguage: options.acceptLanguage ?? DEFAULT_ACCEPT_LANGUAGE,
      proxy,
      screenshot,
      // A screenshot action needs the page's images and fonts as much as a screenshot does.
      blockResources: options.blockResources ?? (screenshot === false && !options.actions?.some((a) => a.type === 'screenshot')),
      networkIdleMs: options.networkIdleMs ?? 500,
      loadQuietMs: options.loadQuietMs ?? DEFAULT_LOAD_QUIET_MS,
      ...(options.locale ? { locale: options.locale } : {}),
      ...(options.timezoneId ? { timezoneId: options.timezoneId } : {}),
      settleCapMs: options.settleCapMs ?? 3_000,
      ...(options.waitMs ? { waitMs: options.waitMs } : {}),
      ...(options.actions?.length ? { actions: options.actions } : {}),
      maxRedirects: this.opts.maxRedirects ?? DEFAULT_MAX_REDIRECTS,
      maxResponseBytes: this.opts.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
      maxJobBytes: this.opts.maxJobBytes ?? DEFAULT_MAX_JOB_BYTES,
      maxDomNodes: this.opts.maxDomNodes ?? DEFAULT_MAX_DOM_NODES,
      policy,
    };

    const release = await this.gate.acquire(deadline);
    try {
      const slot = await this.browserWithin(deadline);
      if (options.userAgent === 'browser' && slot.userAgent) job.device = nativeDesktopProfile(slot.userAgent);
      this.jobs++;
      slot.jobs++;
      slot.active++;
      slot.watch.start();
      const shareKey = this.opts.shareContexts === true && options.isolationKey && !options.addressPolicy
        ? `${options.isolationKey}\n${proxy?.server ?? ''}\n${proxy?.username ?? ''}\n${JSON.stringify(job.device)}`
        : null;
      const key = this.opts.reuseContexts === true ? (options.isolationKey ?? null) : null;
      const from: SurfaceSource<SharedTab> | SurfaceSource<JobContext> = shareKey
        ? this.sharedTab(slot, shareKey, job, policy)
        : { source: this.contextFor(slot, job, key), reopen: () => JobContext.open(slot.lease, job.device), dispose: (ctx: JobContext, reusable: boolean) => this.dispose(slot, key, ctx, reusable) };
      if (slot.jobs >= this.opts.pagesPerBrowser) this.retire(slot);
      try {
        return await renderPage<SharedTab | JobContext>(slot.lease, job, from as SurfaceSource<SharedTab | JobContext>);
      } finally {
        slot.active--;
        if (slot.active === 0) slot.watch.stop();
        if (slot.retired && slot.active === 0) void this.closeSlot(slot);
      }
    } finally {
      release();
    }
  }

  async close(): Promise<void> {
    this.untrack();
    this.closed = true;
    const launching = this.launching;
    if (launching) await launching.catch(() => undefined);
    this.current = null;
    await Promise.all([...this.slots].map((slot) => this.closeSlot(slot)));
  }

  /** Refuses a blocked or unresolvable top-level host before any browser work. */
  private async precheck(policy: HostPolicy, host: string, deadline: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const decision = await Promise.race([
      policy.decide(host),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(renderTimeout('DNS resolution did not finish within the job budget')), Math.max(0, deadline - performance.now()));
      }),
    ]).finally(() => clearTimeout(timer));
    if (decision.verdict === 'block') throw blockedAddress(decision.kind);
    if (decision.verdict === 'dns-failed') throw dnsFailed(decision.code);
  }

  /**
   * A reset context of the job's isolation key and device when there is one, else the warm spare when it fits the
   * job (desktop), else a context opened for it; a taken spare is replaced at once.
   */
  private contextFor(slot: BrowserSlot, job: RenderJob, key: string | null): Promise<JobContext> {
    if (key !== null) {
      for (let i = slot.idle.length - 1; i >= 0; i--) {
        const { key: idleKey, ctx } = slot.idle[i];
        if (idleKey !== key || ctx.device.kind !== job.device.kind) continue;
        slot.idle.splice(i, 1);
        if (!ctx.usable) {
          void ctx.close(slot.lease);
          continue;
        }
        this.reusedContexts++;
        return Promise.resolve(ctx);
      }
    }
    if (slot.spare && job.device.kind === 'desktop') {
      const spare = slot.spare;
      slot.spare = null;
      this.refillSpare(slot);
      return spare;
    }
    return JobContext.open(slot.lease, job.device);
  }

  /**
   * A tab in the shared context of `key` on this browser, opening the context for the key's first job. The context
   * closes SHARED_IDLE_MS after its last tab does, or as soon as its browser retires.
   */
  private sharedTab(slot: BrowserSlot, key: string, job: RenderJob, policy: HostPolicy): SurfaceSource<SharedTab> {
    let entry = slot.shared.get(key);
    if (entry) this.reusedContexts++;
    else {
      const created: SharedEntry = { ctx: SharedContext.open(slot.lease, job.device, policy, job.proxy, slot.tabReuse), idleTimer: null };
      created.ctx.catch(() => {
        if (slot.shared.get(key) === created) slot.shared.delete(key);
      });
      slot.shared.set(key, created);
      entry = created;
    }
    const held = entry;
    if (held.idleTimer) clearTimeout(held.idleTimer);
    held.idleTimer = null;
    const open = async () => {
      const ctx = await held.ctx;
      ctx.users++;
      try {
        const tab = await ctx.openTab(slot.lease, job.url, () => this.releaseShared(slot, key, held, ctx));
        if (tab.reused) this.reusedTabs++;
        return tab;
      } catch (error) {
        this.releaseShared(slot, key, held, ctx);
        throw error;
      }
    };
    return { source: open(), reopen: open, dispose: (tab, reusable) => tab.release(slot.lease, reusable) };
  }

  /** A tab of a shared context closed: the context stays for the key's next jobs, then closes when idle. */
  private releaseShared(slot: BrowserSlot, key: string, entry: SharedEntry, ctx: SharedContext): void {
    ctx.users--;
    if (ctx.users > 0) return;
    const close = () => {
      if (slot.shared.get(key) === entry) slot.shared.delete(key);
      void ctx.close(slot.lease);
    };
    if (slot.retired || slot.dead || this.closed || !ctx.usable) return close();
    entry.idleTimer = setTimeout(() => {
      entry.idleTimer = null;
      if (ctx.users === 0) close();
    }, SHARED_IDLE_MS);
    entry.idleTimer.unref();
  }

  /** Closes the shared contexts nobody uses (all of them when `all`: the browser is going away). */
  private discardShared(slot: BrowserSlot, all: boolean): Promise<void> {
    const closing: Promise<void>[] = [];
    for (const [key, entry] of slot.shared) {
      closing.push(
        entry.ctx.then(
          (ctx) => {
            if (!all && ctx.users > 0) return;
            if (entry.idleTimer) clearTimeout(entry.idleTimer);
            if (slot.shared.get(key) === entry) slot.shared.delete(key);
            return ctx.close(slot.lease);
          },
          () => undefined,
        ),
      );
    }
    return Promise.all(closing).then(() => undefined);
  }

  private refillSpare(slot: BrowserSlot): void {
    if (this.opts.prewarm === false || this.closed || slot.retired || slot.dead || slot.spare) return;
    if (slot.jobs >= this.opts.pagesPerBrowser) return; // it will retire before another job could use it
    const spare = JobContext.open(slot.lease, deviceProfile('desktop'));
    slot.spare = spare;
    spare.catch(() => {
      if (slot.spare === spare) slot.spare = null;
    });
  }

  /**
   * After a job: a context that finished cleanly and has an isolation key is reset and kept for that key's next job
   * (the oldest kept context is closed beyond `maxContexts`); any other is closed.
   */
  private async dispose(slot: BrowserSlot, key: string | null, ctx: JobContext, reusable: boolean): Promise<void> {
    const keep = (): boolean => reusable && key !== null && !this.closed && !slot.retired && !slot.dead;
    if (!keep()) return ctx.close(slot.lease);
    let timer: NodeJS.Timeout | undefined;
    const reset = ctx.reset(slot.lease);
    reset.catch(() => undefined);
    const ok = await Promise.race([
      reset.then(() => true, () => false),
      new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), CONTEXT_RESET_CAP_MS);
      }),
    ]).finally(() => clearTimeout(timer));
    // The pool may have retired this browser (or closed) while the reset ran.
    if (!ok || !keep() || !ctx.usable) return ctx.close(slot.lease);
    slot.idle.push({ key: key as string, ctx });
    while (slot.idle.length > this.opts.maxContexts) {
      const oldest = slot.idle.shift() as IdleContext;
      void oldest.ctx.close(slot.lease);
    }
  }

  private discardIdle(slot: BrowserSlot): Promise<void> {
    const idle = slot.idle.splice(0);
    return Promise.all(idle.map(({ ctx }) => ctx.close(slot.lease).catch(() => undefined))).then(() => undefined);
  }

  private discardSpare(slot: BrowserSlot): Promise<void> {
    const spare = slot.spare;
    slot.spare = null;
    return spare ? spare.then((ctx) => ctx.close(slot.lease)).catch(() => undefined) : Promise.resolve();
  }

  private async browserWithin(deadline: number): Promise<BrowserSlot> {
    let timer: NodeJS.Timeout | undefined;
    const launched = this.browser();
    launched.catch(() => undefined);
    return Promise.race([
      launched,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(renderTimeout('The browser did not start within the job budget')), Math.max(0, deadline - performance.now()));
      }),
    ]).finally(() => clearTimeout(timer));
  }

  /** The current browser, launching one (single flight) when there is none. */
  private browser(): Promise<BrowserSlot> {
    if (this.current && !this.current.dead && !this.current.retired) return Promise.resolve(this.current);
    if (!this.launching) {
      this.launching = this.launch().finally(() => {
        this.launching = null;
      });
    }
    return this.launching;
  }

  private async launch(): Promise<BrowserSlot> {
    this.launches++;
    let browser: Browser;
    // Outside the try: a display that cannot start is the display's error, not Chromium's. The browser inherits the
    // worker's environment (Playwright's default) plus what the pool adds (DISPLAY).
    const env = this.opts.launchEnv ? { ...process.env, ...(await this.opts.launchEnv()) } : undefined;
    try {
      browser = await chromium.launch({
        executablePath: this.opts.executablePath,
        headless: this.opts.headless ?? true,
        ...(env ? { env } : {}),
        ...(this.opts.ignoreDefaultArgs ? { ignoreDefaultArgs: this.opts.ignoreDefaultArgs } : {}),
        args: this.launchArgs(),
        timeout: this.opts.launchTimeoutMs ?? 30_000,
        // The worker owns shutdown (it calls close()); Playwright still kills the browser when the process exits.
        handleSIGINT: false,
        handleSIGTERM: false,
        handleSIGHUP: false,
      });
    } catch (error) {
      throw renderFailed(`could not start Chromium (${(error as Error).message.split('\n')[0].slice(0, 160)})`);
    }
    let markGone: (error: Error) => void = () => undefined;
    const gone = new Promise<never>((_, reject) => {
      markGone = reject;
    });
    gone.catch(() => undefined);
    const slot: BrowserSlot = {
      id: this.nextSlotId++, browser, pid: null, userAgent: null, jobs: 0, active: 0, retired: false, closing: false, dead: false, gone, spare: null, idle: [],
      shared: new Map(), killedAtMb: null, tabReuse: this.opts.reuseTabs === false ? null : { max: this.opts.maxContexts, held: 0 },
      watch: new MemoryWatch(this.memoryLimits(), procMemoryProbe(processLister(browser)), (totalMb) => this.killForMemory(slot, totalMb)),
      lease: {
        browser,
        gone,
        isGone: () => slot.dead,
        onPageCrash: () => {
          this.crashes++;
        },
        markWedged: () => this.retire(slot),
        outOfMemory: (pageCrashed) => this.outOfMemory(slot, pageCrashed),
      },
    };
    browser.on('disconnected', () => {
      slot.watch.stop();
      this.peakBrowserMb = Math.max(this.peakBrowserMb, slot.watch.peakMb);
      this.memoryKills += slot.watch.rendererKills;
      slot.dead = true;
      void this.discardSpare(slot); // its guard proxy lives in this process
      void this.discardIdle(slot);
      void this.discardShared(slot, true);
      this.slots.delete(slot);
      if (this.current === slot) this.current = null;
      if (!slot.closing && slot.killedAtMb === null) this.crashes++;
      markGone(renderFailed('the browser closed during the job'));
    });
    slot.pid = await browserPid(browser);
    if (this.opts.headless === false) slot.userAgent = await browserUserAgent(browser);
    if (this.closed) {
      await this.closeSlot(slot);
      throw new TrawlError(ErrorCode.SERVICE_UNAVAILABLE, 'The render pool is closed', 'transient');
    }
    this.slots.add(slot);
    this.current = slot;
    this.refillSpare(slot);
    return slot;
  }

  private launchArgs(): string[] {
    const args = [...(this.opts.launchArgs ?? DEFAULT_CHROMIUM_ARGS)];
    const pageMb = this.memoryLimits().pageMb;
    // V8's heap cap per renderer: a script hoarding objects dies of it even between two samples of the watch.
    if (pageMb > 0 && !args.some((arg) => arg.startsWith('--js-flags='))) args.push(`--js-flags=--max-old-space-size=${pageMb}`);
    return args;
  }

  private memoryLimits() {
    return {
      pageMb: this.opts.maxPageMemoryMb ?? DEFAULT_MAX_PAGE_MEMORY_MB,
      browserMb: this.opts.maxBrowserMemoryMb ?? DEFAULT_MAX_BROWSER_MEMORY_MB,
      sampleMs: this.opts.memorySampleMs ?? DEFAULT_MEMORY_SAMPLE_MS,
    };
  }

  /**
   * The browser went past its memory limit: kill its whole process tree at once (a polite close could wait on a
   * renderer that is busy allocating), stop giving it jobs; its disconnect fails the in-flight jobs.
   */
  private killForMemory(slot: BrowserSlot, totalMb: number): void {
    if (slot.dead || slot.killedAtMb !== null) return;
    slot.killedAtMb = totalMb;
    this.memoryKills++;
    if (this.current === slot) this.current = null;
    const tree = slot.pid === null ? [] : processTreeMemory(slot.pid).map((p) => p.pid);
    for (const pid of tree) killProcess(pid);
    if (tree.length === 0) void slot.browser.close().catch(() => undefined);
  }

  /** Why a failed job's page or browser died, when it was memory (see MemoryWatch for the attribution). */
  private async outOfMemory(slot: BrowserSlot, pageCrashed: boolean): Promise<OutOfMemory | undefined> {
    const limits = this.memoryLimits();
    if (slot.killedAtMb !== null) return { scope: 'browser', limitMb: limits.browserMb };
    if (pageCrashed && limits.pageMb > 0 && (await slot.watch.pageOutOfMemory())) return { scope: 'page', limitMb: limits.pageMb };
    return undefined;
  }

  /** Stop giving the browser new jobs; it closes once its in-flight jobs are done. */
  private retire(slot: BrowserSlot): void {
    if (slot.retired) return;
    slot.retired = true;
    if (this.current === slot) this.current = null;
    void this.discardSpare(slot);
    void this.discardIdle(slot);
    void this.discardShared(slot, false);
    if (slot.active === 0) void this.closeSlot(slot);
  }

  private async closeSlot(slot: BrowserSlot): Promise<void> {
    if (slot.closing) return;
    slot.closing = true;
    this.slots.delete(slot);
    await Promise.all([this.discardSpare(slot), this.discardIdle(slot), this.discardShared(slot, true)]);
    if (slot.dead) return;
    let timer: NodeJS.Timeout | undefined;
    const closed = await Promise.race([
      slot.browser.close().then(
        () => true,
        () => true,
      ),
      new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), BROWSER_CLOSE_CAP_MS);
      }),
    ]);
    clearTimeout(timer);
    if (!closed && slot.pid !== null) killProcess(slot.pid);
  }
}

function parseTarget(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new TrawlError(ErrorCode.INVALID_URL, 'The URL is not valid', 'permanent');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new TrawlError(ErrorCode.INVALID_URL, `Unsupported URL scheme "${url.protocol.slice(0, 20)}" (only http and https)`, 'permanent');
  }
  return url;
}

/** The user agent a (headed) browser sends by itself. */
async function browserUserAgent(browser: Browser): Promise<string | null> {
  try {
    const session = await browser.newBrowserCDPSession();
    const info = await session.send('Browser.getVersion');
    await session.detach().catch(() => undefined);
    return info.userAgent;
  } catch {
    return null;
  }
}

/** Playwright's launched Browser does not expose its process; Chromium reports it over CDP. */
/** Lists the browser's processes (browser, renderers, GPU, utilities) over one browser-level CDP session. */
function processLister(browser: Browser): () => Promise<{ pid: number; type: string }[]> {
  let session: Promise<CDPSession> | null = null;
  return async () => {
    session ??= browser.newBrowserCDPSession();
    const current = session;
    try {
      const info = await (await current).send('SystemInfo.getProcessInfo');
      return info.processInfo.map((p) => ({ pid: p.id, type: p.type }));
    } catch (error) {
      if (session === current) session = null;
      throw error;
    }
  };
}

async function browserPid(browser: Browser): Promise<number | null> {
  try {
    const session = await browser.newBrowserCDPSession();
    const info = await session.send('SystemInfo.getProcessInfo');
    await session.detach().catch(() => undefined);
    return info.processInfo.find((p) => p.type === 'browser')?.id ?? null;
  } catch {
    return null;
  }
}

