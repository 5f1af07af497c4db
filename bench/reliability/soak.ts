/**
 * Soak: Trawl standalone (its own process, Chromium under it) under a long mixed load over the plans' limits, sampled
 * as it runs, with the ledger and Redis checked at the end. What it answers: does anything grow with time (RSS of the
 * process and of Chromium, Redis memory and keys), does anything leak (open reservations, jobs, keys without TTL),
 * and does every credit add up. BullMQ's per-queue structural keys (meta, id, events: the stream is capped by length)
 * have no TTL by design; keysWithoutTtl lists every such key by shape, so anything else stands out.
 *
 * Load: one account per plan (free 5, developer 20, pro 50 concurrent), each with twice its limit of closed-loop
 * clients (a refused client tries again after 50 ms). Each request is one URL, plain or (RENDER_SHARE) rendered:
 * ordinary articles, a slow page, a 404, a redirect chain past the cap and a 20 MB body.
 *
 *   npm run build && npm run bench:soak [-- --minutes=10 --sample-seconds=15 --render-share=0.05]
 * Needs Postgres and Redis: BENCH_PG_ADMIN_URL (default postgresql://postgres@127.0.0.1:5432/postgres),
 * BENCH_REDIS_URL (default redis://127.0.0.1:6379).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Redis } from 'ioredis';
import pg from 'pg';
import { Pool } from 'undici';
import { sendBigBody } from '../support/big-body.js';
import { startTrawlStandalone, type BenchAccount } from '../support/corpus-site.js';
import { processTreeMemory } from '#browser/process-memory.js';

const { values } = parseArgs({
  options: {
    minutes: { type: 'string', default: '10' },
    'sample-seconds': { type: 'string', default: '15' },
    'render-share': { type: 'string', default: '0.05' },
  },
});
const minutes = Number(values.minutes);
const sampleSeconds = Number(values['sample-seconds']);
const renderShare = Number(values['render-share']);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const pgAdmin = process.env.BENCH_PG_ADMIN_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const redisUrl = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const LIMITS: Record<string, number> = { free: 5, developer: 20, pro: 50 };
const REFUSED_PAUSE_MS = 50;

// The fixture site: what a crawl meets in the wild, kind by kind.
const ARTICLE = (n: string) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Soak ${n}</title></head><body>
<nav><a href="/">Home</a></nav><main><article><h1>Page ${n}</h1>
${'<p>Trawling is a method of fishing that involves pulling a fishing net through the water behind one or more boats.</p>'.repeat(20)}
</article></main><footer>footer</footer></body></html>`;
const BIG = 20 * 1024 * 1024;
const routes: Array<{ weight: number; path: string; serve: (req: IncomingMessage, res: ServerResponse) => void }> = [
  { weight: 80, path: '/page/', serve: (req, res) => void res.writeHead(200, { 'content-type': 'text/html' }).end(ARTICLE(req.url!.slice(6))) },
  { weight: 8, path: '/slow/', serve: (req, res) => void setTimeout(() => res.writeHead(200, { 'content-type': 'text/html' }).end(ARTICLE(req.url!)), 800) },
  { weight: 6, path: '/missing/', serve: (_req, res) => void res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not found</h1>') },
  { weight: 4, path: '/chain/', serve: (req, res) => void res.writeHead(302, { location: `/chain/${Number(req.url!.slice(7)) + 1}` }).end() },
  {
    weight: 2,
    path: '/big/',
    serve: (_req, res) => {
      sendBigBody(res, BIG);
    },
  },
];
const totalWeight = routes.reduce((sum, r) => sum + r.weight, 0);
const site = createServer((req, res) => (routes.find((r) => req.url!.startsWith(r.path)) ?? routes[2]).serve(req, res));
await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
const siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
let sequence = 0;
function nextUrl(): string {
  let pick = Math.random() * totalWeight;
  const route = routes.find((r) => (pick -= r.weight) < 0) ?? routes[0];
  return `${siteUrl}${route.path}${route.path === '/chain/' ? 0 : ++sequence}`;
}

const trawl = await startTrawlStandalone({
  repoRoot: root,
  pgAdminUrl: pgAdmin,
  redisUrl,
  plans: Object.keys(LIMITS),
  env: { WORKER_HTTP_CONCURRENCY: '100', CRAWL_TIMEOUT_MS: '10000' },
});
const api = new Pool(trawl.baseUrl, { connections: 160 });
const db = new pg.Client({ connectionString: trawl.databaseUrl });
await db.connect();
const redis = new Redis(redisUrl);

interface Tally {
  sent: number;
  ok: number;
  credits: number;
  refused: number;
  failed: Record<string, number>;
  okMs: number[];
}
const tallies = new Map<string, Tally>(trawl.accounts.map((a) => [a.plan, { sent: 0, ok: 0, credits: 0, refused: 0, failed: {}, okMs: [] }]));
const end = Date.now() + minutes * 60_000;

async function client(account: BenchAccount): Promise<void> {
  const tally = tallies.get(account.plan)!;
  while (Date.now() < end) {
    const render = Math.random() < renderShare ? '&render_js=true' : '';
    tally.sent++;
    const sentAt = performance.now();
    try {
      const res = await api.request({ path: `/crawl?urls=${encodeURIComponent(nextUrl())}${render}`, method: 'GET', headers: { 'x-api-key': account.apiKey } });
      const body = (await res.body.json()) as { credits?: number; error?: { code: string } };
      if (res.statusCode === 200) {
        tally.ok++;
        tally.credits += body.credits ?? 0;
        tally.okMs.push(performance.now() - sentAt);
      } else if (body.error?.code === 'CONCURRENCY_LIMIT') {
        tally.refused++;
        await new Promise((resolve) => setTimeout(resolve, REFUSED_PAUSE_MS));
      } else {
        const code = `${res.statusCode} ${body.error?.code ?? 'no contract body'}`;
        tally.failed[code] = (tally.failed[code] ?? 0) + 1;
      }
    } catch (error) {
      const code = `transport ${(error as Error).message}`;
      tally.failed[code] = (tally.failed[code] ?? 0) + 1;
    }
  }
}

async function redisState(): Promise<{ usedMemory: number; keys: number; noTtl: Map<string, number> }> {
  const usedMemory = Number(/used_memory:(\d+)/.exec(await redis.info('memory'))?.[1] ?? 0);
  const noTtl = new Map<string, number>();
  let keys = 0;
  for (let cursor = '0'; ; ) {
    const [next, batch] = await redis.scan(cursor, 'MATCH', `${trawl.redisPrefix}:*`, 'COUNT', 1000);
    keys += batch.length;
    if (batch.length > 0) {
      const ttls = await batch.reduce((pipe, k) => pipe.pttl(k), redis.pipeline()).exec();
      batch.forEach((k, i) => {
        if (ttls?.[i]?.[1] === -1) {
          // Group by shape: ids and numbers become '*'.
          const shape = k.slice(trawl.redisPrefix.length).replace(/[0-9a-f-]{8,}|\d+/g, '*');
          noTtl.set(shape, (noTtl.get(shape) ?? 0) + 1);
        }
      });
    }
    cursor = next;
    if (cursor === '0') break;
  }
  return { usedMemory, keys, noTtl };
}

const openReservations = async () => (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM reservations WHERE status = 'open'`)).rows[0].n;

interface Sample {
  minute: number;
  trawlRss: number;
  chromiumRss: number;
  chromiumProcesses: number;
  redisMemory: number;
  redisKeys: number;
  open: number;
  sent: number;
}
const samples: Sample[] = [];
const started = Date.now();
const sampler = setInterval(() => {
  void (async () => {
    const [self, ...chromium] = processTreeMemory(trawl.pid);
    const state = await redisState();
    const sample: Sample = {
      minute: Number(((Date.now() - started) / 60_000).toFixed(2)),
      trawlRss: Math.round(self?.rssMb ?? 0),
      // A sum of RSS: pages shared between Chromium's processes count once per process (an upper bound).
      chromiumRss: Math.round(chromium.reduce((sum, p) => sum + p.rssMb, 0)),
      chromiumProcesses: chromium.length,
      redisMemory: Math.round(state.usedMemory / 2 ** 20),
      redisKeys: state.keys,
      open: await openReservations(),
      sent: [...tallies.values()].reduce((sum, t) => sum + t.sent, 0),
    };
    samples.push(sample);
    console.log(JSON.stringify(sample));
  })();
}, sampleSeconds * 1000);

await Promise.all(trawl.accounts.flatMap((account) => Array.from({ length: 2 * LIMITS[account.plan] }, () => client(account))));
clearInterval(sampler);

// Drained: every reservation settles (the process is still up, so no reconciler period is needed).
const drainDeadline = Date.now() + 60_000;
while ((await openReservations()) > 0 && Date.now() < drainDeadline) await new Promise((resolve) => setTimeout(resolve, 250));

const accounts = [];
for (const account of trawl.accounts) {
  const { okMs, ...tally } = tallies.get(account.plan)!;
  okMs.sort((a, b) => a - b);
  const { rows } = await db.query<{ balance: string; ledger: string; allowance: number }>(
    `SELECT a.balance::text AS balance, (SELECT coalesce(sum(amount), 0) FROM credit_ledger l WHERE l.account_id = a.id)::text AS ledger,
            p.monthly_credits AS allowance
       FROM accounts a JOIN plans p ON p.id = a.plan_id WHERE a.id = $1`,
    [account.accountId],
  );
  const { balance, ledger, allowance } = rows[0];
  accounts.push({
    plan: account.plan,
    ...tally,
    okP50Ms: Math.round(okMs[Math.floor(okMs.length * 0.5)] ?? NaN),
    okP99Ms: Math.round(okMs[Math.floor(okMs.length * 0.99)] ?? NaN),
    balance: Number(balance),
    ledgerSumsToBalance: ledger === balance,
    chargedAsReported: Number(allowance) - Number(balance) === tally.credits,
  });
}
const final = await redisState();
const quarter = (from: number, to: number, pick: (s: Sample) => number) => {
  const part = samples.slice(Math.floor(samples.length * from), Math.max(Math.floor(samples.length * from) + 1, Math.floor(samples.length * to))).map(pick);
  return part.sort((a, b) => a - b)[Math.floor(part.length / 2)] ?? NaN;
};
const drift = (pick: (s: Sample) => number) => ({ firstQuarter: quarter(0, 0.25, pick), lastQuarter: quarter(0.75, 1, pick), peak: Math.max(...samples.map(pick)) });
const summary = {
  bench: 'soak',
  minutes,
  renderShare,
  requestsSent: accounts.reduce((sum, a) => sum + a.sent, 0),
  accounts,
  openReservationsAfterDrain: await openReservations(),
  trawlRssMiB: drift((s) => s.trawlRss),
  chromiumRssMiB: drift((s) => s.chromiumRss),
  redisMemoryMiB: drift((s) => s.redisMemory),
  redisKeys: { ...drift((s) => s.redisKeys), final: final.keys },
  keysWithoutTtl: Object.fromEntries(final.noTtl),
};
console.log(JSON.stringify(summary, null, 2));

await api.close();
await db.end();
redis.disconnect();
await trawl.stop();
site.closeAllConnections();
site.close();
