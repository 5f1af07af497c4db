/**
 * Where a rendered page's Chromium CPU goes: the same Zyte corpus pages (loopback, same-origin CSP as in
 * render-compare.ts) rendered 4 at a time by a ladder of variants that each add one factor of Trawl's render path to
 * a Crawlee-like baseline (one shared context, a new page per URL, `goto` until `load`, `page.content()`), and then
 * the render pool itself with its settings. Each variant gets its own browser (launched and warmed up outside the
 * measured window); Chromium CPU is the utime+stime of this process's descendants sampled from /proc (CpuMeter).
 * Rounds alternate the variant order so drifting machine load does not favour one.
 *
 *   npm run build && npm run bench:render-factors -- [--pages=20] [--rounds=1] [--only=name,name]
 *     [--chromium=/usr/bin/chromium]
 */
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { chromium, type Browser, type BrowserContext, type CDPSession, type Page } from 'playwright-core';
import { ChromiumPool, DEFAULT_CHROMIUM_ARGS, HEADLESS_SHELL_PATH } from '#browser';
import { contextDeviceOptions, applyUserAgentOverride, DEFAULT_ACCEPT_LANGUAGE } from '#browser/device-emulation.js';
import { GuardProxy } from '#browser/guard-proxy.js';
import { HostPolicy, systemResolve } from '#browser/host-policy.js';
import { NetworkActivity } from '#browser/network-activity.js';
import { blockHeavyResources } from '#browser/resource-blocking.js';
import { DEVICE_PROFILES } from '#contracts';
import { AddressGuard } from '#fetch';
import { CpuMeter, loadCorpusPages, quantile, startCorpusSite } from '../support/corpus-site.js';

const { values } = parseArgs({
  options: {
    pages: { type: 'string', default: '20' },
    rounds: { type: 'string', default: '1' },
    only: { type: 'string', default: '' },
    chromium: { type: 'string', default: '/usr/bin/chromium' },
  },
});
const PAGES = Number(values.pages);
const ROUNDS = Number(values.rounds);
const CONCURRENCY = 4;
const CHROMIUM = values.chromium;
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** What a raw (non-pool) variant does per page, in a browser it is handed. */
interface RawFactors {
  sharedContext: boolean;
  /** With sharedContext: one context per concurrent worker (as reused contexts are) instead of one for all. */
  contextPerWorker?: boolean;
  guardProxy: boolean;
  cdpBlocking: boolean;
  emulation: boolean;
  networkQuiet: boolean;
  /** With sharedContext: each worker keeps one page and navigates it to its next URL (no new tab per URL). */
  reusePage?: boolean;
  /** With reusePage: the page goes to about:blank after each URL (stops its scripts while it waits). */
  blankBetween?: boolean;
  /** With reusePage: the page is frozen (Page.setWebLifecycleState) between URLs instead. */
  freezeBetween?: boolean;
  /** Viewport of the context (Playwright's default, 1280x720, when absent). */
  viewport?: { width: number; height: number };
}

interface Variant {
  name: string;
  args?: string[];
  /** The Chromium binary, when not --chromium (the headless shell variants). */
  executable?: string;
  raw?: RawFactors;
  pool?: { prewarm: boolean; reuseContexts?: boolean; shareContexts?: boolean; reuseTabs?: boolean; networkIdleMs?: number; loadQuietMs?: number; blockResources?: boolean };
}

const BASE: RawFactors = { sharedContext: true, guardProxy: false, cdpBlocking: false, emulation: false, networkQuiet: false };
const FEWER_PROCESSES = ['--renderer-process-limit=4', '--disable-site-isolation-trials', '--disable-features=IsolateOrigins,site-per-process'];
/** Compositor/raster work a headless page does not need for its DOM. */
const LESS_RASTER = ['--disable-threaded-animation', '--disable-threaded-scrolling', '--disable-checker-imaging', '--disable-partial-raster', '--disable-lcd-text', '--num-raster-threads=1'];
/** V8 without its optimizing tiers: a page lives for a second, rarely long enough to repay TurboFan/Maglev compiles. */
const NO_OPT = ['--js-flags=--no-opt --no-maglev'];

