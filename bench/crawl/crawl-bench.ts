/**
 * `/crawl` throughput through the whole pipeline (standalone process: auth, concurrency gate, credit reservation
 * and settlement in Postgres, BullMQ round trip, worker fetch, formats) at 1, 8 and 32 clients, beside the floor:
 * the same fetch + formats done directly in-process. Each /crawl row also reports the Redis commands one request
 * cost (INFO commandstats delta), the count the gateway levers of issue #16 aim to cut.
 *
 *   npm run build && node dist/bench/crawl/crawl-bench.js [--seconds=5] [--clients=1,8,32] [--log-level=error]
 * `--log-level=info` (the product's default) adds the one JSON line per call that Trawl then writes to stdout.
 * Needs Postgres and Redis: BENCH_PG_ADMIN_URL (default postgresql://postgres@127.0.0.1:5432/postgres),
 * BENCH_REDIS_URL (default redis://127.0.0.1:6379).
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { Pool } from 'undici';
import { AccountAdminService, AuthService } from '#billing';
import { systemClock } from '#platform';
import { AccountsRepository, Database, LedgerRepository, migrate } from '#db';
import { formatPage } from '#extraction';
import { UndiciHttpClient } from '#fetch';
import { closedLoop, type LoadResult } from '../support/load.js';
import { measureCpu, SERVICE_PROCESSES } from '../support/process-cpu.js';
import { startSmallPageSite } from '../support/small-page.js';

const { values } = parseArgs({
  options: { seconds: { type: 'string', default: '5' }, clients: { type: 'string', default: '1,8,32' }, 'log-level': { type: 'string', default: 'error' } },
});
const seconds = Number(values.seconds);
const clientCounts = values.clients.split(',').map(Number);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const pgAdmin = process.env.BENCH_PG_ADMIN_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const redisUrl = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';

// Fixture site: a small page (~1.6 KB), keep-alive.
const site = await startSmallPageSite();
const pageUrl = site.url;

// Fresh database.
const dbName = `trawl_bench_${randomBytes(3).toString('hex')}`;
const admin = new pg.Client({ connectionString: pgAdmin });
await admin.connect();
await admin.query(`CREATE DATABASE ${dbName}`);
const dbUrl = new URL(pgAdmin);
dbUrl.pathname = `/${dbName}`;
await migrate(dbUrl.toString(), path.join(root, 'prisma/migrations'));
const db = new Database(dbUrl.toString(), 2);
const accounts = new AccountsRepository(db);
const ledger = new LedgerRepository(db);
const account = await new AccountAdminService(accounts, ledger, new AuthService(accounts, systemClock, 0, null, 'bench'), systemClock).create('bench', 'scale');

// Trawl standalone as its own process.
const port = 20000 + Math.floor(Math.random() * 20000);
const trawl = spawn(process.execPath, [...(process.env.BENCH_PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE_DIR}`] : []), path.join(root, 'dist/apps/standalone/src/main.js')], {
  env: {
    ...process.env,
    DATABASE_URL: dbUrl.toString(),
    REDIS_URL: redisUrl,
    REDIS_PREFIX: `trawl-bench-${dbName}`,
    PORT: String(port),
    LOG_LEVEL: values['log-level'],
    ALLOW_PRIVATE_ADDRESSES: 'true',
    DATABASE_POOL_SIZE: '20',
    DATABASE_SYNCHRONOUS_COMMIT: process.env.DATABASE_SYNCHRONOUS_COMMIT ?? 'on',
  },
  stdio: ['ignore', 'pipe', 'inherit'],
});
await new Promise<void>((resolve, reject) => {
  trawl.stdout!.on('data', (chunk: Buffer) => chunk.toString().includes('listening') && resolve());
  trawl.once('exit', (code) => reject(new Error(`trawl exited with ${code}`)));
});

const api = new Pool(`http://127.0.0.1:${port}`, { connections: 64 });
const crawlPath = `/crawl?urls=${encodeURIComponent(pageUrl)}`;
const viaTrawl = async () => {
  const res = await api.request({ path: crawlPath, method: 'GET', headers: { 'x-api-key': account.apiKey } });
  const body = (await res.body.json()) as { successful_pages?: number };
  return res.statusCode === 200 && body.successful_pages === 1;
};
const http = new UndiciHttpClient({ allowPrivateAddresses: true });
const formats = { raw_html: false, enhanced_html: true, markdown: true, page_text: false };
const floor = async () => {
  const res = await http.fetch({ url: pageUrl, timeoutMs: 10_000, maxBytes: 10_000_000 });
  formatPage(res.body, { url: res.finalUrl, formats });
  return res.status === 200;
};

// Redis commands per /crawl request (INFO commandstats delta; commands run inside Lua scripts count too). The Redis
// is shared, so other clients' traffic during a row inflates this: read it on an otherwise idle Redis.
const { Redis: StatsRedis } = await import('ioredis');
const stats = new StatsRedis(redisUrl);
const redisCalls = async () =>
  [...(await stats.info('commandstats')).matchAll(/calls=(\d+)/g)].reduce((sum, m) => sum + Number(m[1]), 0);

// CPU per request, from /proc: the Trawl process, and the shared Postgres + Redis (an upper bound: other users of
// the machine's services count too). Unlike req/s, this holds when other work competes for the cores.
const cpuGroups = ['trawl', 'services'] as const;
const classifyCpu = (p: { pid: number; comm: string }): (typeof cpuGroups)[number] | undefined =>
  p.pid === trawl.pid ? 'trawl' : SERVICE_PROCESSES.has(p.comm) ? 'services' : undefined;
// Write syscalls of the Trawl process (/proc/<pid>/io syscw): every socket write to Redis, Postgres, the page and
// the client counts, and on a virtualised host each costs far more than the bytes it carries.
const writeCalls = (): number => Number(/syscw: (\d+)/.exec(readFileSync(`/proc/${trawl.pid}/io`, 'utf8'))?.[1] ?? 0);
const perRequestMs = (cpuSeconds: number, requests: number) => Number(((1000 * cpuSeconds) / Math.max(1, requests)).toFixed(2));

const rows: Array<{ path: string; redis_cmds_per_req?: number; write_syscalls_per_req?: number; trawl_cpu_ms?: number; pg_redis_cpu_ms?: number } & LoadResult> = [];
for (const clients of clientCounts) {
  rows.push({ path: 'floor (in-process fetch + formats)', ...(await closedLoop(clients, seconds, floor)) });
  const before = await redisCalls();
  const writesBefore = writeCalls();
  const { result, cpu } = await measureCpu(cpuGroups, classifyCpu, () => closedLoop(clients, seconds, viaTrawl));
  // Minus the two INFO calls themselves.
  const perRequest = (await redisCalls()) - before - 2;
  const writes = writeCalls() - writesBefore;
  rows.push({
    path: 'trawl /crawl (standalone)',
    ...result,
    redis_cmds_per_req: Math.round((10 * perRequest) / Math.max(1, result.requests)) / 10,
    write_syscalls_per_req: Math.round((10 * writes) / Math.max(1, result.requests)) / 10,
    trawl_cpu_ms: perRequestMs(cpu.trawl, result.requests),
    pg_redis_cpu_ms: perRequestMs(cpu.services, result.requests),
  });
}
stats.disconnect();
console.table(rows);
console.log(JSON.stringify({ bench: 'crawl', seconds, rows }));

trawl.kill('SIGTERM');
await new Promise((resolve) => trawl.once('exit', resolve));
await api.close();
// Leave nothing behind in the shared Redis: the run's queues and leases live under its own prefix.
{
  const { Redis } = await import('ioredis');
  const redis = new Redis(redisUrl);
  const keys = await redis.keys(`trawl-bench-${dbName}*`);
  if (keys.length > 0) await redis.del(...keys);
  redis.disconnect();
}
await http.close();
await db.close();
await admin.query(`DROP DATABASE ${dbName} WITH (FORCE)`);
await admin.end();
await site.close();
