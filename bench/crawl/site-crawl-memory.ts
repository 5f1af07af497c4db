/**
 * Memory over a long site crawl: one crawl of 100,000 pages (the generated site, hosts × pages per host), with the
 * resident memory of every process sampled as it runs — Trawl as `npm start` runs it (the standalone process:
 * gateway, coordinator, worker-http and its extraction threads) and a Redis of the run's own (so its memory is the
 * crawl's alone) — and reported at every tenth of the way. The claim is that memory stays flat from 10 % to the end
 * (within 20 %): nothing of a crawl grows with its size in a process or in Redis (its seen-set is allocated for its
 * limit at start, its pending URLs are bounded: the rest of the frontier waits in Postgres), only in Postgres. Also
 * reported: the frontier's rows in Postgres at each sample, bytes per seen URL (MEMORY USAGE of the seen-set over the
 * URLs the crawl admitted) and bytes per stored page (Postgres: crawl_pages with its indexes and TOAST, divided by
 * the pages).
 * Postgres is the machine's, shared: its memory is its configured buffers, not measured here.
 *
 *   npm run build && node dist/bench/crawl/site-crawl-memory.js [--pages=100000] [--hosts=10] [--concurrency=20]
 * Needs Postgres (BENCH_PG_ADMIN_URL, default postgresql://postgres@127.0.0.1:5432/postgres) and redis-server on PATH.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Redis } from 'ioredis';
import pg from 'pg';
import { createBenchState } from '../support/bench-state.js';
import { startCrawlSiteProcess } from '../support/crawl-site-process.js';
import { SITE } from './site-crawlee.js';

const { values } = parseArgs({
  options: {
    pages: { type: 'string', default: '100000' },
    hosts: { type: 'string', default: '10' },
    concurrency: { type: 'string', default: '20' },
  },
});
const pages = Number(values.pages);
const hosts = Number(values.hosts);
const concurrency = Number(values.concurrency);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const pgAdmin = process.env.BENCH_PG_ADMIN_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';

const rssKiB = (pid: number): number => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
const mib = (kib: number) => Math.round(kib / 1024);

async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function startRedis(): Promise<{ child: ChildProcess; url: string; dir: string }> {
  const port = await freePort();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'trawl-bench-redis-'));
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir], { stdio: 'ignore' });
  const url = `redis://127.0.0.1:${port}`;
  const probe = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  probe.on('error', () => undefined); // refused until the server listens
  for (let i = 0; ; i++) {
    try {
      await probe.connect();
      break;
    } catch {
      if (i > 100) throw new Error('redis-server did not start');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  probe.disconnect();
  return { child, url, dir };
}

async function startTrawl(env: Record<string, string>): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [path.join(root, 'dist/apps/standalone/src/main.js')], {
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

interface Family {
  family: string;
  keys: number;
  bytes: number;
}

/** Every key's MEMORY USAGE, summed by its name with ids, hosts and numbers replaced by `*`, largest first. */
async function keyFamilies(redis: Redis): Promise<Family[]> {
  const families = new Map<string, Family>();
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'COUNT', 1000);
    cursor = next;
    for (const key of keys) {
      const family = key.replace(/\{[^}]*\}/g, '*').replace(/[0-9a-f]{8}-[0-9a-f-]{27}/g, '*').replace(/\d+/g, '*');
      const entry = families.get(family) ?? { family, keys: 0, bytes: 0 };
      entry.keys += 1;
      entry.bytes += Number((await redis.call('MEMORY', 'USAGE', key, 'SAMPLES', '0')) ?? 0);
      families.set(family, entry);
    }
  } while (cursor !== '0');
  return [...families.values()].sort((a, b) => b.bytes - a.bytes);
}

interface Sample {
  done: number;
  seconds: number;
  trawlMiB: number;
  trawlPeakMiB: number;
  redisRssMiB: number;
  redisUsedMiB: number;
  /** The crawl's frontier rows in Postgres (crawl_frontier). */
  pgFrontier: number;
}