const VARIANTS: Variant[] = [
  { name: 'a crawlee-like: shared context, load', raw: BASE },
  { name: 'b + fresh context per page', raw: { ...BASE, sharedContext: false } },
  { name: 'c + guard proxy', raw: { ...BASE, sharedContext: false, guardProxy: true } },
  { name: 'd + CDP Fetch blocking', raw: { ...BASE, sharedContext: false, guardProxy: true, cdpBlocking: true } },
  { name: 'e + device emulation/UA', raw: { ...BASE, sharedContext: false, guardProxy: true, cdpBlocking: true, emulation: true } },
  { name: 'f + network quiet 500ms', raw: { sharedContext: false, guardProxy: true, cdpBlocking: true, emulation: true, networkQuiet: true } },
  { name: 'g a + guard proxy (shared ctx)', raw: { ...BASE, guardProxy: true } },
  { name: 'h a + network quiet 500ms', raw: { ...BASE, networkQuiet: true } },
  { name: 'j a + proxy, blocking, emulation, quiet (shared ctx)', raw: { sharedContext: true, guardProxy: true, cdpBlocking: true, emulation: true, networkQuiet: true } },
  { name: 'k j with one context per worker', raw: { sharedContext: true, contextPerWorker: true, guardProxy: true, cdpBlocking: true, emulation: true, networkQuiet: true } },
  { name: 'i a + fewer renderer processes', raw: BASE, args: [...DEFAULT_CHROMIUM_ARGS, ...FEWER_PROCESSES] },
  { name: 'x a + one page per worker, navigated again', raw: { ...BASE, reusePage: true } },
  { name: 'y x + about:blank after each page', raw: { ...BASE, reusePage: true, blankBetween: true } },
  { name: 'z x + frozen between pages', raw: { ...BASE, reusePage: true, freezeBetween: true } },
  { name: 'l a + desktop viewport 1366x768', raw: { ...BASE, viewport: { width: 1366, height: 768 } } },
  { name: 'm a + small viewport 800x600', raw: { ...BASE, viewport: { width: 800, height: 600 } } },
  { name: 'n a + less raster flags', raw: BASE, args: [...DEFAULT_CHROMIUM_ARGS, ...LESS_RASTER] },
  { name: 'o a + V8 without optimizing tiers', raw: BASE, args: [...DEFAULT_CHROMIUM_ARGS, ...NO_OPT] },
  { name: 'w a + blink images off', raw: BASE, args: [...DEFAULT_CHROMIUM_ARGS, '--blink-settings=imagesEnabled=false'] },
  { name: 'p pool: fresh context, spare', pool: { prewarm: true, reuseContexts: false } },
  { name: 'q pool: fresh context, no spare', pool: { prewarm: false, reuseContexts: false } },
  { name: 'r pool: reused contexts, spare', pool: { prewarm: true, reuseContexts: true } },
  { name: 's pool: reused, no network-quiet wait', pool: { prewarm: true, reuseContexts: true, networkIdleMs: 0 } },
  { name: 't pool: reused, nothing blocked', pool: { prewarm: true, reuseContexts: true, blockResources: false } },
  { name: 'u pool: reused, no spare', pool: { prewarm: false, reuseContexts: true } },
  { name: 'S pool: shared context, kept tabs (the worker default)', pool: { prewarm: true, shareContexts: true } },
  { name: 'T pool: shared context, a new tab per job', pool: { prewarm: true, shareContexts: true, reuseTabs: false } },
  { name: 'U pool: shared, kept tabs, full 500 ms quiet after load', pool: { prewarm: true, shareContexts: true, loadQuietMs: 500 } },
  { name: 'V pool: shared, kept tabs, 100 ms quiet after load', pool: { prewarm: true, shareContexts: true, loadQuietMs: 100 } },
  { name: 'W pool: shared, kept tabs, 50 ms quiet after load', pool: { prewarm: true, shareContexts: true, loadQuietMs: 50 } },
  { name: 'X pool: shared, kept tabs, headless shell', pool: { prewarm: true, shareContexts: true }, executable: HEADLESS_SHELL_PATH },
  { name: 'Y a on the headless shell', raw: BASE, executable: HEADLESS_SHELL_PATH },
  { name: 'v pool: reused, fewer renderer processes', pool: { prewarm: true, reuseContexts: true }, args: [...DEFAULT_CHROMIUM_ARGS, ...FEWER_PROCESSES] },
];

