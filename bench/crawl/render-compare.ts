/**
 * Rendered `/crawl?render_js=true` beside Crawlee's PlaywrightCrawler on the same real pages (the Zyte corpus from a
 * loopback site), in the same run, interleaved so machine load hits both sides. Both drive /usr/bin/chromium headless
 * with 4 pages at a time.
 *
 * Trawl: the standalone process (gateway + worker-http + worker-render, WORKER_RENDER_CONCURRENCY=4) on a fresh
 * database; each page: a fresh browser context, navigation, `load` then 500 ms of network quiet (capped), images /
 * media / fonts blocked, then the default formats (enhanced_html + markdown via mdream). Client shapes: 1 URL per
 * request at 4 in flight, and batches of 20 URLs per request, 2 in flight.
 *
 * Crawlee (in this process): PlaywrightCrawler with playwright-core's chromium as launcher (no `playwright` package,
 * no browser download), minConcurrency = maxConcurrency = 4, no retries, its defaults otherwise (shared browser
 * context, fingerprints on, nothing blocked). Handlers, each a separate pass:
 *   load         - after Crawlee's navigation (waits for `load`): `page.content()` and turndown + GFM Markdown of
 *                  `document.body.innerHTML`;
 *   networkidle  - the same after also waiting for Playwright's `networkidle` (500 ms without requests), which is
 *                  what Trawl waits for.
 * Before the measured rounds, each side crawls the same documents once under other URLs (warm-up, not reported).
 * Crawlee's pages/s is timed from its first navigation to its last handler end (the browser launch is left out, as
 * Trawl's browser is warm); `wall s` includes the launch.
 *
 * The site sends a same-origin Content-Security-Policy with each page, so both browsers refuse the pages' third-party
 * resources at once: this machine is offline, and unreachable hosts otherwise cost seconds per page in a way that
 * depends on each stack's proxy (Crawlee always launches Chromium behind a local proxy-chain server, which aborts
 * the CONNECT on a failed lookup; measured 5–30 s per page here) rather than on rendering. `--no-csp` drops it.
 *
 *   npm run build && node dist/bench/crawl/render-compare.js [--pages=40] [--rounds=2] [--handlers=load,networkidle]
 *     [--chromium=/usr/bin/chromium] [--trawl-chromium=PATH] [--crawlee-chromium=PATH] [--no-csp]
 *     [--trawl-cpu-prof=DIR] [--shapes=per-url,batch]
 * Trawl renders with worker-render's default binary (chromium-headless-shell when installed, else --chromium) unless
 * --trawl-chromium; Crawlee with --chromium unless --crawlee-chromium (Playwright's own headless default is the
 * headless shell: --crawlee-chromium=/usr/lib/chromium/chromium-headless-shell compares like with like).
 * `--trawl-cpu-prof` writes a V8 CPU profile of Trawl's process to DIR when it stops (Node's --cpu-prof).
 * Needs the corpus, Chromium, Postgres and Redis (BENCH_PG_ADMIN_URL, BENCH_REDIS_URL as crawlee-compare.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Configuration, LogLevel, MemoryStorage, PlaywrightCrawler, log } from 'crawlee';
import { chromium } from 'playwright-core';
import TurndownService from 'turndown';
import gfmPlugin from 'turndown-plugin-gfm';
import { Pool } from 'undici';
import { DEFAULT_CHROMIUM_ARGS, renderExecutable } from '#browser';
import {
  chunk,
  CpuMeter,
  crawlThroughTrawl,
  loadCorpusPages,
  quantile,
  startCorpusSite,
  startTrawlStandalone,
} from '../support/corpus-site.js';

const { values } = parseArgs({
  options: {
    pages: { type: 'string', default: '40' },
    rounds: { type: 'string', default: '2' },
    handlers: { type: 'string', default: 'load,networkidle' },
    chromium: { type: 'string', default: '/usr/bin/chromium' },
    'trawl-chromium': { type: 'string', default: '' },
    'crawlee-chromium': { type: 'string', default: '' },
    'no-csp': { type: 'boolean', default: false },
    'trawl-cpu-prof': { type: 'string', default: '' },
    shapes: { type: 'string', default: 'per-url,batch' },
  },
});
const PAGES = Number(values.pages);
const ROUNDS = Number(values.rounds);
const CONCURRENCY = 4;
const BATCH_SIZE = 20;
const BATCH_CLIENTS = 2;
type HandlerName = 'load' | 'networkidle';
const SHAPES = values.shapes.split(',').filter((s): s is 'per-url' | 'batch' => s === 'per-url' || s === 'batch');
const HANDLERS = values.handlers.split(',').filter(Boolean) as HandlerName[];
// Crawlee's Chromium gets the same flags as Trawl's.
const CHROMIUM_ARGS = [...DEFAULT_CHROMIUM_ARGS];
// Which binary each side renders with: Trawl's worker-render default (the headless shell when installed, see
// renderExecutable) unless --trawl-chromium; Crawlee the --chromium binary unless --crawlee-chromium.
const TRAWL_CHROMIUM = renderExecutable(values['trawl-chromium'] || undefined, values.chromium);
const CRAWLEE_CHROMIUM = values['crawlee-chromium'] || values.chromium;
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

log.setLevel(LogLevel.ERROR);

const pages = loadCorpusPages(root, PAGES);
// Every document twice: the measured URLs, and as many others for the warm-up (the same documents under other URLs,
// so the warm-up warms code, not a cache the measured pages could hit).
const site = await startCorpusSite([...pages, ...pages], { sameOriginOnly: !values['no-csp'] });
const measuredUrls = site.urls.slice(0, PAGES);
const warmUpUrls = site.urls.slice(PAGES);
const trawl = await startTrawlStandalone({
  repoRoot: root,
  pgAdminUrl: process.env.BENCH_PG_ADMIN_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres',
  redisUrl: process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379',
  env: { STANDALONE_WORKERS: 'http,render', WORKER_RENDER_CONCURRENCY: String(CONCURRENCY), CHROMIUM_PATH: values.chromium, RENDER_CHROMIUM_PATH: TRAWL_CHROMIUM },
  ...(values['trawl-cpu-prof'] ? { nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${path.resolve(values['trawl-cpu-prof'])}`] } : {}),
});
const api = new Pool(trawl.baseUrl, { connections: CONCURRENCY });
// Crawlee's storage (request queues, statistics) goes to a temp dir, removed at the end.
const storageDir = mkdtempSync(path.join(os.tmpdir(), 'render-compare-'));
process.env.CRAWLEE_STORAGE_DIR = storageDir;

interface Row {
  round: number;
  side: string;
  shape: string;
  ok: number;
  failed: number;
  'wall s': number;
  'pages/s': number;
  'p50 ms': number;
  'p90 ms': number;
  'p50 of': string;
  'md KB/page': number;
  /** CPU seconds in the window: Trawl's process and its Chromium; this process (site + load generator or Crawlee) and
   *  Crawlee's Chromium; the shared Postgres + Redis. */
  'trawl node cpu s': number;
  'trawl chromium cpu s': number;
  'bench node cpu s': number;
  'bench chromium cpu s': number;
  'pg+redis cpu s': number;
  /** All the CPU above per page rendered. */
  'cpu s/page': number;
  load1: number;
}

