/**
 * Plain-HTTP `/crawl` throughput beside Crawlee's CheerioCrawler, on the same real pages (the Zyte corpus served from
 * a loopback site), in the same run, interleaved so machine load hits both sides.
 *
 * Trawl: the standalone process (gateway + worker-http) on a fresh database; every page goes through auth, the
 * concurrency gate, credit reservation/settlement, BullMQ, fetch and the default formats (enhanced_html + markdown).
 * Two client shapes: one URL per request at C requests in flight, and batches of 20 URLs per request.
 *
 * Crawlee (in this process), at its best rather than its defaults: CheerioCrawler at a fixed concurrency
 * (minConcurrency = maxConcurrency = C, so its autoscaler does not start at 1 and ramp up by 5 % every 10 s), no
 * retries, its request queue and statistics in memory (`persistStorage: false`: by default Crawlee writes every
 * request to disk). Handlers, each a separate pass:
 *   parse     - Crawlee fetches and cheerio-parses the page; the handler reads <title> (no output formats);
 *   turndown  - plus `$.html()` (the whole document re-serialised) and turndown + GFM Markdown of `$('body').html()`;
 *   mdream    - plus `$.html()` and Markdown of `$('body').html()` with Trawl's own mdream converter.
 *
 * Every measured run lasts at least --duration seconds (default 20), so that start-up (the crawler's, the first
 * connections) does not count: the page list is crawled again as many times as the side's last measured rate says
 * fills the duration (Crawlee gets each pass under its own uniqueKey, since its queue drops URLs it has seen), and a
 * run that still ends early (the machine's load moved) is topped up with more passes.
 *
 *   npm run build && node dist/bench/crawl/crawlee-compare.js [--pages=200] [--rounds=2] [--concurrency=20,50]
 *     [--batch-clients=2,10] [--handlers=parse,turndown,mdream] [--duration=20] [--extraction-threads=N]
 *     [--trawl-node-args=...]
 * Needs the corpus (../shared/corpus), Postgres and Redis: BENCH_PG_ADMIN_URL (default
 * postgresql://postgres@127.0.0.1:5432/postgres), BENCH_REDIS_URL (default redis://127.0.0.1:6379).
 */
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { CheerioCrawler, Configuration, LogLevel, MemoryStorage, log } from 'crawlee';
import TurndownService from 'turndown';
import gfmPlugin from 'turndown-plugin-gfm';
import { Pool } from 'undici';
import { markdownConverter } from '#extraction';
import {
  chunk,
  CpuMeter,
  crawlThroughTrawl,
  loadCorpusPages,
  type TrawlPass,
  quantile,
  startCorpusSite,
  startTrawlStandalone,
} from '../support/corpus-site.js';

const { values } = parseArgs({
  options: {
    pages: { type: 'string', default: '200' },
    rounds: { type: 'string', default: '2' },
    concurrency: { type: 'string', default: '20,50' },
    'batch-clients': { type: 'string', default: '2,10' },
    'batch-size': { type: 'string', default: '20' },
    handlers: { type: 'string', default: 'parse,turndown,mdream' },
    /** Minimum seconds per measured run (each side crawls the pages again as often as that takes). */
    duration: { type: 'string', default: '20' },
    'extraction-threads': { type: 'string' },
    /** Node flags for the Trawl process only, space-separated: `--cpu-prof --cpu-prof-dir=/tmp/prof` shows where its CPU goes. */
    'trawl-node-args': { type: 'string' },
  },
});
const PAGES = Number(values.pages);
const ROUNDS = Number(values.rounds);
const CONCURRENCY = values.concurrency.split(',').map(Number);
const BATCH_CLIENTS = values['batch-clients'].split(',').filter(Boolean).map(Number);
const BATCH_SIZE = Number(values['batch-size']);
const DURATION_S = Number(values.duration);
type HandlerName = 'parse' | 'turndown' | 'mdream';
const HANDLERS = values.handlers.split(',').filter(Boolean) as HandlerName[];
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

log.setLevel(LogLevel.ERROR);

const pages = loadCorpusPages(root, PAGES);
const site = await startCorpusSite(pages);
const trawl = await startTrawlStandalone({
  repoRoot: root,
  pgAdminUrl: process.env.BENCH_PG_ADMIN_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres',
  redisUrl: process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379',
  env: {
    STANDALONE_WORKERS: 'http',
    ...(values['extraction-threads'] !== undefined ? { EXTRACTION_THREADS: values['extraction-threads'] } : {}),
  },
  nodeArgs: values['trawl-node-args']?.split(' ').filter(Boolean),
});
const api = new Pool(trawl.baseUrl, { connections: Math.max(...CONCURRENCY, ...BATCH_CLIENTS, 1) });

