/**
 * Scaling curve (issue #16): the small-page `/crawl` load of crawl-bench.ts against gateway and worker-http as
 * separate processes, shape by shape (G gateways + W workers), beside the standalone process (gateway and worker in
 * one) at the same clients and the in-process floor (fetch + formats). A deployment is sized from the throughput each
 * added process brings and from the CPU each group spends per request.
 *
 * Each shape runs on its own database, account and Redis prefix: its processes start, every gateway's /health must
 * show the W workers, `--clients` closed-loop clients (client i on gateway i mod G) warm up for 2 s, then the
 * `--seconds` window is measured: req/s, p50/p99, errors, CPU seconds per group (/proc: gateways, workers,
 * Postgres + Redis — shared with the machine, an upper bound — and this process, load + fixture site), Redis commands
 * per request (INFO commandstats delta: read it on an otherwise idle Redis), peak RSS per group and the 1-minute load
 * average. Then the ledger must be exact: allowance − balance == the credits the 200 responses reported, and the
 * ledger sums to the balance. Every process, database and Redis key of the run is removed whatever happens.
 *
 *   npm run build && npm run bench:scaling [-- --seconds=8 --clients=32 --shapes=1+1,1+2,2+2]
 * Needs Postgres and Redis: BENCH_PG_ADMIN_URL (default postgresql://postgres@127.0.0.1:5432/postgres),
 * BENCH_REDIS_URL (default redis://127.0.0.1:6379).
 */
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Redis } from 'ioredis';
import { Pool } from 'undici';
import { formatPage } from '#extraction';
import { UndiciHttpClient } from '#fetch';
import { checkLedger, createBenchState } from '../support/bench-state.js';
import { startTrawlStandalone } from '../support/corpus-site.js';
import { closedLoop } from '../support/load.js';
import { spawnNodeApp, type NodeApp } from '../support/node-app.js';
import { measureCpu, SERVICE_PROCESSES } from '../support/process-cpu.js';
import { startSmallPageSite } from '../support/small-page.js';

const { values } = parseArgs({
  options: { seconds: { type: 'string', default: '8' }, clients: { type: 'string', default: '32' }, shapes: { type: 'string', default: '1+1,1+2,2+2' } },
});
const seconds = Number(values.seconds);
const clients = Number(values.clients);
const shapes = values.shapes.split(',').map((s) => {
  const m = /^(\d+)\+(\d+)$/.exec(s.trim());
  if (!m || Number(m[1]) < 1 || Number(m[2]) < 1) throw new Error(`--shapes: "${s}" is not <gateways>+<workers>, e.g. 1+2`);
  return { gateways: Number(m[1]), workers: Number(m[2]) };
});
const WARMUP_SECONDS = 2;
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const pgAdminUrl = process.env.BENCH_PG_ADMIN_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const redisUrl = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const entry = (app: string) => path.join(root, `dist/apps/${app}/src/main.js`);

interface Row {
  setup: string;
  /** Trawl processes: 0 for the floor, 1 for standalone, G + W for a shape. */
  processes: number;
  rps: number;
  p50: number;
  p99: number;
  requests: number;
  errors: number;
  cpu_s: Record<'gateways' | 'workers' | 'pg_redis' | 'bench', number>;
  trawl_cpu_ms_per_req?: number;
  redis_cmds_per_req?: number;
  peak_rss_mib?: { gateways: number; workers: number };
  load1: number;
  ledger_exact?: boolean;
  failures?: Record<string, number>;
}

// Cleanup on Ctrl-C / SIGTERM too: the current step's processes, database and keys.
const running = new Set<() => Promise<void>>();
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    console.error(`${signal}: stopping the run's processes, dropping its database and Redis keys`);
    void Promise.allSettled([...running].map((stop) => stop())).then((outcomes) => {
      for (const o of outcomes) if (o.status === 'rejected') console.error('cleanup failed:', o.reason);
      process.exit(130);
    });
  });
}

const stats = new Redis(redisUrl);
const redisCalls = async () => [...(await stats.info('commandstats')).matchAll(/calls=(\d+)/g)].reduce((sum, m) => sum + Number(m[1]), 0);
/** Peak resident set (VmHWM) of the processes, MiB. */
const peakRssMib = (pids: number[]) =>
  Math.round(pids.reduce((sum, pid) => sum + Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0), 0) / 1024);