const selected = values.only ? VARIANTS.filter((v) => values.only.split(',').some((o) => v.name.startsWith(o))) : VARIANTS;
const site = await startCorpusSite(loadCorpusPages(root, PAGES), { sameOriginOnly: true });
const policy = new AddressGuard({ allowPrivateAddresses: true });
const meter = new CpuMeter(-1);
const desktop = DEVICE_PROFILES.desktop;

/** The page each worker keeps with `reusePage`. */
const workerPages = new Map<number, { page: Page; session: CDPSession }>();

async function renderReused(context: BrowserContext, worker: number, url: string, f: RawFactors): Promise<number> {
  let kept = workerPages.get(worker);
  if (!kept || kept.page.isClosed()) {
    const page = await context.newPage();
    kept = { page, session: await context.newCDPSession(page) };
    workerPages.set(worker, kept);
  }
  const { page, session } = kept;
  if (f.freezeBetween) await session.send('Page.setWebLifecycleState', { state: 'active' });
  await page.goto(url, { waitUntil: 'load', timeout: 30_000 });
  const length = (await page.content()).length;
  if (f.blankBetween) await page.goto('about:blank');
  if (f.freezeBetween) await session.send('Page.setWebLifecycleState', { state: 'frozen' });
  return length;
}

async function renderRaw(browser: Browser, shared: BrowserContext | null, f: RawFactors, url: string): Promise<number> {
  const guard = f.guardProxy ? await GuardProxy.start() : null;
  guard?.assign(new HostPolicy(policy, systemResolve, false), null);
  const context =
    shared ??
    (await browser.newContext({
      ...(f.emulation ? contextDeviceOptions(desktop) : {}),
      ...(guard ? { proxy: { server: guard.url, bypass: '<-loopback>' } } : {}),
      serviceWorkers: 'block',
    }));
  let page: Page | undefined;
  try {
    page = await context.newPage();
    const quietSession = f.networkQuiet ? await context.newCDPSession(page) : null;
    await quietSession?.send('Network.enable');
    const activity = quietSession ? new NetworkActivity(quietSession) : null;
    if (f.cdpBlocking || f.emulation) {
      const session = quietSession ?? (await context.newCDPSession(page));
      if (f.emulation) await applyUserAgentOverride(session, desktop, DEFAULT_ACCEPT_LANGUAGE);
      if (f.cdpBlocking) await blockHeavyResources(session);
    }
    await page.goto(url, { waitUntil: 'load', timeout: 30_000 });
    if (activity) await activity.waitForQuiet(500, performance.now() + 3_000);
    return (await page.content()).length;
  } finally {
    if (shared) await page?.close();
    else await context.close();
    await guard?.close();
  }
}