/** Pages/s last measured per side and configuration: how many passes over the pages fill DURATION_S next time. */
const lastRate = new Map<string, number>();
const passesFor = (key: string): number => passesAt(lastRate.get(key) ?? 0, DURATION_S);

function mergePasses(parts: TrawlPass[]): TrawlPass {
  const sum = (f: (p: TrawlPass) => number): number => parts.reduce((n, p) => n + f(p), 0);
  const seconds = sum((p) => p.seconds);
  return {
    pages: sum((p) => p.pages),
    ok: sum((p) => p.ok),
    failed: sum((p) => p.failed),
    seconds,
    pagesPerSecond: sum((p) => p.ok) / seconds,
    requestMs: parts.flatMap((p) => p.requestMs),
    markdownChars: sum((p) => p.markdownChars),
    errors: parts.flatMap((p) => p.errors).slice(0, 5),
  };
}

interface Row {
  round: number;
  side: string;
  shape: string;
  conc: number;
  ok: number;
  failed: number;
  seconds: number;
  'pages/s': number;
  'p50 ms': number;
  /** What the p50 is of. */
  'p50 of': string;
  'md KB/page': number;
  /**
   * CPU seconds in the window: the Trawl process, this process (site + load generator, or site + Crawlee), and the
   * shared Postgres + Redis (an upper bound: other users of the machine count too); pages per CPU second of all three.
   */
  'trawl cpu s': number;
  'bench cpu s': number;
  'pg+redis cpu s': number;
  'pages/cpu-s': number;
  load1: number;
}

interface Window {
  trawlCpu: number;
  benchCpu: number;
  servicesCpu: number;
  load1: number;
}

const round2 = (n: number): number => Number(n.toFixed(2));
const cpuMeter = new CpuMeter(trawl.pid);

/** Runs `work`, measuring the CPU it costs Trawl, this process and the services, and the 1-minute load at start. */
async function measured<T>(work: () => Promise<T>): Promise<{ result: T } & Window> {
  const load1 = round2(os.loadavg()[0]);
  const { result, cpu } = await cpuMeter.measure(work);
  // Trawl's process is a child of this one: the bench side is this process and its children less Trawl's tree.
  const benchCpu = round2(cpu.bench + cpu.benchChildren);
  return { result, trawlCpu: round2(cpu.trawl + cpu.trawlChildren), benchCpu, servicesCpu: cpu.services, load1 };
}

function cpuColumns(ok: number, w: Window): Pick<Row, 'trawl cpu s' | 'bench cpu s' | 'pg+redis cpu s' | 'pages/cpu-s' | 'load1'> {
  return {
    'trawl cpu s': w.trawlCpu,
    'bench cpu s': w.benchCpu,
    'pg+redis cpu s': w.servicesCpu,
    'pages/cpu-s': Math.round(ok / Math.max(0.01, w.trawlCpu + w.benchCpu + w.servicesCpu)),
    load1: w.load1,
  };
}

/** Passes over the pages that the rate says fill `seconds` (10 % over, so a run a little faster still lasts it). */
const passesAt = (rate: number, seconds: number): number => Math.max(1, Math.ceil((seconds * rate * 1.1) / site.urls.length));

async function trawlRow(round: number, shape: 'per-url' | 'batch', conc: number, urls: string[]): Promise<Row> {
  const rateKey = `trawl|${shape}|${conc}`;
  const groupsFor = (passes: number): string[][] => {
    const repeated = Array.from({ length: passes }, () => urls).flat();
    return shape === 'per-url' ? repeated.map((u) => [u]) : chunk(repeated, BATCH_SIZE);
  };
  const { result: r, ...window } = await measured(async () => {
    // A run that ends before the duration (the load moved since the rate was measured) is topped up.
    const parts: TrawlPass[] = [await crawlThroughTrawl(api, trawl.apiKey, groupsFor(passesFor(rateKey)), conc)];
    for (let s = parts[0].seconds; s < DURATION_S; s += parts[parts.length - 1].seconds) {
      parts.push(await crawlThroughTrawl(api, trawl.apiKey, groupsFor(passesAt(parts[parts.length - 1].pagesPerSecond, DURATION_S - s)), conc));
    }
    return mergePasses(parts);
  });
  lastRate.set(rateKey, r.pagesPerSecond);
  if (r.errors.length > 0) console.error(`trawl ${shape} c${conc}: ${r.failed} failed, e.g. ${r.errors.join(' | ')}`);
  return {
    round,
    side: 'trawl',
    shape: shape === 'per-url' ? '1 URL/request' : `${BATCH_SIZE} URLs/request`,
    conc,
    ok: r.ok,
    failed: r.failed,
    seconds: Number(r.seconds.toFixed(2)),
    'pages/s': Math.round(r.pagesPerSecond),
    'p50 ms': quantile(r.requestMs, 0.5),
    'p50 of': shape === 'per-url' ? 'request (1 page)' : `request (${BATCH_SIZE} pages)`,
    'md KB/page': Number((r.markdownChars / Math.max(1, r.ok) / 1024).toFixed(1)),
    ...cpuColumns(r.ok, window),
  };
}