/** Warm-up, then the measured window of `send` with CPU per group of processes. */
async function measure(setup: string, processes: number, send: (client: number) => Promise<boolean>, gateways: number[], workers: number[]): Promise<Row> {
  await closedLoop(clients, WARMUP_SECONDS, send, 0);
  const before = await redisCalls();
  const { result, cpu } = await measureCpu(
    ['gateways', 'workers', 'pg_redis', 'bench'] as const,
    (p, under) =>
      gateways.includes(p.pid) || gateways.some(under)
        ? 'gateways'
        : workers.includes(p.pid) || workers.some(under)
          ? 'workers'
          : SERVICE_PROCESSES.has(p.comm)
            ? 'pg_redis'
            : p.pid === process.pid
              ? 'bench'
              : undefined,
    () => closedLoop(clients, seconds, send, 0),
  );
  const attempts = result.requests + result.errors;
  const perRequest = (n: number) => Math.round((10 * n) / Math.max(1, attempts)) / 10;
  return {
    setup,
    processes,
    rps: result.rps,
    p50: result.p50,
    p99: result.p99,
    requests: result.requests,
    errors: result.errors,
    cpu_s: cpu,
    ...(gateways.length > 0 && {
      trawl_cpu_ms_per_req: perRequest(1000 * (cpu.gateways + cpu.workers)),
      redis_cmds_per_req: perRequest((await redisCalls()) - before - 2), // minus the two INFO calls
      peak_rss_mib: { gateways: peakRssMib(gateways), workers: peakRssMib(workers) },
    }),
    load1: Number(os.loadavg()[0].toFixed(1)),
  };
}

/** Load through `baseUrls` (client i on gateway i mod G) on one account, then its ledger check. */
async function crawlRow(setup: string, processes: number, baseUrls: string[], account: { apiKey: string; accountId: string }, databaseUrl: string, pids: { gateways: number[]; workers: number[] }) {
  const pools = baseUrls.map((url) => new Pool(url, { connections: Math.ceil(clients / baseUrls.length) + 4 }));
  const crawlPath = `/crawl?urls=${encodeURIComponent(site.url)}`;
  let credits = 0;
  const failures: Record<string, number> = {};
  const fail = (what: string) => (failures[what] = (failures[what] ?? 0) + 1);
  const send = async (client: number) => {
    try {
      const res = await pools[client % pools.length].request({ path: crawlPath, method: 'GET', headers: { 'x-api-key': account.apiKey } });
      const body = (await res.body.json()) as { credits?: number; successful_pages?: number; error?: { code: string } };
      if (res.statusCode === 200) credits += body.credits ?? 0;
      else fail(`${res.statusCode} ${body.error?.code}`);
      return res.statusCode === 200 && body.successful_pages === 1;
    } catch (error) {
      fail(`transport ${(error as Error).message}`);
      return false;
    }
  };
  try {
    const row = await measure(setup, processes, send, pids.gateways, pids.workers);
    const ledger = await checkLedger(databaseUrl, account.accountId, credits);
    if (!ledger.chargedAsReported || !ledger.ledgerSumsToBalance || ledger.openReservations > 0) console.error(`${setup}: ledger NOT exact`, ledger, { credits });
    return { ...row, ledger_exact: ledger.chargedAsReported && ledger.ledgerSumsToBalance && ledger.openReservations === 0, ...(Object.keys(failures).length > 0 && { failures }) };
  } finally {
    await Promise.all(pools.map((p) => p.close()));
  }
}

/** Starts `count` copies of an app at once, each pushed to `apps` as it spawns (so a stop reaches it while it starts). */
async function startMany(apps: NodeApp[], count: number, app: string, env: Record<string, string>, ready: RegExp): Promise<Array<{ pid: number; match: RegExpExecArray }>> {
  const started = Array.from({ length: count }, () => spawnNodeApp(entry(app), env, ready));
  apps.push(...started);
  const matches = await Promise.all(started.map((a) => a.ready));
  return started.map((a, i) => ({ pid: a.pid, match: matches[i] }));
}

