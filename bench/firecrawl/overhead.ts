/**
 * What the Firecrawl-compatible API costs over Trawl's native one, on the standalone process (as `npm start` runs it)
 * with the machine's Postgres and Redis:
 *  - scrape: one small fixture page through `@mendable/firecrawl-js` (`scrape`, formats markdown) beside the same page
 *    through native `GET /crawl` (markdown only) and through a plain `POST /v2/scrape` (the translation without the
 *    SDK), one call at a time, interleaved; p50 and p95 of each, and the overhead of the p50 and p95 over native.
 *  - crawl: the generated site (bench/support/crawl-site.ts) crawled through the SDK's waiter (`crawl`, which polls
 *    the status and gathers every document across its `next` pages) beside native `POST /crawls` polled at the same
 *    interval and its pages read back by cursor, with the same limit, depth, concurrency and formats; rounds
 *    alternate which side goes first. Both must store the same pages (checked, URL by URL); the time ratio is
 *    SDK / native, wall time from the request to every page in hand, and the crawl's own run (started → finished).
 *
 *   npm run build && node dist/bench/firecrawl/overhead.js [--scrapes=300] [--pages-per-host=400] [--depth=6]
 *     [--concurrency=8] [--rounds=3] [--poll-ms=1000]
 * The SDK's waiter polls at most once a second, so --poll-ms below 1000 favours the native side. Needs Postgres and
 * Redis: BENCH_PG_ADMIN_URL (default postgresql://postgres@127.0.0.1:5432/postgres), BENCH_REDIS_URL (default
 * redis://127.0.0.1:6379).
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import Firecrawl from '@mendable/firecrawl-js';
import { createBenchState } from '../support/bench-state.js';
import { startCrawlSite } from '../support/crawl-site.js';
import { spawnNodeApp } from '../support/node-app.js';
import { startSmallPageSite } from '../support/small-page.js';

const { values } = parseArgs({
  options: {
    scrapes: { type: 'string', default: '300' },
    'pages-per-host': { type: 'string', default: '400' },
    depth: { type: 'string', default: '6' },
    concurrency: { type: 'string', default: '8' },
    rounds: { type: 'string', default: '3' },
    'poll-ms': { type: 'string', default: '1000' },
  },
});
const scrapes = Number(values.scrapes);
const depth = Number(values.depth);
const concurrency = Number(values.concurrency);
const rounds = Number(values.rounds);
const pollMs = Number(values['poll-ms']);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const pgAdmin = process.env.BENCH_PG_ADMIN_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const redisUrl = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
const ms = (n: number) => `${n.toFixed(2)} ms`;
const pct = (a: number, b: number) => `${a >= b ? '+' : ''}${((a / b - 1) * 100).toFixed(1)} %`;
const sleep = (n: number) => new Promise((resolve) => setTimeout(resolve, n));

async function timed(work: () => Promise<void>): Promise<number> {
  const t0 = performance.now();
  await work();
  return performance.now() - t0;
}

const state = await createBenchState({ repoRoot: root, pgAdminUrl: pgAdmin, redisUrl, plans: ['scale'] });
const page = await startSmallPageSite();
const site = await startCrawlSite({ hosts: 2, pagesPerHost: Number(values['pages-per-host']), crawlDelaySeconds: null, trap: false, hugePageBytes: 0 });
const trawl = spawnNodeApp(
  path.join(root, 'dist/apps/standalone/src/main.js'),
  {
    DATABASE_URL: state.databaseUrl,
    REDIS_URL: redisUrl,
    REDIS_PREFIX: state.redisPrefix,
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'error',
    LOG_FORMAT: 'json',
    ALLOW_PRIVATE_ADDRESSES: 'true',
    CRAWL_HOST_MAX_INFLIGHT: String(concurrency),
    CRAWL_HOST_MIN_GAP_MS: '0',
    CRAWL_JOB_MAX_PAGES: '1000000',
  },
  /listening on (http:\/\/\S+) \(/,
);

try {
  const base = (await trawl.ready)[1];
  const apiKey = state.accounts[0].apiKey;
  const headers = { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' };
  const client = new Firecrawl({ apiKey, apiUrl: base });
  const getJson = async (url: string) => {
    const res = await fetch(url, { headers });
    if (!res.ok) throw new Error(`GET ${url}: ${res.status} ${await res.text()}`);
    return res.json() as Promise<any>;
  };

  // Scrape: the three sides, one call at a time, their order rotating.
  const sides: Array<{ name: string; call: () => Promise<void> }> = [
    {
      name: 'firecrawl-js scrape',
      call: async () => {
        const doc = await client.scrape(page.url, { formats: ['markdown'] });
        if (!doc.markdown?.includes('Trawling')) throw new Error('firecrawl-js scrape: no markdown');
      },
    },
    {
      name: 'native GET /crawl',
      call: async () => {
        const body = await getJson(`${base}/crawl?urls=${encodeURIComponent(page.url)}&markdown=true&enhanced_html=false`);
        if (!body.results[0].markdown?.includes('Trawling')) throw new Error('native /crawl: no markdown');
      },
    },
    {
      name: 'plain POST /v2/scrape',
      call: async () => {
        const res = await fetch(`${base}/v2/scrape`, { method: 'POST', headers, body: JSON.stringify({ url: page.url, formats: ['markdown'] }) });
        const body = (await res.json()) as any;
        if (!body.data?.markdown?.includes('Trawling')) throw new Error('POST /v2/scrape: no markdown');
      },
    },
  ];
  for (let i = 0; i < 10; i++) for (const side of sides) await side.call(); // warm-up: connections, JIT, pools
  const samples = sides.map(() => [] as number[]);
  for (let i = 0; i < scrapes; i++) {
    for (let k = 0; k < sides.length; k++) {
      const s = (i + k) % sides.length;
      samples[s].push(await timed(sides[s].call));
    }
  }
  console.log(`\nscrape of one small page, ${scrapes} calls a side, interleaved:`);
  const native = [...samples[1]].sort((a, b) => a - b);
  for (const [s, side] of sides.entries()) {
    const sorted = [...samples[s]].sort((a, b) => a - b);
    const over = s === 1 ? '' : `   overhead p50 ${pct(quantile(sorted, 0.5), quantile(native, 0.5))}, p95 ${pct(quantile(sorted, 0.95), quantile(native, 0.95))}`;
    console.log(`  ${side.name.padEnd(22)} p50 ${ms(quantile(sorted, 0.5))}  p95 ${ms(quantile(sorted, 0.95))}${over}`);
  }

  // Crawl: the same site, limit, depth, concurrency and formats (markdown only) on both sides.
  const start = `${site.hosts[0]}/`;
  const limit = 1_000_000;
  const crawlSummary = async (id: string) => getJson(`${base}/crawls/${id}?limit=1`);
  const runSeconds = (s: { started_at?: string; finished_at?: string }) => (Date.parse(s.finished_at ?? '') - Date.parse(s.started_at ?? '')) / 1000;

  const viaSdk = async () => {
    let urls: string[] = [];
    let id = '';
    const wall = await timed(async () => {
      const job = await client.crawl(start, { limit, maxDiscoveryDepth: depth, sitemap: 'skip', maxConcurrency: concurrency, scrapeOptions: { formats: ['markdown'] }, pollInterval: pollMs / 1000 });
      if (job.status !== 'completed') throw new Error(`SDK crawl ended ${job.status}`);
      id = job.id;
      urls = job.data.map((d) => String(d.metadata?.url));
    });
    return { wall, run: runSeconds(await crawlSummary(id)), urls };
  };

  const native$ = async () => {
    const urls: string[] = [];
    let id = '';
    const wall = await timed(async () => {
      const res = await fetch(`${base}/crawls`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ url: start, limit, max_depth: depth, sitemap: 'skip', concurrency, markdown: true, enhanced_html: false, raw_html: false, page_text: false }),
      });
      id = ((await res.json()) as { id: string }).id;
      for (;;) {
        const status = await crawlSummary(id);
        if (status.status !== 'queued' && status.status !== 'running') {
          if (status.status !== 'completed') throw new Error(`native crawl ended ${status.status}`);
          break;
        }
        await sleep(pollMs);
      }
      // Every page in hand, as the waiter has them: read by cursor.
      for (let cursor: string | null = ''; cursor !== null; ) {
        const read: any = await getJson(`${base}/crawls/${id}?limit=1000${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
        urls.push(...read.pages.map((p: { url: string }) => p.url));
        cursor = read.next_cursor;
      }
    });
    return { wall, run: runSeconds(await crawlSummary(id)), urls };
  };

  const expected = site.expected({ maxDepth: depth, sitemap: 'skip' }).length;
  console.log(`\ncrawl of the generated site (${site.hosts[0]}, depth ${depth}: ${expected} pages expected, concurrency ${concurrency}, polled every ${pollMs} ms), ${rounds} rounds:`);
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? [viaSdk, native$] : [native$, viaSdk];
    const [first, second] = [await order[0](), await order[1]()];
    const [sdk, nat] = round % 2 === 0 ? [first, second] : [second, first];
    const a = new Set(sdk.urls);
    const b = new Set(nat.urls);
    const same = a.size === b.size && [...a].every((u) => b.has(u));
    console.log(
      `  round ${round + 1}: ${same ? 'same' : 'DIFFERENT'} pages (SDK ${a.size}, native ${b.size}); wall SDK ${(sdk.wall / 1000).toFixed(2)} s, native ${(nat.wall / 1000).toFixed(2)} s` +
        ` (× ${(sdk.wall / nat.wall).toFixed(3)}); crawl run SDK ${sdk.run.toFixed(2)} s, native ${nat.run.toFixed(2)} s (× ${(sdk.run / nat.run).toFixed(3)})`,
    );
    if (!same) process.exitCode = 1;
  }
} finally {
  await trawl.stop();
  await site.close();
  await page.close();
  await state.drop();
}