const round2 = (n: number): number => Number(n.toFixed(2));

const cpuMeter = new CpuMeter(trawl.pid);

async function measured<T>(work: () => Promise<T>) {
  const load1 = round2(os.loadavg()[0]);
  const { result, cpu } = await cpuMeter.measure(work);
  const total = cpu.trawl + cpu.trawlChildren + cpu.bench + cpu.benchChildren + cpu.services;
  return {
    result,
    total,
    cpu: {
      'trawl node cpu s': cpu.trawl,
      'trawl chromium cpu s': cpu.trawlChildren,
      'bench node cpu s': cpu.bench,
      'bench chromium cpu s': cpu.benchChildren,
      'pg+redis cpu s': cpu.services,
      load1,
    },
  };
}

async function trawlRow(round: number, shape: 'per-url' | 'batch', urls: string[]): Promise<Row> {
  const groups = shape === 'per-url' ? urls.map((u) => [u]) : chunk(urls, BATCH_SIZE);
  const clients = shape === 'per-url' ? CONCURRENCY : BATCH_CLIENTS;
  const { result: r, cpu, total } = await measured(() => crawlThroughTrawl(api, trawl.apiKey, groups, clients, '&render_js=true'));
  if (r.errors.length > 0) console.error(`trawl ${shape}: ${r.failed} failed, e.g. ${r.errors.join(' | ')}`);
  return {
    round,
    side: 'trawl render_js',
    shape: shape === 'per-url' ? `1 URL/request, ${clients} in flight` : `${BATCH_SIZE} URLs/request, ${clients} in flight`,
    ok: r.ok,
    failed: r.failed,
    'wall s': round2(r.seconds),
    'pages/s': round2(r.pagesPerSecond),
    'p50 ms': quantile(r.requestMs, 0.5),
    'p90 ms': quantile(r.requestMs, 0.9),
    'p50 of': shape === 'per-url' ? 'request (1 page)' : `request (${BATCH_SIZE} pages)`,
    'md KB/page': Number((r.markdownChars / Math.max(1, r.ok) / 1024).toFixed(1)),
    ...cpu,
    'cpu s/page': round2(total / Math.max(1, r.ok)),
  };
}