async function shapeRow(g: number, w: number): Promise<Row> {
  const state = await createBenchState({ repoRoot: root, pgAdminUrl, redisUrl, plans: ['scale'] });
  const apps: NodeApp[] = [];
  const stop = async () => {
    await Promise.all(apps.map((a) => a.stop()));
    await state.drop();
  };
  running.add(stop);
  try {
    const env = {
      DATABASE_URL: state.databaseUrl,
      REDIS_URL: redisUrl,
      REDIS_PREFIX: state.redisPrefix,
      HOST: '127.0.0.1',
      PORT: '0',
      LOG_LEVEL: 'error',
      ALLOW_PRIVATE_ADDRESSES: 'true',
      DATABASE_POOL_SIZE: '20',
    };
    const workers = await startMany(apps, w, 'worker-http', env, /consuming/);
    const gateways = await startMany(apps, g, 'gateway', env, /gateway listening on (http:\/\/[^\s"]+)/);
    const urls = gateways.map((a) => a.match[1]);
    for (const url of urls) {
      const deadline = Date.now() + 60_000;
      const seen = async () => ((await (await fetch(`${url}/health`)).json()) as { info?: { workers?: Record<string, number> } }).info?.workers?.['worker-http'];
      while ((await seen()) !== w) {
        if (Date.now() > deadline) throw new Error(`${url}/health does not show ${w} worker-http within 60 s`);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    }
    const pids = { gateways: gateways.map((a) => a.pid), workers: workers.map((a) => a.pid) };
    return await crawlRow(`${g} gateway + ${w} worker-http`, g + w, urls, state.accounts[0], state.databaseUrl, pids);
  } finally {
    await stop();
    running.delete(stop);
  }
}

const site = await startSmallPageSite();
const http = new UndiciHttpClient({ allowPrivateAddresses: true });
const rows: Row[] = [];
try {
  const formats = { raw_html: false, enhanced_html: true, markdown: true, page_text: false };
  const floor = async () => {
    const res = await http.fetch({ url: site.url, timeoutMs: 10_000, maxBytes: 10_000_000 });
    formatPage(res.body, { url: res.finalUrl, formats });
    return res.status === 200;
  };
  rows.push(await measure('floor (in-process fetch + formats)', 0, floor, [], []));

  const trawl = await startTrawlStandalone({ repoRoot: root, pgAdminUrl, redisUrl, env: { STANDALONE_WORKERS: 'http' } });
  running.add(trawl.stop);
  try {
    rows.push(await crawlRow('standalone (gateway + worker-http in one)', 1, [trawl.baseUrl], trawl, trawl.databaseUrl, { gateways: [trawl.pid], workers: [] }));
  } finally {
    await trawl.stop();
    running.delete(trawl.stop);
  }
  for (const { gateways, workers } of shapes) rows.push(await shapeRow(gateways, workers));
} finally {
  await http.close();
  await site.close();
  stats.disconnect();
}

// Throughput per Trawl process, and what each process added over the previous shape.
const shapeRows = rows.slice(2);
const table = rows.map((r) => {
  const prev = shapeRows[shapeRows.indexOf(r) - 1];
  return {
    setup: r.setup,
    rps: r.rps,
    p50: r.p50,
    p99: r.p99,
    errors: r.errors,
    rps_per_proc: r.processes > 0 ? Math.round(r.rps / r.processes) : '-',
    rps_per_added_proc: prev && r.processes > prev.processes ? Math.round((r.rps - prev.rps) / (r.processes - prev.processes)) : '-',
    'cpu s gw/wk/pg+redis/bench': `${r.cpu_s.gateways}/${r.cpu_s.workers}/${r.cpu_s.pg_redis}/${r.cpu_s.bench}`,
    cpu_ms_req: r.trawl_cpu_ms_per_req ?? '-',
    redis_req: r.redis_cmds_per_req ?? '-',
    'rss MiB gw/wk': r.peak_rss_mib ? `${r.peak_rss_mib.gateways}/${r.peak_rss_mib.workers}` : '-',
    load1: r.load1,
    ledger: r.ledger_exact ?? '-',
  };
});
console.table(table);
console.log(JSON.stringify({ bench: 'scaling', seconds, clients, warmupSeconds: WARMUP_SECONDS, rows }));
if (rows.some((r) => r.ledger_exact === false)) process.exitCode = 1;
