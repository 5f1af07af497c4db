/**
 * Site-crawl throughput, Trawl beside Crawlee (site-crawlee.ts runs Crawlee's CheerioCrawler at its best) on the same
 * generated site in a process of its own, at equal concurrency and per-host gap, rounds interleaved. Trawl runs as
 * `npm start` does (the standalone process: gateway, coordinator, worker-http) on the machine's Postgres and Redis,
 * with its product's default formats (enhanced HTML and Markdown of every page, links kept) — Crawlee only parses
 * each page for its title and links. One site crawl from hosts[0] with external links allowed (the site's hosts link
 * to each other), robots.txt respected by both. CPU: Trawl's process, and Trawl's process + Postgres + Redis
 * (the machine's services, shared: an upper bound); Crawlee's process. Each side first crawls another site
 * unmeasured, in the process it is then measured in (`--warmup-pages-per-host`, 0 for none; see SiteRunner).
 *
 *   npm run build && node dist/bench/crawl/site-crawl.js [--pages-per-host=5000] [--hosts=4] [--concurrency=20]
 *     [--per-host-gap-ms=0] [--rounds=3] [--sides=crawlee,trawl,trawl-links] [--warmup-pages-per-host=500]
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createBenchState } from '../support/bench-state.js';
import type { CrawlSiteProcess } from '../support/crawl-site-process.js';
import { measureCpu } from '../support/process-cpu.js';
import { main, RUNNERS, type SiteRunner } from './site-crawlee.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const pgAdmin = process.env.BENCH_PG_ADMIN_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const redisUrl = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';

async function startTrawl(env: Record<string, string>): Promise<{ child: ChildProcess; url: string }> {
  // BENCH_PROFILE_DIR: a V8 CPU profile of Trawl's process; BENCH_NODE_FLAGS: other flags for it (`--perf-basic-prof`).
  const profile = [
    ...(process.env.BENCH_PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE_DIR}`] : []),
    ...(process.env.BENCH_NODE_FLAGS?.split(' ').filter(Boolean) ?? []),
  ];
  const child = spawn(process.execPath, [...profile, path.join(root, 'dist/apps/standalone/src/main.js')], {
    env: { ...process.env, ...env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'error', LOG_FORMAT: 'json' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const m = /listening on (http:\/\/\S+) \(/.exec(out);
      if (m) resolve(m[1]);
    });
    child.once('exit', (code) => reject(new Error(`trawl exited with ${code}: ${out.slice(-500)}`)));
  });
  return { child, url };
}

/**
 * Trawl: one site crawl of the whole site through its HTTP API, timed from the request to the crawl's completion.
 * `formats` overrides the crawl's format flags: side `trawl-links` asks for none, so each page is parsed for its
 * metadata and links only and stored as such — the work Crawlee's side does.
 */
const trawlSide = (side: string, formats: Record<string, boolean>): SiteRunner => async (site, opts, warmup) => {
  const state = await createBenchState({ repoRoot: root, pgAdminUrl: pgAdmin, redisUrl, plans: ['scale'] });
  const { child, url } = await startTrawl({
    DATABASE_URL: state.databaseUrl,
    REDIS_URL: redisUrl,
    REDIS_PREFIX: state.redisPrefix,
    ALLOW_PRIVATE_ADDRESSES: 'true',
    // Equal per-host limits: Crawlee caps only its overall concurrency, so Trawl's host cap is that too.
    CRAWL_HOST_MAX_INFLIGHT: String(opts.concurrency),
    CRAWL_HOST_MIN_GAP_MS: String(opts.perHostGapMs),
    CRAWL_JOB_MAX_PAGES: '1000000',
  });
  try {
    const headers = { 'x-api-key': state.accounts[0].apiKey, 'content-type': 'application/json' };
    /** One site crawl through the API, from hosts[0] with external links, to its end. */
    const crawl = async (target: CrawlSiteProcess) => {
      const res = await fetch(`${url}/crawls`, {
        method: 'POST',
        headers,
        body: JSON.stringify({
          url: `${target.hosts[0]}/`, limit: 1_000_000, max_depth: 100, allow_external_links: true, sitemap: 'skip',
          concurrency: opts.concurrency, delay_ms: opts.perHostGapMs, ...formats,
        }),
      });
      const { id } = (await res.json()) as { id: string };
      for (;;) {
        const status = (await (await fetch(`${url}/crawls/${id}?limit=1`, { headers })).json()) as { status: string; counts: { done: number; failed: number } };
        if (status.status !== 'queued' && status.status !== 'running') return status;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    };
    if (warmup) await crawl(warmup);
    const trawlPid = child.pid!;
    const groups = ['trawl', 'postgres', 'redis'] as const;
    const t0 = performance.now();
    const { result, cpu } = await measureCpu(groups, (p) => (p.pid === trawlPid ? 'trawl' : p.comm === 'postgres' ? 'postgres' : p.comm === 'redis-server' ? 'redis' : undefined), () => crawl(site));
    const seconds = (performance.now() - t0) / 1000;
    console.log(`trawl: ${result.status}, ${result.counts.done} pages, CPU ${cpu.trawl.toFixed(1)} s Trawl + ${cpu.postgres.toFixed(1)} s Postgres + ${cpu.redis.toFixed(1)} s Redis`);
    return { side, pages: result.counts.done, failed: result.counts.failed, seconds, cpuSeconds: cpu.trawl + cpu.postgres + cpu.redis };
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
    await state.drop();
  }
};

export const runTrawl = trawlSide('trawl site crawl', {});
RUNNERS.trawl = runTrawl;
RUNNERS['trawl-links'] = trawlSide('trawl, links only', { markdown: false, enhanced_html: false });
await main();
