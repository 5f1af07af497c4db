/**
 * Headful vs headless on the same real pages: the Zyte corpus (../shared/corpus) served on loopback, rendered by the
 * headed pool of worker-headful (Chromium on its own supervised Xvfb, automation switches off) and by the headless
 * pool of worker-render, in alternating rounds so machine load hits both. Each page: a fresh context, navigation,
 * `load` then 500 ms of network quiet (capped), images/media/fonts blocked, HTML captured. No proxies on either side.
 * Reports pages/s, p50/p95 latency, CPU seconds per page (this process, and Chromium + Xvfb apart) and the peak RSS
 * of the browser processes (per concurrent page too).
 *
 *   npm run build && node dist/bench/browser/headful-bench.js [--pages 40] [--concurrency 2] [--rounds 2]
 *     [--chromium /usr/bin/chromium] [--xvfb /usr/bin/Xvfb]
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { ChromiumPool, DEFAULT_CHROMIUM_ARGS, HEADFUL_CHROMIUM_ARGS, XvfbDisplay } from '#browser';
import { CpuMeter, loadCorpusPages, quantile, startCorpusSite } from '../support/corpus-site.js';

const { values: args } = parseArgs({
  options: {
    pages: { type: 'string', default: '40' },
    concurrency: { type: 'string', default: '2' },
    rounds: { type: 'string', default: '2' },
    chromium: { type: 'string', default: '/usr/bin/chromium' },
    xvfb: { type: 'string', default: '/usr/bin/Xvfb' },
  },
});
const PAGES = Number(args.pages);
const CONCURRENCY = Number(args.concurrency);
const ROUNDS = Number(args.rounds);
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

type Mode = 'headless' | 'headful';

/**
 * Sum of the resident memory (MiB) of this process's descendants: Chromium and its renderers, Xvfb. Pages shared
 * between processes count once per process, so this is an upper bound.
 */
function descendantsRssMb(): number {
  const procs: Array<{ pid: number; ppid: number; rssPages: number }> = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      procs.push({ pid: Number(name), ppid: Number(fields[1]), rssPages: Number(fields[21]) });
    } catch {
      // exited meanwhile
    }
  }
  const parent = new Map(procs.map((p) => [p.pid, p.ppid]));
  const under = (pid: number) => {
    for (let p = parent.get(pid), hops = 0; p !== undefined && p > 1 && hops < 64; p = parent.get(p), hops++) if (p === process.pid) return true;
    return false;
  };
  return (procs.filter((p) => under(p.pid)).reduce((n, p) => n + p.rssPages, 0) * 4096) / 1024 / 1024;
}

async function pass(mode: Mode, urls: string[], xvfb: XvfbDisplay) {
  const pool = new ChromiumPool({
    executablePath: args.chromium,
    maxContexts: CONCURRENCY,
    pagesPerBrowser: 100_000,
    allowPrivateAddresses: true,
    ...(mode === 'headful'
      ? { headless: false, launchArgs: [...HEADFUL_CHROMIUM_ARGS], ignoreDefaultArgs: ['--enable-automation'], launchEnv: async () => ({ DISPLAY: await xvfb.display() }) }
      : { headless: true, launchArgs: [...DEFAULT_CHROMIUM_ARGS] }),
  });
  try {
    await pool.render({ url: urls[0], timeoutMs: 30_000 }); // launch and warm up outside the window
    let peakRss = 0;
    const rssTimer = setInterval(() => (peakRss = Math.max(peakRss, descendantsRssMb())), 200);
    const latencies: number[] = [];
    let failed = 0;
    const started = performance.now();
    const { cpu } = await new CpuMeter(process.pid).measure(async () => {
      let next = 0;
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          while (next < urls.length) {
            const url = urls[next++];
            const t = performance.now();
            try {
              await pool.render({ url, timeoutMs: 30_000 });
              latencies.push(performance.now() - t);
            } catch {
              failed++;
            }
          }
        }),
      );
    });
    const seconds = (performance.now() - started) / 1000;
    clearInterval(rssTimer);
    peakRss = Math.max(peakRss, descendantsRssMb());
    return {
      mode,
      pages: latencies.length,
      failed,
      pagesPerSecond: Number((latencies.length / seconds).toFixed(2)),
      p50ms: quantile(latencies, 0.5),
      p95ms: quantile(latencies, 0.95),
      cpuPerPageMs: {
        node: Math.round((cpu.trawl * 1000) / Math.max(1, latencies.length)),
        browser: Math.round((cpu.trawlChildren * 1000) / Math.max(1, latencies.length)),
      },
      peakBrowserRssMb: Math.round(peakRss),
      rssPerConcurrentPageMb: Math.round(peakRss / CONCURRENCY),
    };
  } finally {
    await pool.close();
  }
}

const site = await startCorpusSite(loadCorpusPages(repoRoot, PAGES), { sameOriginOnly: true });
const xvfb = new XvfbDisplay({ xvfbPath: args.xvfb });
const results: Awaited<ReturnType<typeof pass>>[] = [];
try {
  for (let round = 0; round < ROUNDS; round++) {
    const order: Mode[] = round % 2 === 0 ? ['headless', 'headful'] : ['headful', 'headless'];
    for (const mode of order) {
      const r = await pass(mode, site.urls, xvfb);
      results.push(r);
      console.log(JSON.stringify({ round: round + 1, ...r }));
    }
  }
} finally {
  await xvfb.close();
  await site.close();
}
for (const mode of ['headless', 'headful'] as const) {
  const rs = results.filter((r) => r.mode === mode);
  const mean = (f: (r: (typeof rs)[number]) => number) => Number((rs.reduce((n, r) => n + f(r), 0) / rs.length).toFixed(2));
  console.log(
    `${mode.padEnd(8)}  ${mean((r) => r.pagesPerSecond)} pages/s  p50 ${mean((r) => r.p50ms)} ms  p95 ${mean((r) => r.p95ms)} ms  ` +
      `CPU/page node ${mean((r) => r.cpuPerPageMs.node)} ms + browser ${mean((r) => r.cpuPerPageMs.browser)} ms  ` +
      `peak browser RSS ${mean((r) => r.peakBrowserRssMb)} MiB (${mean((r) => r.rssPerConcurrentPageMb)} per concurrent page)  ` +
      `failed ${rs.reduce((n, r) => n + r.failed, 0)}`,
  );
}
