/**
 * `/search` latency with `auto_crawling=true`, 10 results and `markdown=true` through the whole pipeline (standalone
 * process: auth, concurrency gate, credits in Postgres, a `serp.web` job, ten `crawl.page` jobs fanned out, formats),
 * beside the floor: one SERP fetch + parse plus the slowest single crawl (fetch + formats), done directly in-process.
 * The fixture site answers nine results at once and one after SLOW_MS, so fan-out should cost little above the floor.
 *
 *   npm run build && npm run bench:search [-- --seconds=10 --slow-ms=400]
 * Needs Postgres and Redis: BENCH_PG_ADMIN_URL (default postgresql://postgres@127.0.0.1:5432/postgres),
 * BENCH_REDIS_URL (default redis://127.0.0.1:6379).
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { Pool } from 'undici';
import { AccountAdminService, AuthService } from '#billing';
import { systemClock } from '#platform';
import { AccountsRepository, Database, LedgerRepository, migrate } from '#db';
import { formatPage } from '#extraction';
import { UndiciHttpClient } from '#fetch';
import { parseBingSearchPage } from '#serp';
import { bingPage } from '#bench/support/bing-fixture.js';
import { closedLoop, type LoadResult } from '../support/load.js';

const { values } = parseArgs({ options: { seconds: { type: 'string', default: '10' }, 'slow-ms': { type: 'string', default: '400' } } });
const seconds = Number(values.seconds);
const slowMs = Number(values['slow-ms']);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const pgAdmin = process.env.BENCH_PG_ADMIN_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const redisUrl = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';

const ARTICLE = (n: number) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Trawling ${n}</title></head><body>
<nav><a href="/">Home</a></nav><main><article><h1>Trawling, part ${n}</h1>
${'<p>Trawling is a method of fishing that involves pulling a fishing net through the water behind one or more boats.</p>'.repeat(12)}
</article></main><footer>footer</footer></body></html>`;

// Fixture site: /page/0..9, /page/9 answers after slowMs. Fixture Bing: one page of ten results pointing at it.
const site = createServer((req, res) => {
  const n = Number((req.url ?? '').split('/').pop());
  const send = () => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(ARTICLE(n));
  if (n === 9) setTimeout(send, slowMs);
  else send();
});
await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
const siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
const SERP = bingPage({
  query: 'trawling', offset: 0, hasNext: true, blocks: true,
  results: Array.from({ length: 10 }, (_, i) => ({ title: `Trawling part ${i}`, link: `${siteUrl}/page/${i}`, snippet: `About trawling, part ${i}.` })),
});
const bing = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(SERP));
await new Promise<void>((resolve) => bing.listen(0, '127.0.0.1', resolve));
const bingUrl = `http://127.0.0.1:${(bing.address() as AddressInfo).port}`;

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
const trawl = spawn(process.execPath, [path.join(root, 'dist/apps/standalone/src/main.js')], {
  env: {
    ...process.env,
    DATABASE_URL: dbUrl.toString(),
    REDIS_URL: redisUrl,
    REDIS_PREFIX: `trawl-bench-${dbName}`,
    PORT: String(port),
    LOG_LEVEL: 'error',
    ALLOW_PRIVATE_ADDRESSES: 'true',
    SEARCH_ENGINE: 'bing',
    BING_BASE_URL: bingUrl,
  },
  stdio: ['ignore', 'pipe', 'inherit'],
});
await new Promise<void>((resolve, reject) => {
  trawl.stdout!.on('data', (chunk: Buffer) => chunk.toString().includes('listening') && resolve());
  trawl.once('exit', (code) => reject(new Error(`trawl exited with ${code}`)));
});

const api = new Pool(`http://127.0.0.1:${port}`, { connections: 8 });
const searchPath = '/search?query=trawling&auto_crawling=true&markdown=true';
const viaTrawl = async () => {
  const res = await api.request({ path: searchPath, method: 'GET', headers: { 'x-api-key': account.apiKey } });
  const body = (await res.body.json()) as { pages?: Record<string, { search_results: Array<{ page_content?: { page_markdown?: string } }> }> };
  const results = body.pages?.['1']?.search_results ?? [];
  return res.statusCode === 200 && results.length === 10 && results.every((r) => !!r.page_content?.page_markdown);
};
const http = new UndiciHttpClient({ allowPrivateAddresses: true });
const formats = { raw_html: false, enhanced_html: false, markdown: true, page_text: false };
const floor = async () => {
  const serp = await http.fetch({ url: `${bingUrl}/search?q=trawling`, timeoutMs: 10_000, maxBytes: 10_000_000 });
  const parsed = parseBingSearchPage(serp.body, { page: 1 });
  const slow = await http.fetch({ url: `${siteUrl}/page/9`, timeoutMs: 10_000, maxBytes: 10_000_000 });
  formatPage(slow.body, { url: slow.finalUrl, formats });
  return parsed.page?.search_results.length === 10;
};

// The same pipeline for the slow page alone (`/crawl`): what one queued crawl costs over its fetch, for comparison.
const crawlPath = `/crawl?urls=${encodeURIComponent(`${siteUrl}/page/9`)}&markdown=true&enhanced_html=false`;
const slowViaCrawl = async () => {
  const res = await api.request({ path: crawlPath, method: 'GET', headers: { 'x-api-key': account.apiKey } });
  const body = (await res.body.json()) as { successful_pages?: number };
  return res.statusCode === 200 && body.successful_pages === 1;
};

const rows: Array<{ path: string } & LoadResult> = [];
rows.push({ path: 'floor (SERP fetch + parse, then the slowest crawl)', ...(await closedLoop(1, seconds, floor)) });
rows.push({ path: 'trawl /search auto_crawling (standalone)', ...(await closedLoop(1, seconds, viaTrawl)) });
rows.push({ path: 'trawl /crawl of the slow page alone', ...(await closedLoop(1, seconds, slowViaCrawl)) });
console.table(rows);
console.log(JSON.stringify({ bench: 'search', seconds, slowMs, overheadP50Ms: Number((rows[1].p50 - rows[0].p50).toFixed(2)), rows }));

trawl.kill('SIGTERM');
await new Promise((resolve) => trawl.once('exit', resolve));
await api.close();
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
site.close();
bing.close();
