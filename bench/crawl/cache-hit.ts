/**
 * The page cache through the gateway (`/crawl?max_age=…`): a repeated-URL load — each request one URL drawn from a
 * pool of `--urls` pages with Zipf-like popularity (rank r drawn ∝ 1/r), as agents re-read the same popular pages —
 * against the standalone process (auth, concurrency gate, cache lookup, credit reservation and settlement in
 * Postgres, request log). Reports the latency of hits and of misses apart, the hit rate and req/s, at each client
 * count. The goal of issue #36: a hit's p50 ≤ 3 ms.
 *
 *   npm run build && npm run bench:cache-hit -- [--seconds=5] [--clients=1,8] [--urls=50]
 * Needs Postgres and Redis: BENCH_PG_ADMIN_URL (default postgresql://postgres@127.0.0.1:5432/postgres),
 * BENCH_REDIS_URL (default redis://127.0.0.1:6379).
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { Pool } from 'undici';
import { AccountAdminService, AuthService } from '#billing';
import { systemClock } from '#platform';
import { AccountsRepository, Database, LedgerRepository, migrate } from '#db';
import { startSmallPageSite } from '../support/small-page.js';

const { values } = parseArgs({
  options: { seconds: { type: 'string', default: '5' }, clients: { type: 'string', default: '1,8' }, urls: { type: 'string', default: '50' } },
});
const seconds = Number(values.seconds);
const clientCounts = values.clients.split(',').map(Number);
const poolSize = Number(values.urls);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const pgAdmin = process.env.BENCH_PG_ADMIN_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const redisUrl = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';

const site = await startSmallPageSite();

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

const port = 20000 + Math.floor(Math.random() * 20000);
const prefix = `trawl-bench-${dbName}`;
const trawl = spawn(process.execPath, [path.join(root, 'dist/apps/standalone/src/main.js')], {
  env: {
    ...process.env,
    DATABASE_URL: dbUrl.toString(),
    REDIS_URL: redisUrl,
    REDIS_PREFIX: prefix,
    PORT: String(port),
    LOG_LEVEL: 'error',
    ALLOW_PRIVATE_ADDRESSES: 'true',
    DATABASE_POOL_SIZE: '20',
  },
  stdio: ['ignore', 'pipe', 'inherit'],
});
await new Promise<void>((resolve, reject) => {
  trawl.stdout!.on('data', (chunk: Buffer) => chunk.toString().includes('listening') && resolve());
  trawl.once('exit', (code) => reject(new Error(`trawl exited with ${code}`)));
});

const api = new Pool(`http://127.0.0.1:${port}`, { connections: 64 });
/** Zipf-like draw over the pool: rank r with weight 1/r. */
const weights = Array.from({ length: poolSize }, (_, i) => 1 / (i + 1));
const total = weights.reduce((s, w) => s + w, 0);
const draw = (): number => {
  let x = Math.random() * total;
  for (let i = 0; i < poolSize; i++) if ((x -= weights[i]) <= 0) return i;
  return poolSize - 1;
};

const quantile = (sorted: number[], q: number) => Number((sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN).toFixed(2));

/** One row: `clients` closed-loop clients for `seconds`, each request one drawn URL; a fresh pool of URLs per row. */
async function row(clients: number, round: number, forSeconds = seconds) {
  const hits: number[] = [];
  const misses: number[] = [];
  let errors = 0;
  const end = Date.now() + forSeconds * 1000;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (Date.now() < end) {
        const url = `${site.url}?round=${round}&p=${draw()}`;
        const start = performance.now();
        const res = await api.request({ path: `/crawl?urls=${encodeURIComponent(url)}&max_age=3600`, method: 'GET', headers: { 'x-api-key': account.apiKey } });
        const body = (await res.body.json()) as { results?: { cache_state?: string }[] };
        const ms = performance.now() - start;
        const state = res.statusCode === 200 ? body.results?.[0]?.cache_state : undefined;
        if (state === 'hit') hits.push(ms);
        else if (state === 'miss') misses.push(ms);
        else errors++;
      }
    }),
  );
  hits.sort((a, b) => a - b);
  misses.sort((a, b) => a - b);
  const requests = hits.length + misses.length;
  return {
    clients,
    urls: poolSize,
    requests,
    errors,
    rps: Math.round(requests / forSeconds),
    hit_rate: Number((hits.length / Math.max(1, requests)).toFixed(3)),
    hit_p50: quantile(hits, 0.5),
    hit_p90: quantile(hits, 0.9),
    hit_p99: quantile(hits, 0.99),
    miss_p50: quantile(misses, 0.5),
  };
}

// Warm-up: connections, prepared statements, the JIT (a round of its own, not reported).
await row(1, 0, 1);
const rows = [];
for (const [i, clients] of clientCounts.entries()) rows.push(await row(clients, i + 1));
console.table(rows);
console.log(JSON.stringify({ bench: 'cache-hit', seconds, rows }));

trawl.kill('SIGTERM');
await new Promise((resolve) => trawl.once('exit', resolve));
await api.close();
{
  const { Redis } = await import('ioredis');
  const redis = new Redis(redisUrl);
  const keys = await redis.keys(`${prefix}*`);
  if (keys.length > 0) await redis.del(...keys);
  redis.disconnect();
}
await db.close();
await admin.query(`DROP DATABASE ${dbName} WITH (FORCE)`);
await admin.end();
await site.close();