const turndown = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-' });
turndown.use(gfmPlugin.gfm);
turndown.remove(['script', 'style', 'noscript', 'template', 'iframe']);
const mdream = markdownConverter('mdream');

let sink = 0; // keeps the handlers' outputs observable
async function crawleeRow(round: number, handler: HandlerName, conc: number, urls: string[], passes?: number): Promise<Row> {
  const rateKey = `crawlee|${handler}|${conc}`;
  const started = new Map<string, number>(); // by uniqueKey
  const latencies: number[] = [];
  let markdownChars = 0;
  let failed = 0;
  let runs = 0;
  const crawl = async (count: number): Promise<number> => {
    const run = ++runs;
    // Each pass under its own uniqueKey: the request queue skips a URL it has already handled.
    const requests = Array.from({ length: count }, (_, pass) => urls.map((url) => ({ url, uniqueKey: `${run}|${pass}|${url}` }))).flat();
    // In memory, and a storage of its own per run: a request queue that already handled these URLs would skip them.
    const config = new Configuration({ persistStorage: false, storageClient: new MemoryStorage({ persistStorage: false }) });
    const crawler = new CheerioCrawler(
      {
        minConcurrency: conc,
        maxConcurrency: conc,
        maxRequestRetries: 0,
        requestHandlerTimeoutSecs: 60,
        preNavigationHooks: [({ request }) => void started.set(request.uniqueKey, performance.now())],
        requestHandler: ({ $, request }) => {
          if (handler === 'parse') {
            sink += $('title').text().length; // parse only: no output formats
          } else {
            sink += $.html().length; // the HTML output: the whole document, re-serialised
            const body = $('body').html() ?? '';
            markdownChars += (handler === 'turndown' ? turndown.turndown(body) : mdream.convert(body)).length;
          }
          latencies.push(performance.now() - (started.get(request.uniqueKey) ?? performance.now()));
        },
        failedRequestHandler: ({ request }, error) => {
          failed++;
          if (failed <= 3) console.error(`crawlee ${handler}: ${request.url}: ${error.message}`);
        },
      },
      config,
    );
    const t0 = performance.now();
    await crawler.run(requests);
    return (performance.now() - t0) / 1000;
  };
  const { result: seconds, ...window } = await measured(async () => {
    if (passes !== undefined) return crawl(passes);
    // A run that ends before the duration (the load moved since the rate was measured) is topped up.
    let total = await crawl(passesFor(rateKey));
    while (total < DURATION_S) total += await crawl(passesAt(latencies.length / total, DURATION_S - total));
    return total;
  });
  const ok = latencies.length;
  if (passes === undefined) lastRate.set(rateKey, ok / seconds);
  return {
    round,
    side: `crawlee cheerio/${handler}`,
    shape: 'crawler',
    conc,
    ok,
    failed,
    seconds: Number(seconds.toFixed(2)),
    'pages/s': Math.round(ok / seconds),
    'p50 ms': quantile(latencies, 0.5),
    'p50 of': 'page (fetch → handler end)',
    'md KB/page': Number((markdownChars / Math.max(1, ok) / 1024).toFixed(1)),
    ...cpuColumns(ok, window),
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
  })());
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    console.error(`${signal}: stopping Trawl, dropping its database`);
    void cleanup().finally(() => process.exit(130));
  });
}