const turndown = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-' });
turndown.use(gfmPlugin.gfm);
turndown.remove(['script', 'style', 'noscript', 'template', 'iframe']);

let crawleeRuns = 0;
let sink = 0; // keeps the handlers' outputs observable
async function crawleeRow(round: number, handler: HandlerName, urls: string[]): Promise<Row> {
  const started = new Map<string, number>();
  const latencies: number[] = [];
  let firstStart = Infinity;
  let lastEnd = 0;
  let markdownChars = 0;
  let failed = 0;
  const config = new Configuration({
    storageClient: new MemoryStorage({ localDataDirectory: path.join(storageDir, `run-${++crawleeRuns}`) }),
  });
  const crawler = new PlaywrightCrawler(
    {
      minConcurrency: CONCURRENCY,
      maxConcurrency: CONCURRENCY,
      maxRequestRetries: 0,
      navigationTimeoutSecs: 30,
      requestHandlerTimeoutSecs: 30,
      headless: true,
      launchContext: {
        launcher: chromium,
        launchOptions: { executablePath: CRAWLEE_CHROMIUM, headless: true, args: CHROMIUM_ARGS },
      },
      preNavigationHooks: [
        ({ request }) => {
          const now = performance.now();
          firstStart = Math.min(firstStart, now);
          started.set(request.url, now);
        },
      ],
      requestHandler: async ({ page, request }) => {
        if (handler === 'networkidle') await page.waitForLoadState('networkidle', { timeout: 10_000 }).catch(() => undefined);
        sink += (await page.content()).length;
        const body = await page.evaluate(() => document.body?.innerHTML ?? '');
        markdownChars += turndown.turndown(body).length;
        const end = performance.now();
        lastEnd = Math.max(lastEnd, end);
        latencies.push(end - (started.get(request.url) ?? end));
      },
      failedRequestHandler: ({ request }, error) => {
        failed++;
        if (failed <= 3) console.error(`crawlee ${handler}: ${request.url}: ${error.message}`);
      },
    },
    config,
  );
  const { result: wall, cpu, total } = await measured(async () => {
    const t0 = performance.now();
    await crawler.run(urls);
    return (performance.now() - t0) / 1000;
  });
  await crawler.teardown();
  const ok = latencies.length;
  const steady = (lastEnd - firstStart) / 1000;
  return {
    round,
    side: `crawlee playwright/${handler}`,
    shape: `crawler, ${CONCURRENCY} pages at a time`,
    ok,
    failed,
    'wall s': round2(wall),
    'pages/s': round2(ok / steady),
    'p50 ms': quantile(latencies, 0.5),
    'p90 ms': quantile(latencies, 0.9),
    'p50 of': 'page (navigation → handler end)',
    'md KB/page': Number((markdownChars / Math.max(1, ok) / 1024).toFixed(1)),
    ...cpu,
    'cpu s/page': round2(total / Math.max(1, ok)),
  };
}

