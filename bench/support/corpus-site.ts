/**
 * Fixtures for the side-by-side `/crawl` benchmarks (bench/crawl/crawlee-compare.ts, render-compare.ts):
 *  - a loopback site serving real pages of the Zyte article corpus (read from ../shared/corpus, never copied into the
 *    repo), one URL per page, `/p/<id>`;
 *  - Trawl under test: the standalone process on a fresh Postgres database with a 'scale' account, stopped and its
 *    database dropped by `stop()`;
 *  - CPU accounting from /proc, to tell how CPU splits between Trawl (with its Chromium), the load side (or Crawlee)
 *    and Postgres + Redis.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { Pool } from 'undici';
import { createBenchState, type BenchAccount } from './bench-state.js';
import { spawnNodeApp } from './node-app.js';
import { measureCpu, SERVICE_PROCESSES } from './process-cpu.js';

export type { BenchAccount } from './bench-state.js';

const ZYTE_HTML = 'extraction/zyte-article-extraction-benchmark/html';

export interface CorpusPage {
  /** The corpus file the page came from (its sha256 name). */
  file: string;
  html: Buffer;
}

/**
 * The first `count` pages of the Zyte corpus (sorted by file name), decompressed. The corpus has 181 pages: a larger
 * `count` cycles through them again (distinct URLs, repeated documents). Exits the process with a clear message when
 * the corpus is absent, since nothing can be measured without it.
 */
export function loadCorpusPages(repoRoot: string, count: number): CorpusPage[] {
  const dir = path.join(path.resolve(repoRoot, '../shared/corpus'), ZYTE_HTML);
  if (!existsSync(dir)) {
    console.error(`corpus not found at ${dir}: these benchmarks need ../shared/corpus beside the repo (skipping)`);
    process.exit(1);
  }
  const files = readdirSync(dir).filter((f) => f.endsWith('.html.gz')).sort();
  if (files.length === 0) {
    console.error(`no *.html.gz pages in ${dir}`);
    process.exit(1);
  }
  const docs = files.slice(0, count).map((file) => ({ file, html: gunzipSync(readFileSync(path.join(dir, file))) }));
  return Array.from({ length: count }, (_, i) => docs[i % docs.length]);
}

export interface CorpusSite {
  /** One URL per page, in page order. */
  urls: string[];
  /** Distinct documents behind `urls`, and their total size. */
  distinct: number;
  totalBytes: number;
  /** Requests answered so far (every path), to check each side fetched what it claims. */
  requests(): number;
  close(): Promise<void>;
}

export interface CorpusSiteOptions {
  /**
   * Send `Content-Security-Policy: default-src 'self' 'unsafe-inline' 'unsafe-eval' data: blob:` with each page, so
   * a browser refuses the pages' third-party resources at once (ERR_BLOCKED_BY_CSP) instead of trying to reach hosts
   * that do not exist on this offline machine: without it, a render measures how each stack's proxy and resolver
   * fail (Crawlee's proxy-chain aborts the CONNECT and Chromium takes seconds per page), not rendering. Inline
   * scripts still run and the HTML is unchanged.
   */
  sameOriginOnly?: boolean;
}

const SAME_ORIGIN_CSP = "default-src 'self' 'unsafe-inline' 'unsafe-eval' data: blob:";