/** Each variant's run: 4 workers over the URLs; returns per-page latencies. */
async function runVariant(v: Variant): Promise<{ latencies: number[]; seconds: number; chromiumCpu: number; nodeCpu: number; tabReuse: string }> {
  const args = v.args ?? [...DEFAULT_CHROMIUM_ARGS];
  let render: (url: string, worker: number) => Promise<number>;
  let stop: () => Promise<void>;
  /** Jobs that ran in a kept tab, for pool variants. */
  let reusedTabs = (): number | null => null;
  if (v.pool) {
    const pool = new ChromiumPool({
      executablePath: v.executable ?? CHROMIUM, maxContexts: CONCURRENCY, pagesPerBrowser: 10_000, allowPrivateAddresses: true,
      prewarm: v.pool.prewarm, launchArgs: args,
      ...(v.pool.reuseContexts !== undefined ? { reuseContexts: v.pool.reuseContexts } : {}),
      ...(v.pool.shareContexts !== undefined ? { shareContexts: v.pool.shareContexts } : {}),
      ...(v.pool.reuseTabs !== undefined ? { reuseTabs: v.pool.reuseTabs } : {}),
    });
    const { networkIdleMs, loadQuietMs, blockResources } = v.pool;
    render = async (url) =>
      (await pool.render({
        url, timeoutMs: 30_000, isolationKey: 'bench',
        ...(networkIdleMs !== undefined ? { networkIdleMs } : {}),
        ...(loadQuietMs !== undefined ? { loadQuietMs } : {}),
        ...(blockResources !== undefined ? { blockResources } : {}),
      })).html.length;
    stop = () => pool.close();
    reusedTabs = () => pool.stats().reusedTabs;
  } else {
    const raw = v.raw as RawFactors;
    const browser = await chromium.launch({ executablePath: v.executable ?? CHROMIUM, headless: true, args });
    const contexts = raw.sharedContext
      ? await Promise.all(
          Array.from({ length: raw.contextPerWorker ? CONCURRENCY : 1 }, async () =>
            browser.newContext({ ...(raw.guardProxy ? await sharedProxy() : {}), ...(raw.viewport ? { viewport: raw.viewport } : {}) }),
          ),
        )
      : [];
    render = (url, worker) =>
      raw.reusePage ? renderReused(contexts[worker % contexts.length], worker, url, raw) : renderRaw(browser, contexts.length > 0 ? contexts[worker % contexts.length] : null, raw, url);
    stop = () => {
      workerPages.clear();
      return browser.close();
    };
  }
  try {
    await Promise.all(site.urls.slice(0, CONCURRENCY).map((u, i) => render(u, i))); // launch + warm-up, not measured
    const latencies: number[] = [];
    const reusedBefore = reusedTabs();
    const t0 = performance.now();
    const { cpu } = await meter.measure(async () => {
      let next = 0;
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async (_, worker) => {
          while (next < site.urls.length) {
            const url = site.urls[next++];
            const t = performance.now();
            if ((await render(url, worker)) < 100) throw new Error(`${v.name}: ${url} rendered nothing`);
            latencies.push(performance.now() - t);
          }
        }),
      );
    });
    const reused = reusedTabs();
    const tabReuse = reused === null || reusedBefore === null ? '' : `${Math.round((100 * (reused - reusedBefore)) / latencies.length)} %`;
    return { latencies, seconds: (performance.now() - t0) / 1000, chromiumCpu: cpu.benchChildren, nodeCpu: cpu.bench, tabReuse };
  } finally {
    await stop();
  }
}

let sharedGuard: GuardProxy | null = null;
async function sharedProxy(): Promise<{ proxy: { server: string; bypass: string } }> {
  sharedGuard ??= await GuardProxy.start();
  sharedGuard.assign(new HostPolicy(policy, systemResolve, false), null);
  return { proxy: { server: sharedGuard.url, bypass: '<-loopback>' } };
}

const rows: Record<string, string | number>[] = [];
try {
  console.log(`${site.urls.length} pages, ${CONCURRENCY} at a time; load: ${os.loadavg().map((l) => l.toFixed(2)).join(', ')}`);
  for (let round = 1; round <= ROUNDS; round++) {
    for (const v of round % 2 === 1 ? selected : [...selected].reverse()) {
      const r = await runVariant(v);
      rows.push({
        round,
        variant: v.name,
        'pages/s': Number((r.latencies.length / r.seconds).toFixed(2)),
        'p50 ms': quantile(r.latencies, 0.5),
        'chromium cpu s/page': Number((r.chromiumCpu / r.latencies.length).toFixed(3)),
        'node cpu s/page': Number((r.nodeCpu / r.latencies.length).toFixed(3)),
        'kept tab used': r.tabReuse,
        load1: Number(os.loadavg()[0].toFixed(2)),
      });
    }
  }
  console.table(rows);
  console.log(JSON.stringify({ bench: 'render-factors', pages: site.urls.length, rows }));
} finally {
  await (sharedGuard as GuardProxy | null)?.close();
  await site.close();
}