const rows: Row[] = [];
try {
  console.log(`corpus: ${site.urls.length} URLs over ${site.distinct} distinct Zyte pages, ${(site.totalBytes / 1e6).toFixed(1)} MB; runs of ≥ ${DURATION_S} s; uptime: ${os.loadavg().map((l) => l.toFixed(2)).join(', ')}`);
  // Warm-up (not reported): JIT, connection pools, the auth cache, the converters; and a first rate per
  // configuration, from which the measured runs take their number of passes.
  for (const conc of CONCURRENCY) {
    const w = await crawlThroughTrawl(api, trawl.apiKey, site.urls.map((u) => [u]), conc);
    lastRate.set(`trawl|per-url|${conc}`, w.pagesPerSecond);
    for (const h of HANDLERS) {
      const row = await crawleeRow(0, h, conc, site.urls, 2);
      lastRate.set(`crawlee|${h}|${conc}`, row['pages/s']);
    }
  }
  for (const clients of BATCH_CLIENTS) {
    const w = await crawlThroughTrawl(api, trawl.apiKey, chunk(site.urls, BATCH_SIZE), clients);
    lastRate.set(`trawl|batch|${clients}`, w.pagesPerSecond);
  }

  for (let round = 1; round <= ROUNDS; round++) {
    const trawlFirst = round % 2 === 1; // alternate which side goes first so drifting load does not favour one
    for (const conc of CONCURRENCY) {
      const trawlSide = async () => rows.push(await trawlRow(round, 'per-url', conc, site.urls));
      const crawleeSide = async () => {
        for (const h of HANDLERS) rows.push(await crawleeRow(round, h, conc, site.urls));
      };
      if (trawlFirst) {
        await trawlSide();
        await crawleeSide();
      } else {
        await crawleeSide();
        await trawlSide();
      }
    }
    for (const clients of BATCH_CLIENTS) rows.push(await trawlRow(round, 'batch', clients, site.urls));
  }

  console.table(rows);
  const median = (xs: number[]): number => {
    const sorted = [...xs].sort((a, b) => a - b);
    const mid = sorted.length / 2;
    return Math.round(Number.isInteger(mid) ? (sorted[mid - 1] + sorted[mid]) / 2 : sorted[Math.floor(mid)]);
  };
  // Medians over the rounds of each configuration.
  const keys = [...new Set(rows.map((r) => `${r.side}|${r.shape}|${r.conc}`))];
  const summary = keys.map((key) => {
    const of = rows.filter((r) => `${r.side}|${r.shape}|${r.conc}` === key);
    return {
      side: of[0].side,
      shape: of[0].shape,
      conc: of[0].conc,
      'median pages/s': median(of.map((r) => r['pages/s'])),
      'range pages/s': `${Math.min(...of.map((r) => r['pages/s']))}–${Math.max(...of.map((r) => r['pages/s']))}`,
      'median p50 ms': median(of.map((r) => r['p50 ms'])),
      'median pages/cpu-s': median(of.map((r) => r['pages/cpu-s'])),
    };
  });
  console.table(summary);
  // Ratios per round: Trawl over each Crawlee handler at the same concurrency (1 URL/request), and Trawl's best
  // batched shape over Crawlee's best concurrency for that handler.
  const ratios: Array<Record<string, string | number>> = [];
  const pps = (round: number, side: string, pred: (r: Row) => boolean): number =>
    Math.max(...rows.filter((r) => r.round === round && r.side === side && pred(r)).map((r) => r['pages/s']));
  for (let round = 1; round <= ROUNDS; round++) {
    for (const conc of [...CONCURRENCY, 'best'] as const) {
      const t =
        conc === 'best'
          ? pps(round, 'trawl', (r) => r.shape !== '1 URL/request')
          : pps(round, 'trawl', (r) => r.shape === '1 URL/request' && r.conc === conc);
      const ratio: Record<string, string | number> = {
        round,
        trawl: conc === 'best' ? 'best batched' : `1 URL/request c${conc}`,
        'trawl pages/s': t,
        crawlee: conc === 'best' ? 'best c' : `c${conc}`,
      };
      for (const h of HANDLERS) {
        const c = pps(round, `crawlee cheerio/${h}`, (r) => conc === 'best' || r.conc === conc);
        ratio[`× ${h}`] = round2(t / c);
      }
      ratios.push(ratio);
    }
  }
  console.table(ratios);
  console.log(JSON.stringify({ bench: 'crawlee-compare', pages: site.urls.length, distinct: site.distinct, rows, summary, ratios }));
  console.log(`site requests served: ${site.requests()} (output chars ${sink}); uptime now: ${os.loadavg().map((l) => l.toFixed(2)).join(', ')}`);
} finally {
  await cleanup();
}