// Stop what this run started, also when interrupted (Crawlee listens for SIGINT/SIGTERM, which keeps Node's
// default exit from happening).
let cleaned: Promise<void> | undefined;
const cleanup = (): Promise<void> =>
  (cleaned ??= (async () => {
    await api.close().catch(() => undefined);
    await trawl.stop();
    await site.close();
    rmSync(storageDir, { recursive: true, force: true });
  })());
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    console.error(`${signal}: stopping Trawl, dropping its database`);
    void cleanup().finally(() => process.exit(130));
  });
}

const rows: Row[] = [];
try {
  console.log(`chromium: Trawl ${TRAWL_CHROMIUM}, Crawlee ${CRAWLEE_CHROMIUM}`);
  console.log(`corpus: ${measuredUrls.length} URLs over ${site.distinct} distinct Zyte pages; uptime: ${os.loadavg().map((l) => l.toFixed(2)).join(', ')}`);
  // Warm-up (not reported), each side over every warm-up URL once: launches Trawl's Chromium and opens its tabs, JIT
  // of the gateway, workers and extraction threads, the auth cache; Crawlee's own code paths. With 8 pages only, the
  // first measured Trawl row (always 1 URL per request) still paid for warming up and the batched one did not.
  await crawlThroughTrawl(api, trawl.apiKey, warmUpUrls.map((u) => [u]), CONCURRENCY, '&render_js=true');
  await crawleeRow(0, 'load', warmUpUrls);

  for (let round = 1; round <= ROUNDS; round++) {
    const trawlSide = async () => {
        for (const shape of SHAPES) rows.push(await trawlRow(round, shape, measuredUrls));
    };
    const crawleeSide = async () => {
      for (const h of HANDLERS) rows.push(await crawleeRow(round, h, measuredUrls));
    };
    // Alternate which side goes first so drifting load does not favour one.
    if (round % 2 === 1) {
      await trawlSide();
      await crawleeSide();
    } else {
      await crawleeSide();
      await trawlSide();
    }
  }
  console.table(rows);
  const ratios = Array.from({ length: ROUNDS }, (_, i) => {
    const of = rows.filter((r) => r.round === i + 1);
    const t = of.find((r) => r.side === 'trawl render_js' && r.shape.startsWith('1 URL'));
    const ratio: Record<string, number> = { round: i + 1 };
    for (const h of HANDLERS) {
      const c = of.find((r) => r.side === `crawlee playwright/${h}`);
      if (!t || !c) continue;
      ratio[`pages/s × ${h}`] = round2(t['pages/s'] / c['pages/s']);
      ratio[`p50 × ${h}`] = round2(t['p50 ms'] / c['p50 ms']);
      ratio[`cpu/page × ${h}`] = round2(t['cpu s/page'] / c['cpu s/page']);
    }
    return ratio;
  });
  console.table(ratios);
  console.log(JSON.stringify({ bench: 'render-compare', pages: measuredUrls.length, rows, ratios }));
  console.log(`site requests served: ${site.requests()} (output chars ${sink}); uptime now: ${os.loadavg().map((l) => l.toFixed(2)).join(', ')}`);
} finally {
  await cleanup();
}