const redis = await startRedis();
const site = await startCrawlSiteProcess({ ...SITE, hosts, pagesPerHost: Math.ceil((pages * 1.2) / hosts) });
const state = await createBenchState({ repoRoot: root, pgAdminUrl: pgAdmin, redisUrl: redis.url, plans: ['scale'] });
const trawl = await startTrawl({
  DATABASE_URL: state.databaseUrl,
  REDIS_URL: redis.url,
  REDIS_PREFIX: state.redisPrefix,
  ALLOW_PRIVATE_ADDRESSES: 'true',
  CRAWL_HOST_MAX_INFLIGHT: String(concurrency),
  CRAWL_HOST_MIN_GAP_MS: '0',
  CRAWL_JOB_MAX_PAGES: String(pages),
  CRAWL_JOB_MAX_CONCURRENCY: String(concurrency),
});
const probe = new Redis(redis.url);
const db = new pg.Client({ connectionString: state.databaseUrl });
await db.connect();
try {
  console.log(`site: ${site.hosts.length} hosts, ${site.expectedPages} pages reachable; crawling ${pages} at concurrency ${concurrency}; load ${os.loadavg().map((l) => l.toFixed(2)).join(', ')}`);
  const headers = { 'x-api-key': state.accounts[0].apiKey, 'content-type': 'application/json' };
  const res = await fetch(`${trawl.url}/crawls`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ url: `${site.hosts[0]}/`, limit: pages, max_depth: 100, allow_external_links: true, sitemap: 'skip', concurrency }),
  });
  if (res.status !== 201) throw new Error(`POST /crawls answered ${res.status}: ${await res.text()}`);
  const { id } = (await res.json()) as { id: string };
  const t0 = performance.now();
  const samples: Sample[] = [];
  let peak = 0;
  let seenBytes = 0;
  let families: Family[] = [];
  let next = pages / 10;
  for (;;) {
    const status = (await (await fetch(`${trawl.url}/crawls/${id}?limit=1`, { headers })).json()) as { status: string; counts: { done: number } };
    const trawlKiB = rssKiB(trawl.child.pid!);
    peak = Math.max(peak, trawlKiB);
    const finished = status.status !== 'queued' && status.status !== 'running';
    if (status.counts.done >= next || finished) {
      const memory = await probe.info('memory');
      const used = Number(/used_memory:(\d+)/.exec(memory)?.[1] ?? 0);
      samples.push({
        done: status.counts.done,
        seconds: Math.round((performance.now() - t0) / 100) / 10,
        trawlMiB: mib(trawlKiB),
        trawlPeakMiB: mib(peak),
        redisRssMiB: mib(rssKiB(redis.child.pid!)),
        redisUsedMiB: Math.round((used / 1048576) * 10) / 10,
        pgFrontier: Number((await db.query<{ n: string }>(`SELECT count(*)::text AS n FROM crawl_frontier WHERE job_id = $1`, [id])).rows[0].n),
      });
      console.log(JSON.stringify(samples.at(-1)));
      while (next <= status.counts.done) next += pages / 10;
    }
    if (!finished && status.counts.done >= pages * 0.95 && seenBytes === 0) {
      // The seen-set and every other family of keys, measured before the finished crawl's frontier is cleared.
      families = await keyFamilies(probe);
      seenBytes = families.filter((f) => /:seen(:|$)/.test(f.family)).reduce((sum, f) => sum + f.bytes, 0);
    }
    if (finished) {
      if (status.status !== 'completed') throw new Error(`the crawl ended ${status.status}`);
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  const { rows } = await db.query<{ pages: string; bytes: string; content: string }>(
    `SELECT count(*)::text AS pages, pg_total_relation_size('crawl_pages')::text AS bytes, sum(bytes)::text AS content FROM crawl_pages`,
  );
  const { rows: seen } = await db.query<{ discovered: number }>(`SELECT discovered FROM crawl_jobs WHERE id = $1`, [id]);
  const stored = Number(rows[0].pages);
  const from = samples.find((s) => s.done >= pages / 10) ?? samples[0];
  const last = samples.at(-1)!;
  // Redis while the crawl runs (the last sample is after it finished and its frontier was cleared).
  const running = samples.filter((s) => s !== last);
  console.table(samples);
  const summary = {
    bench: 'site-crawl-memory',
    pages: stored,
    seconds: last.seconds,
    pagesPerSecond: Math.round(stored / last.seconds),
    trawlRssMiB: { at10pct: from.trawlMiB, atEnd: last.trawlMiB, growth: Math.round((last.trawlMiB / from.trawlMiB - 1) * 1000) / 10 + ' %', peak: last.trawlPeakMiB },
    redisRssMiB: { at10pct: from.redisRssMiB, atEnd: last.redisRssMiB },
    redisUsedMiB: {
      at10pct: from.redisUsedMiB,
      at90pct: running.at(-1)?.redisUsedMiB,
      peak: Math.max(...running.map((s) => s.redisUsedMiB)),
      growth: Math.round((Math.max(...running.map((s) => s.redisUsedMiB)) / from.redisUsedMiB - 1) * 1000) / 10 + ' % at peak',
    },
    pgFrontierPeak: Math.max(...samples.map((s) => s.pgFrontier)),
    seenBytesPerUrl: Math.round((seenBytes / seen[0].discovered) * 10) / 10,
    storedBytesPerPage: Math.round(Number(rows[0].bytes) / stored),
    contentBytesPerPage: Math.round(Number(rows[0].content) / stored),
    load1: os.loadavg()[0].toFixed(2),
  };
  console.log('Redis memory by key family at 95 % of the crawl (MEMORY USAGE; ids, hosts and numbers as *):');
  console.table(families.slice(0, 15).map((f) => ({ family: f.family, keys: f.keys, KiB: Math.round(f.bytes / 1024) })));
  console.log(JSON.stringify(summary));
} finally {
  await db.end();
  probe.disconnect();
  trawl.child.kill('SIGTERM');
  await once(trawl.child, 'exit');
  await state.drop();
  await site.close();
  redis.child.kill('SIGTERM');
  await once(redis.child, 'exit');
  rmSync(redis.dir, { recursive: true, force: true });
}