/** Serves `pages` on 127.0.0.1 (keep-alive, `text/html; charset=utf-8`), page i at `/p/<i>`. */
export async function startCorpusSite(pages: CorpusPage[], options: CorpusSiteOptions = {}): Promise<CorpusSite> {
  const headers = (length: number): Record<string, string | number> => ({
    'content-type': 'text/html; charset=utf-8',
    'content-length': length,
    ...(options.sameOriginOnly ? { 'content-security-policy': SAME_ORIGIN_CSP } : {}),
  });
  let served = 0;
  const server: Server = createServer((req, res) => {
    served++;
    const m = /^\/p\/(\d+)$/.exec(req.url ?? '');
    const page = m ? pages[Number(m[1])] : undefined;
    if (!page) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    res.writeHead(200, headers(page.html.length)).end(page.html);
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    urls: pages.map((_, i) => `${base}/p/${i}`),
    distinct: new Set(pages.map((p) => p.file)).size,
    totalBytes: pages.reduce((n, p) => n + p.html.length, 0),
    requests: () => served,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export interface StandaloneOptions {
  repoRoot: string;
  /** Postgres admin URL (a database is created and dropped through it). */
  pgAdminUrl: string;
  redisUrl: string;
  /** Extra environment for the standalone process (STANDALONE_WORKERS, WORKER_RENDER_CONCURRENCY, ...). */
  env: Record<string, string>;
  /** Node flags for the standalone process, e.g. `--cpu-prof` (which NODE_OPTIONS does not accept). */
  nodeArgs?: string[];
  /** Plans of further accounts to create beside the 'scale' one (soak: several plans over their limits). */
  plans?: string[];
}

export interface TrawlStandalone {
  baseUrl: string;
  apiKey: string;
  /** The 'scale' account behind `apiKey`. */
  accountId: string;
  /** The accounts of `plans`, in order. */
  accounts: BenchAccount[];
  /** The run's own database (dropped by stop()) and Redis key prefix, for invariant checks. */
  databaseUrl: string;
  redisPrefix: string;
  pid: number;
  /** Stops the process (SIGTERM, SIGKILL after 10 s), drops its database and deletes its Redis keys. Idempotent. */
  stop(): Promise<void>;
}

/** Starts `dist/apps/standalone/src/main.js` on a fresh, migrated database with one 'scale' account (as crawl-bench.ts). */
export async function startTrawlStandalone(opts: StandaloneOptions): Promise<TrawlStandalone> {
  const state = await createBenchState({ ...opts, plans: ['scale', ...(opts.plans ?? [])] });
  try {
    const port = 20000 + Math.floor(Math.random() * 20000);
    const app = spawnNodeApp(
      path.join(opts.repoRoot, 'dist/apps/standalone/src/main.js'),
      {
        DATABASE_URL: state.databaseUrl,
        REDIS_URL: opts.redisUrl,
        REDIS_PREFIX: state.redisPrefix,
        PORT: String(port),
        LOG_LEVEL: 'error',
        ALLOW_PRIVATE_ADDRESSES: 'true',
        DATABASE_POOL_SIZE: '20',
        ...opts.env,
      },
      /listening/,
      opts.nodeArgs,
    );
    await app.ready.catch(async (error: unknown) => {
      await app.stop();
      throw error;
    });
    const [scale, ...accounts] = state.accounts;
    let stopped: Promise<void> | undefined;
    return {
      baseUrl: `http://127.0.0.1:${port}`,
      apiKey: scale.apiKey,
      accountId: scale.accountId,
      accounts,
      databaseUrl: state.databaseUrl,
      redisPrefix: state.redisPrefix,
      pid: app.pid,
      stop: () => (stopped ??= app.stop().then(state.drop)),
    };
  } catch (error) {
    await state.drop();
    throw error;
  }
}

/**
 * CPU seconds spent in a window: the Trawl process and, apart, its descendants (Chromium); this process (site, load
 * generator or Crawlee) and, apart, its other descendants (Crawlee's Chromium); and the shared Postgres + Redis
 * (which serve other users of the machine too: an upper bound for the benchmark's share).
 */
export interface CpuSplit {
  trawl: number;
  trawlChildren: number;
  bench: number;
  benchChildren: number;
  services: number;
}
const CPU_GROUPS = ['trawl', 'trawlChildren', 'bench', 'benchChildren', 'services'] as const;

/** Measures CpuSplit (by ancestry, or by name for the services) with measureCpu's /proc sampling. */
export class CpuMeter {
  constructor(
    private readonly trawlPid: number,
    private readonly benchPid = process.pid,
    private readonly intervalMs = 200,
  ) {}

  measure<T>(work: () => Promise<T>): Promise<{ result: T; cpu: CpuSplit }> {
    return measureCpu<keyof CpuSplit, T>(
      CPU_GROUPS,
      (p, under) =>
        p.pid === this.trawlPid
          ? 'trawl'
          : under(this.trawlPid)
            ? 'trawlChildren'
            : p.pid === this.benchPid
              ? 'bench'
              : under(this.benchPid)
                ? 'benchChildren'
                : SERVICE_PROCESSES.has(p.comm)
                  ? 'services'
                  : undefined,
      work,
      this.intervalMs,
    );
  }
}

/** The q-quantile (0..1) of `values` in ms, rounded; NaN when empty. */
export function quantile(values: number[], q: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]);
}

export interface TrawlPass {
  pages: number;
  ok: number;
  failed: number;
  seconds: number;
  pagesPerSecond: number;
  /** Latency of each `/crawl` request (one per group of URLs), ms. */
  requestMs: number[];
  /** Total Markdown characters returned, to check both sides produced comparable output. */
  markdownChars: number;
  /** First few error messages (per URL or per request). */
  errors: string[];
}

interface CrawlBody {
  results?: Array<{ markdown?: string; error?: string }>;
  successful_pages?: number;
}

/**
 * Crawls `groups` through `GET /crawl` (one request per group, comma-separated URLs) with `clients` requests in
 * flight, each client taking the next group when its last request returns.
 */
export async function crawlThroughTrawl(
  api: Pool,
  apiKey: string,
  groups: string[][],
  clients: number,
  extraQuery = '',
): Promise<TrawlPass> {
  const requestMs: number[] = [];
  const errors: string[] = [];
  let ok = 0;
  let failed = 0;
  let markdownChars = 0;
  let next = 0;
  const started = performance.now();
  const client = async (): Promise<void> => {
    while (next < groups.length) {
      const group = groups[next++];
      const t0 = performance.now();
      try {
        const res = await api.request({
          path: `/crawl?urls=${encodeURIComponent(group.join(','))}${extraQuery}`,
          method: 'GET',
          headers: { 'x-api-key': apiKey },
        });
        const body = (await res.body.json()) as CrawlBody;
        requestMs.push(performance.now() - t0);
        if (res.statusCode !== 200 || !body.results) {
          failed += group.length;
          if (errors.length < 5) errors.push(`HTTP ${res.statusCode}: ${JSON.stringify(body).slice(0, 200)}`);
          continue;
        }
        for (const r of body.results) {
          if (r.error === undefined) {
            ok++;
            markdownChars += r.markdown?.length ?? 0;
          } else {
            failed++;
            if (errors.length < 5) errors.push(r.error);
          }
        }
      } catch (error) {
        failed += group.length;
        if (errors.length < 5) errors.push(String(error));
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(clients, groups.length) }, client));
  const seconds = (performance.now() - started) / 1000;
  const pages = groups.reduce((n, g) => n + g.length, 0);
  return { pages, ok, failed, seconds, pagesPerSecond: ok / seconds, requestMs, markdownChars, errors };
}

/** `urls` in consecutive groups of at most `size`. */
export function chunk<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
