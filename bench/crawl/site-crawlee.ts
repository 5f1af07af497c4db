/**
 * Site-crawl throughput on the generated crawl site (bench/support/crawl-site.ts, in a process of its own): Crawlee's
 * CheerioCrawler at its best — enqueueLinks with the same-hostname strategy from every host's home page, request
 * queue in memory, minConcurrency = maxConcurrency, no retries, robots.txt respected — reporting pages/s and pages
 * per CPU-second of the crawler's process (process.cpuUsage: the site's own CPU is in its process, reported apart).
 *
 * The site: SITE (4 hosts × 5,000 section pages; 18,342 pages a correct crawler stores from hosts[0] with
 * allowExternal, the rest lying behind session-id links robots.txt disallows; no Crawl-delay host, no calendar trap,
 * no huge page). A second side plugs in as another SiteRunner (`runTrawl(site, opts)`: Trawl's
 * site crawl started at each host, or at hosts[0] with allowExternal) in RUNNERS, at the same concurrency and
 * per-host gap, and the rounds interleave the sides.
 *
 * Crawlee fetches what it links to, as it normalises URLs (it drops utm_* and fragments, but keeps ?ref= and
 * /index.html spellings, and reads no rel=canonical): its page count is over the pages Trawl stores.
 *
 *   npm run build && node dist/bench/crawl/site-crawlee.js [--pages-per-host=5000] [--hosts=4] [--concurrency=20]
 *     [--per-host-gap-ms=0] [--rounds=1] [--sides=crawlee] [--warmup-pages-per-host=500]
 */
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { CheerioCrawler, Configuration, LogLevel, MemoryStorage, log } from 'crawlee';
import type { CrawlSiteOptions } from '../support/crawl-site.js';
import { startCrawlSiteProcess, type CrawlSiteProcess } from '../support/crawl-site-process.js';
import { readProcs } from '../support/process-cpu.js';

/** The benchmark's site: large, polite-neutral (no Crawl-delay), no trap, no 5 MB page. */
export const SITE: CrawlSiteOptions = { seed: 1, hosts: 4, pagesPerHost: 5000, crawlDelaySeconds: null, trap: false, hugePageBytes: 0 };

export interface SiteRunOptions {
  /** Requests in flight (fixed: min = max). */
  concurrency: number;
  /** Minimum gap between two requests to one host, ms (0: none). */
  perHostGapMs: number;
}

export interface SiteRun {
  side: string;
  /** HTML pages the crawler handled (stored). */
  pages: number;
  /** Requests that ended in failure (404, 500, non-HTML, …). */
  failed: number;
  seconds: number;
  /** CPU seconds of the crawler's process(es) over the run (not the site's). */
  cpuSeconds: number;
}

/**
 * One measured run over `site`. With `warmup`, the side first crawls that other site (other hosts, other pages) in
 * the same process, unmeasured: the figures are then the crawler's steady state, its JIT compilation done, as in a
 * long crawl or a server that has run for a while, rather than a fresh process's first seconds.
 */
export type SiteRunner = (site: CrawlSiteProcess, opts: SiteRunOptions, warmup: CrawlSiteProcess | null) => Promise<SiteRun>;

/** Crawlee's CheerioCrawler over every host of the site, same-hostname links, in this process. */
export const runCrawlee: SiteRunner = async (site, opts, warmup) => {
  if (warmup) await crawlWithCrawlee(warmup, opts);
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const { pages, failed } = await crawlWithCrawlee(site, opts);
  const seconds = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  return { side: 'crawlee cheerio', pages, failed, seconds, cpuSeconds: (cpu.user + cpu.system) / 1e6 };
};

