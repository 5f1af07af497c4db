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
 * Crawlee's pages/s is timed from its first navigation to its last handler end (the browser launch is left out, as
 * Trawl's browser is warm); `wall s` includes the launch. Crawlee's Chromium gets `--host-resolver-rules` so the
 * pages' external hosts fail at once, as they do behind Trawl's guard proxy (`--crawlee-dns=system` to drop it).
 *
 *   npm run build && node dist/bench/crawl/render-compare.js [--pages=40] [--rounds=2] [--handlers=load,networkidle]
 *     [--chromium=/usr/bin/chromium] [--crawlee-dns=fail-fast|system]
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
    'crawlee-dns': { type: 'string', default: 'fail-fast' },
  },
});
const PAGES = Number(values.pages);
const ROUNDS = Number(values.rounds);
const CONCURRENCY = 4;
const BATCH_SIZE = 20;
const BATCH_CLIENTS = 2;
type HandlerName = 'load' | 'networkidle';
const HANDLERS = values.handlers.split(',').filter(Boolean) as HandlerName[];
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  // Trawl's Chromium sends every request through its guard proxy, whose lookup (getaddrinfo) fails at once for the
  // corpus pages' external hosts on this offline machine; Crawlee's Chromium resolves names itself and waits up to
  // ~5 s per host here. Failing external names at once for Crawlee too compares rendering, not this sandbox's DNS.
  ...(values['crawlee-dns'] === 'fail-fast' ? ['--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1'] : []),
];
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

const storageDir = mkdtempSync(path.join(os.tmpdir(), 'render-compare-'));
process.env.CRAWLEE_STORAGE_DIR = storageDir;
log.setLevel(LogLevel.ERROR);

const pages = loadCorpusPages(root, PAGES);
const site = await startCorpusSite(pages);
const trawl = await startTrawlStandalone({
  repoRoot: root,
  pgAdminUrl: process.env.BENCH_PG_ADMIN_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres',
  redisUrl: process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379',
  env: { STANDALONE_WORKERS: 'http,render', WORKER_RENDER_CONCURRENCY: String(CONCURRENCY), CHROMIUM_PATH: values.chromium },
});
const api = new Pool(trawl.baseUrl, { connections: CONCURRENCY });

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
  /** CPU seconds in the window: Trawl and its Chromium; this process and Crawlee's Chromium; shared Postgres + Redis. */
  'trawl cpu s': number;
  'bench cpu s': number;
  'pg+redis cpu s': number;
  load1: number;
}

const round2 = (n: number): number => Number(n.toFixed(2));

const cpuMeter = new CpuMeter(trawl.pid);

async function measured<T>(work: () => Promise<T>) {
  const load1 = round2(os.loadavg()[0]);
  const { result, cpu } = await cpuMeter.measure(work);
  return { result, cpu: { 'trawl cpu s': cpu.trawl, 'bench cpu s': cpu.bench, 'pg+redis cpu s': cpu.services, load1 } };
}

async function trawlRow(round: number, shape: 'per-url' | 'batch', urls: string[]): Promise<Row> {
  const groups = shape === 'per-url' ? urls.map((u) => [u]) : chunk(urls, BATCH_SIZE);
  const clients = shape === 'per-url' ? CONCURRENCY : BATCH_CLIENTS;
  const { result: r, cpu } = await measured(() => crawlThroughTrawl(api, trawl.apiKey, groups, clients, '&render_js=true'));
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
        launchOptions: { executablePath: values.chromium, headless: true, args: CHROMIUM_ARGS },
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
  const { result: wall, cpu } = await measured(async () => {
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
  };
}

const rows: Row[] = [];
try {
  console.log(`corpus: ${site.urls.length} URLs over ${site.distinct} distinct Zyte pages; uptime: ${os.loadavg().map((l) => l.toFixed(2)).join(', ')}`);
  // Warm-up (not reported): launches Trawl's Chromium, JIT, the auth cache; Crawlee's own code paths.
  await crawlThroughTrawl(api, trawl.apiKey, site.urls.slice(0, 8).map((u) => [u]), CONCURRENCY, '&render_js=true');
  await crawleeRow(0, 'load', site.urls.slice(0, 8));

  for (let round = 1; round <= ROUNDS; round++) {
    const trawlSide = async () => {
      rows.push(await trawlRow(round, 'per-url', site.urls));
      rows.push(await trawlRow(round, 'batch', site.urls));
    };
    const crawleeSide = async () => {
      for (const h of HANDLERS) rows.push(await crawleeRow(round, h, site.urls));
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
    }
    return ratio;
  });
  console.table(ratios);
  console.log(JSON.stringify({ bench: 'render-compare', pages: site.urls.length, rows, ratios }));
  console.log(`site requests served: ${site.requests()} (output chars ${sink}); uptime now: ${os.loadavg().map((l) => l.toFixed(2)).join(', ')}`);
} finally {
  await api.close();
  await trawl.stop();
  await site.close();
  rmSync(storageDir, { recursive: true, force: true });
}