async function crawlWithCrawlee(site: CrawlSiteProcess, opts: SiteRunOptions): Promise<{ pages: number; failed: number }> {
  log.setLevel(LogLevel.OFF); // failures are counted, not logged
  let pages = 0;
  let failed = 0;
  let sink = 0;
  const config = new Configuration({ persistStorage: false, storageClient: new MemoryStorage({ persistStorage: false }) });
  const crawler = new CheerioCrawler(
    {
      minConcurrency: opts.concurrency,
      maxConcurrency: opts.concurrency,
      maxRequestRetries: 0,
      requestHandlerTimeoutSecs: 60,
      respectRobotsTxtFile: true,
      ...(opts.perHostGapMs > 0 ? { sameDomainDelaySecs: opts.perHostGapMs / 1000 } : {}),
      requestHandler: async ({ $, enqueueLinks }) => {
        pages++;
        sink += $('title').text().length;
        await enqueueLinks({ strategy: 'same-hostname' });
      },
      failedRequestHandler: () => void failed++,
    },
    config,
  );
  await crawler.run(site.hosts.map((h) => `${h}/`));
  if (sink === 0) console.error('crawlee: no titles read');
  return { pages, failed };
}

/** The sides this file runs; another side registers here (see the header). */
export const RUNNERS: Record<string, SiteRunner> = { crawlee: runCrawlee };

const siteTicks = (pid: number): number => readProcs().find((p) => p.pid === pid)?.ticks ?? 0;

export async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      'pages-per-host': { type: 'string', default: String(SITE.pagesPerHost) },
      hosts: { type: 'string', default: String(SITE.hosts) },
      concurrency: { type: 'string', default: '20' },
      'per-host-gap-ms': { type: 'string', default: '0' },
      rounds: { type: 'string', default: '1' },
      sides: { type: 'string', default: 'crawlee' },
      'warmup-pages-per-host': { type: 'string', default: '500' },
    },
  });
  const options: CrawlSiteOptions = { ...SITE, pagesPerHost: Number(values['pages-per-host']), hosts: Number(values.hosts) };
  const run: SiteRunOptions = { concurrency: Number(values.concurrency), perHostGapMs: Number(values['per-host-gap-ms']) };
  const sides = values.sides.split(',').filter(Boolean);
  for (const side of sides) if (!RUNNERS[side]) throw new Error(`unknown side ${side}: ${Object.keys(RUNNERS).join(', ')}`);
  const site = await startCrawlSiteProcess(options);
  // Another site (its own port, so other hosts; other pages) each side crawls first, unmeasured; 0: no warm-up.
  const warmupPages = Number(values['warmup-pages-per-host']);
  const warmup = warmupPages > 0 ? await startCrawlSiteProcess({ ...options, seed: (options.seed ?? 1) + 1, hosts: 2, pagesPerHost: warmupPages }) : null;
  try {
    if (warmup) console.log(`warm-up: each side first crawls ${warmup.expectedPages} pages of another site, unmeasured`);
    console.log(`site: ${site.hosts.length} hosts, ${site.expectedPages} pages a correct crawler stores; concurrency ${run.concurrency}, per-host gap ${run.perHostGapMs} ms; load ${os.loadavg().map((l) => l.toFixed(2)).join(', ')}`);
    const rows = [];
    for (let round = 1; round <= Number(values.rounds); round++) {
      // Alternate the order of the sides from round to round, so drifting load does not favour one.
      for (const side of round % 2 === 1 ? sides : [...sides].reverse()) {
        await site.stats(true);
        const load1 = os.loadavg()[0];
        const ticks0 = siteTicks(site.pid);
        const r = await RUNNERS[side](site, run, warmup);
        const stats = await site.stats(true);
        rows.push({
          round,
          side: r.side,
          pages: r.pages,
          failed: r.failed,
          requests: stats.requests,
          seconds: Number(r.seconds.toFixed(1)),
          'pages/s': Math.round(r.pages / r.seconds),
          'crawler cpu s': Number(r.cpuSeconds.toFixed(1)),
          'pages/cpu-s': Math.round(r.pages / Math.max(0.01, r.cpuSeconds)),
          'site cpu s': Number(((siteTicks(site.pid) - ticks0) / 100).toFixed(1)),
          'min per-host gap ms': Math.min(...stats.perHost.map((h) => h.minGapMs ?? Infinity)),
          load1: Number(load1.toFixed(2)),
        });
      }
    }
    console.table(rows);
    console.log(JSON.stringify({ bench: 'site-crawlee', site: options, run, warmupPagesPerHost: warmupPages, expectedPages: site.expectedPages, rows }));
  } finally {
    await site.close();
    await warmup?.close();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
