/**
 * The environment Trawl reads, validated once at boot. Nothing else in the code base reads process.env.
 */
import { z } from 'zod';
import { MAPS_PROVIDERS, SEARCH_PROVIDERS, SERP_SEARCH_PROVIDERS } from '#contracts/jobs.js';
import { parseProxyList } from '#contracts/proxy.js';

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');
/** A proxy list (`us=http://host:port|…,de=…,*=…`), checked at boot so a malformed one never starts a process. */
const proxyList = z
  .string()
  .default('')
  .superRefine((value, ctx) => {
    try {
      parseProxyList(value);
    } catch (error) {
      ctx.addIssue({ code: 'custom', message: (error as Error).message });
    }
  });
const int = (min: number, max: number) => z.coerce.number().int().min(min).max(max);
/** 0 (off) or an integer in [min, max]. */
const intOrOff = (min: number, max: number) =>
  z.coerce.number().int().refine((v) => v === 0 || (v >= min && v <= max), `must be 0 (off) or between ${min} and ${max}`);

export const configSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().min(1).default('127.0.0.1'),
  PORT: int(0, 65535).default(8080),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** `auto`: readable lines (pino-pretty) and a start-up banner when stdout is a terminal, JSON lines otherwise. */
  LOG_FORMAT: z.enum(['auto', 'json', 'pretty']).default('auto'),

  /** Postgres. Unset: `npm start` runs an embedded Postgres server with its data in DATA_DIR/postgresql. */
  DATABASE_URL: z.string().url().optional(),
  DATABASE_POOL_SIZE: int(1, 200).default(10),
  /**
   * `off` makes Postgres acknowledge commits before their WAL is flushed: ledger writes get ~2× faster, and a
   * Postgres crash can lose the last fraction of a second of commits. Every ledger statement is atomic, so a lost
   * commit can only lose a charge (an open reservation the reconciler refunds), never charge twice or go negative.
   */
  DATABASE_SYNCHRONOUS_COMMIT: z.enum(['on', 'off']).default('on'),
  /** Redis. Unset: `npm start` launches a local redis-server. */
  REDIS_URL: z.string().url().optional(),
  /** Prefix of every Redis key Trawl writes (queues, leases): lets deployments and tests share one Redis. */
  REDIS_PREFIX: z.string().regex(/^[A-Za-z0-9_:{}-]+$/).default('trawl'),
  DATA_DIR: z.string().default('.trawl-data'),

  /** Bearer token for /admin; the admin API is disabled when unset. */
  ADMIN_TOKEN: z.string().min(16, 'ADMIN_TOKEN must be at least 16 characters').optional(),
  /** Serves /metrics without authentication on this port (gateway and workers), for Prometheus scrapers. Unset: off. */
  METRICS_PORT: int(0, 65535).optional(),
  /** The queue dashboard (/admin/queues) may retry, promote and clean jobs; read-only when false. */
  QUEUE_DASHBOARD_ACTIONS: bool.default(false),
  /** How long a resolved API key is trusted before it is looked up again (revocations are also pushed over Redis). */
  AUTH_CACHE_MS: int(0, 600_000).default(5_000),
  /**
   * Browser origins allowed to call /mcp (comma-separated, e.g. `http://localhost:6274`). A request whose Origin is
   * not listed gets 403 (DNS-rebinding protection, as the MCP specification requires); requests without Origin pass.
   */
  MCP_ALLOWED_ORIGINS: z
    .string()
    .default('')
    .transform((v) => v.split(',').map((s) => s.trim()).filter(Boolean))
    .pipe(z.array(z.url({ protocol: /^https?$/, error: 'MCP_ALLOWED_ORIGINS: a comma-separated list of http(s) origins' }).transform((o) => new URL(o).origin))),

  /** Crawl safety and bounds. */
  ALLOW_PRIVATE_ADDRESSES: bool.default(false),
  CRAWL_MAX_URLS: int(1, 1000).default(20),
  CRAWL_TIMEOUT_MS: int(100, 300_000).default(30_000),
  CRAWL_MAX_BYTES: int(1024, 200 * 1024 * 1024).default(10 * 1024 * 1024),
  CRAWL_MAX_REDIRECTS: int(0, 30).default(10),
  /** Whole-request deadline at the gateway; URLs not done by then fail with TIMEOUT and cost nothing. */
  REQUEST_DEADLINE_MS: int(1_000, 900_000).default(120_000),
  /** Proxy pool: `us=http://user:pass@host:port|http://host2:port,de=http://host3:port,*=http://any:port`. */
  PROXIES: proxyList,

  /** Site crawls and batches (POST /crawls, /batches): bounds a request may ask within, and how long results are kept. */
  CRAWL_JOB_MAX_PAGES: int(1, 10_000_000).default(10_000),
  BATCH_MAX_URLS: int(1, 1_000_000).default(10_000),
  CRAWL_JOB_MAX_CONCURRENCY: int(1, 1000).default(50),
  /** Results of a finished crawl are deleted this long after it finished. */
  CRAWL_RETENTION_MS: int(60_000, 30 * 86_400_000).default(86_400_000),
  /** Politeness on every host, across all crawls and workers: pages in flight, and the least gap between two request starts. */
  CRAWL_HOST_MAX_INFLIGHT: int(1, 1000).default(4),
  CRAWL_HOST_MIN_GAP_MS: int(0, 60_000).default(100),
  /** The product token robots.txt rules are matched against (`User-agent: TrawlBot`). */
  CRAWL_ROBOTS_USER_AGENT: z.string().regex(/^[A-Za-z_-]{1,64}$/, 'a robots.txt product token: letters, "_" and "-"').default('TrawlBot'),
  /** A trap bound: URLs of one crawl sharing a path shape (digits, dates, ids made placeholders). */
  CRAWL_MAX_URLS_PER_PATTERN: int(1, 10_000_000).default(1_000),
  /** A crawl's URLs pending in Redis at most; past it, admitted URLs wait in Postgres (Redis memory stays bounded). */
  CRAWL_FRONTIER_REDIS_URLS: int(10, 10_000_000).default(5_000),
  /** Bytes of formats stored per page; a page over it keeps its first bytes and is marked `truncated`. */
  CRAWL_PAGE_MAX_BYTES: int(10_000, 100 * 1024 * 1024).default(5 * 1024 * 1024),
  /** Pages of any crawl one gateway process works on at once (it waits on the workers, it does not fetch). */
  CRAWL_COORDINATOR_CONCURRENCY: int(1, 1000).default(64),
  /** Webhook deliveries: attempts in all (exponential backoff from WEBHOOK_BACKOFF_MS), and each POST's budget. */
  WEBHOOK_ATTEMPTS: int(1, 20).default(8),
  WEBHOOK_BACKOFF_MS: int(100, 600_000).default(2_000),
  WEBHOOK_TIMEOUT_MS: int(1_000, 60_000).default(10_000),
  /**
   * The page cache of `/crawl` (`max_age`), in the platform Redis under its own keys: the bytes its entries may hold
   * together (compressed, with a per-entry overhead counted), the least recently used evicted past it. 0: off (a
   * `max_age` is then a 400). Redis' own maxmemory-policy is never relied on: the queues share that Redis.
   */
  PAGE_CACHE_MAX_BYTES: int(0, 64 * 1024 * 1024 * 1024).default(64 * 1024 * 1024),
  /** The longest `max_age` a call may give, and how long an entry is kept (its Redis TTL). Whole seconds. */
  PAGE_CACHE_MAX_AGE_MS: int(1_000, 30 * 86_400_000).default(172_800_000),
  /**
   * `account`: a page stored by one account is served to that account only. `shared`: to every account asking with
   * the same options (one fetch serves all; an account can then tell that someone fetched a URL recently).
   */
  PAGE_CACHE_SCOPE: z.enum(['account', 'shared']).default('account'),
  /** `POST /map`: the largest `limit` a call may ask for (URLs in one answer). */
  MAP_MAX_LINKS: int(1, 1_000_000).default(100_000),
  /**
   * The Firecrawl watcher (WebSocket on `/v2/crawl/{id}`): connections one account may hold open at once (0: the
   * watcher is off and its upgrades are refused), and how long one stays open with no new page before it is closed
   * (the SDK then polls the status pages).
   */
  FIRECRAWL_WATCH_MAX_PER_ACCOUNT: int(0, 10_000).default(10),
  FIRECRAWL_WATCH_IDLE_MS: int(5_000, 86_400_000).default(600_000),

  /** Concurrency gate: lease lifetime; a live request renews its lease every third of it. */
  CONCURRENCY_LEASE_MS: int(1_000, 600_000).default(30_000),
  /** A reservation not settled by then (its gateway died) is refunded by the reconciler. */
  RESERVATION_TTL_MS: int(10_000, 86_400_000).default(20 * 60_000),
  RECONCILE_INTERVAL_MS: int(1_000, 3_600_000).default(60_000),

  /** Queue behaviour. */
  JOB_ATTEMPTS: int(1, 10).default(3),
  JOB_BACKOFF_MS: int(0, 60_000).default(500),
  /** A job whose worker stops renewing its lock for this long is taken back and retried. */
  WORKER_LOCK_MS: int(1_000, 600_000).default(30_000),
  WORKER_HTTP_CONCURRENCY: int(1, 1000).default(64),
  WORKER_RENDER_CONCURRENCY: int(1, 64).default(4),
  WORKER_HEADFUL_CONCURRENCY: int(1, 32).default(2),
  /** Worker threads for the format pipeline; pages over 64 KiB go there so a busy worker's event loop stays free. */
  EXTRACTION_THREADS: int(0, 64).default(1),
  MARKDOWN_CONVERTER: z.enum(['mdream', 'turndown']).default('mdream'),
  /** PDF pages a crawl reads from one document (the first ones); the page count in its metadata is the document's. */
  PDF_MAX_PAGES: int(1, 100_000).default(200),

  /** Search-engine upstreams (operator config, so not subject to the crawl's private-address guard). */
  GOOGLE_BASE_URL: z.string().url().default('https://www.google.com'),
  /** Google needs JavaScript since 2025: `render` sends SERP fetches through worker-render. */
  GOOGLE_TRANSPORT: z.enum(['http', 'render']).default('render'),
  BING_BASE_URL: z.string().url().default('https://www.bing.com'),
  DUCKDUCKGO_BASE_URL: z.string().url().default('https://html.duckduckgo.com'),
  SEARXNG_BASE_URL: z.string().url().optional(),
  /** `/serp-search` engine: only engines with a Google-shaped result parser (Bing and DuckDuckGo serve `/search` only). */
  SERP_ENGINE: z
    .enum(SERP_SEARCH_PROVIDERS, { error: `must be one of ${SERP_SEARCH_PROVIDERS.join(', ')} (bing and duckduckgo serve /search only: see SEARCH_ENGINE)` })
    .default('google'),
  /** A blocked SERP fetch is retried through another proxy this many times in all. */
  SERP_PROXY_ATTEMPTS: int(1, 10).default(3),
  SERP_TIMEOUT_MS: int(1_000, 120_000).default(20_000),
  /** `/search`: the engine result pages come from (SearXNG needs SEARXNG_BASE_URL; Google goes through GOOGLE_TRANSPORT). */
  SEARCH_ENGINE: z.enum(SEARCH_PROVIDERS).default('bing'),
  /** `/search` auto-crawl: crawls in flight per call, each result's own budget, and the one deadline for all of them. */
  SEARCH_CRAWL_CONCURRENCY: int(1, 100).default(10),
  SEARCH_CRAWL_TIMEOUT_MS: int(500, 120_000).default(10_000),
  SEARCH_CRAWL_DEADLINE_MS: int(500, 300_000).default(15_000),

  /** `/serp-maps` provider: Google Maps (GOOGLE_BASE_URL) or OpenStreetMap via Nominatim. */
  MAPS_PROVIDER: z.enum(MAPS_PROVIDERS).default('google'),
  NOMINATIM_BASE_URL: z.string().url().default('https://nominatim.openstreetmap.org'),
  /** Accepted for a self-hosted OSM stack; Nominatim answers every query form /serp-maps has, so unused today. */
  OVERPASS_BASE_URL: z.string().url().optional(),
  /** Identifying User-Agent for Nominatim (the public instance refuses stock agents); put a contact in it. */
  NOMINATIM_USER_AGENT: z.string().min(8).max(256).optional(),
  /**
   * Least time between two Nominatim requests across the whole deployment (a Redis slot shared by all workers).
   * Unset: 1000 for nominatim.openstreetmap.org (its usage policy), 0 (no limit) for any other instance.
   */
  NOMINATIM_MIN_INTERVAL_MS: int(0, 60_000).optional(),

  CHROMIUM_PATH: z.string().default('/usr/bin/chromium'),
  /**
   * Chromium for headless rendering (worker-render: `render_js`, Google through Chromium). Unset: Debian's
   * chromium-headless-shell when installed, else CHROMIUM_PATH (see renderExecutable).
   */
  RENDER_CHROMIUM_PATH: z.string().min(1).optional(),
  /**
   * Which workers the standalone process hosts (`npm start`): all three by default, so every endpoint answers on a
   * fresh install. Chromium starts only when a rendered job arrives, and the headed Chromium and its Xvfb display
   * only when a headful one does: an idle worker is a queue consumer and its heartbeat.
   */
  STANDALONE_WORKERS: z
    .string()
    .default('http,render,headful')
    .transform((v) => v.split(',').map((s) => s.trim()).filter(Boolean))
    .pipe(z.array(z.enum(['http', 'render', 'headful']))),
  RENDER_PAGES_PER_BROWSER: int(1, 100_000).default(200),
  /** A second concurrent render waits while free memory is below this (MiB); one job always runs. 0 disables. */
  RENDER_MIN_FREE_MEMORY_MB: int(0, 1_000_000).default(512),
  /**
   * Run an account's rendered pages in its own browser context, reset between jobs (cookies and site storage
   * deleted, guard connections dropped), instead of a new context per page. Never shared between accounts. Off by
   * default: the reset has not yet measured cheaper than a fresh context (bench/browser/render-factors.ts).
   */
  RENDER_REUSE_CONTEXTS: bool.default(false),
  RENDER_SHARE_CONTEXTS: bool.default(true),
  /** Decoded bytes all responses of one rendered page may deliver together (each one is capped by CRAWL_MAX_BYTES). */
  RENDER_MAX_JOB_BYTES: int(1024, 1024 * 1024 * 1024).default(50 * 1024 * 1024),
  /** Elements a rendered document may hold after load; past it the URL fails with TOO_LARGE. */
  RENDER_MAX_DOM_NODES: int(1_000, 10_000_000).default(250_000),
  /**
   * Private resident memory (RssAnon + RssShmem) one page's renderer process may reach (MiB) before it is killed and the URL fails with TOO_LARGE at 0 credits;
   * also V8's heap cap per renderer (--max-old-space-size). 0 disables both.
   */
  RENDER_MAX_PAGE_MEMORY_MB: intOrOff(64, 65_536).default(1024),
  /**
   * Private resident memory a whole Chromium (every process) may reach (MiB) before it is killed and relaunched; its in-flight URLs fail
   * with RENDER_FAILED and are retried once. 0 disables it.
   */
  RENDER_MAX_BROWSER_MEMORY_MB: intOrOff(256, 1_048_576).default(3072),
  /** How often a rendering browser's memory is sampled for the two limits above. */
  RENDER_MEMORY_SAMPLE_MS: int(50, 10_000).default(250),

  /** /headful-browser: residential proxies per country, the same syntax as PROXIES. */
  RESIDENTIAL_PROXIES: proxyList,
  /** A provider URL template serving any country: `http://user-country-{country}-session-{session}:pass@host:port`. */
  RESIDENTIAL_PROXY_URL: z
    .string()
    .refine((t) => t.includes('{session}'), 'must contain {session} (one sticky session per attempt)')
    .refine((t) => URL.canParse(t.replaceAll('{country}', 'us').replaceAll('{session}', 's')), 'must be a proxy URL once {country} and {session} are filled in')
    .optional(),
  /** A proxy that failed or was blocked rests this long before it is handed out again (unless nothing else is left). */
  RESIDENTIAL_PROXY_REST_MS: int(0, 3_600_000).default(60_000),
  /** Attempts per URL (each through another proxy and session) before it counts as blocked. */
  HEADFUL_ATTEMPTS: int(1, 10).default(3),
  HEADFUL_MAX_URLS: int(1, 100).default(10),
  /** Budget per URL, every attempt included. */
  HEADFUL_TIMEOUT_MS: int(1_000, 600_000).default(60_000),
  HEADFUL_PAGES_PER_BROWSER: int(1, 100_000).default(50),
  XVFB_PATH: z.string().default('/usr/bin/Xvfb'),
  /** An X display to use instead of starting Xvfb (e.g. `:0`). */
  DISPLAY: z.string().regex(/^[A-Za-z0-9.-]*:\d+(\.\d+)?$/).optional(),
  /** Lifetime of a signed screenshot link; the cleaner deletes files older than this. */
  SCREENSHOT_URL_TTL_MS: int(1_000, 30 * 86_400_000).default(24 * 3_600_000),
  /** HMAC key for screenshot links; set the same value on every gateway replica (unset: a random key per process). */
  SCREENSHOT_SIGNING_KEY: z.string().min(32, 'SCREENSHOT_SIGNING_KEY must be at least 32 characters').optional(),
  /** The public origin screenshot links start with (default: the origin the request came to). */
  PUBLIC_BASE_URL: z.string().url().optional(),
  /** Where screenshots go: `local` (DATA_DIR, served by the gateway) or `s3` (an S3-compatible bucket, presigned links). */
  SCREENSHOT_STORE: z.enum(['local', 's3']).default('local'),
  S3_ENDPOINT: z.string().url().optional(),
  S3_BUCKET: z.string().min(1).optional(),
  S3_REGION: z.string().min(1).default('us-east-1'),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  /** `endpoint/bucket/key` (MinIO, most S3-compatible stores) rather than `bucket.endpoint/key`. */
  S3_FORCE_PATH_STYLE: bool.default(true),
  S3_PREFIX: z.string().default(''),

  /**
   * An OpenAI-compatible chat-completions endpoint (Ollama, vLLM, llama.cpp server, OpenAI…), up to its version
   * segment, e.g. http://127.0.0.1:11434/v1. Unset: the `summary` and `json` formats are refused (400).
   */
  LLM_BASE_URL: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional(),
  /** The model to ask (required with LLM_BASE_URL). */
  LLM_MODEL: z.string().min(1).max(200).optional(),
  /** Sent as `Authorization: Bearer …` when set. */
  LLM_API_KEY: z.string().min(1).optional(),
  /** The model's context window in tokens (prompt and answer): pages are trimmed to fit it. */
  LLM_CONTEXT_TOKENS: int(2_048, 2_000_000).default(8_192),
  /** Largest answer, in tokens (a JSON extraction; summaries ask for less). */
  LLM_MAX_TOKENS: int(64, 65_536).default(1_024),
  /** Time for one format of one page, the retry included. */
  LLM_TIMEOUT_MS: int(1_000, 600_000).default(60_000),
  /** Requests to the endpoint at once, across every call of this gateway. */
  LLM_CONCURRENCY: int(1, 256).default(4),
  /** Price of the LLM formats: credits per 1,000 tokens (prompt + answer, every attempt), rounded up per page and format. */
  LLM_CREDITS_PER_1K_TOKENS: int(1, 1_000).default(1),
});

export type TrawlConfig = z.infer<typeof configSchema>;

export class ConfigError extends Error {
  constructor(readonly issues: string[]) {
    super(`Invalid configuration:\n  ${issues.join('\n  ')}`);
    this.name = 'ConfigError';
  }
}

/** Validates the environment; throws ConfigError naming each bad variable (never echoing its value). */
export function loadConfig(env: Record<string, string | undefined> = process.env): TrawlConfig {
  const known = Object.fromEntries(
    Object.keys(configSchema.shape)
      .filter((key) => env[key] !== undefined && env[key] !== '')
      .map((key) => [key, env[key]]),
  );
  const parsed = configSchema.safeParse(known);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`));
  }
  const conflicts = crossCheck(parsed.data);
  if (conflicts.length > 0) throw new ConfigError(conflicts);
  return parsed.data;
}

/** Margin between the longest call and the reservation TTL: settling and the reconciler's own period fit in it. */
const RESERVATION_MARGIN_MS = 60_000;

/** Settings that depend on each other, checked at boot rather than failing on the first request. */
export function crossCheck(c: TrawlConfig): string[] {
  const problems: string[] = [];
  if (c.SERP_ENGINE === 'searxng' && !c.SEARXNG_BASE_URL) {
    problems.push('SEARXNG_BASE_URL: required when SERP_ENGINE=searxng (the JSON API of your SearXNG instance)');
  }
  if (c.SEARCH_ENGINE === 'searxng' && !c.SEARXNG_BASE_URL) {
    problems.push('SEARXNG_BASE_URL: required when SEARCH_ENGINE=searxng (the JSON API of your SearXNG instance)');
  }
  if (c.SEARCH_CRAWL_TIMEOUT_MS > c.SEARCH_CRAWL_DEADLINE_MS) {
    problems.push('SEARCH_CRAWL_TIMEOUT_MS: must not exceed SEARCH_CRAWL_DEADLINE_MS (one result cannot outlast the whole auto-crawl)');
  }
  if (c.SCREENSHOT_STORE === 's3') {
    for (const name of ['S3_ENDPOINT', 'S3_BUCKET', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const) {
      if (!c[name]) problems.push(`${name}: required when SCREENSHOT_STORE=s3`);
    }
    if (c.SCREENSHOT_URL_TTL_MS > 7 * 86_400_000) problems.push('SCREENSHOT_URL_TTL_MS: at most 7 days with SCREENSHOT_STORE=s3 (presigned links)');
  }
  if (c.RESERVATION_TTL_MS < c.REQUEST_DEADLINE_MS + RESERVATION_MARGIN_MS) {
    // The reconciler would refund a reservation whose call is still running.
    problems.push(
      `RESERVATION_TTL_MS: must be at least REQUEST_DEADLINE_MS + ${RESERVATION_MARGIN_MS} ms (${c.REQUEST_DEADLINE_MS + RESERVATION_MARGIN_MS}), ` +
        'so a reservation is never refunded while its call still runs',
    );
  }
  // The LLM settings matter only with an LLM: without one, a short REQUEST_DEADLINE_MS must not trip on their defaults.
  if (c.LLM_BASE_URL) {
    if (!c.LLM_MODEL) problems.push('LLM_MODEL: required when LLM_BASE_URL is set (the model to ask)');
    if (c.LLM_MAX_TOKENS * 2 > c.LLM_CONTEXT_TOKENS) {
      problems.push('LLM_MAX_TOKENS: must be at most half of LLM_CONTEXT_TOKENS (the page needs the rest of the context)');
    }
    if (c.LLM_TIMEOUT_MS >= c.REQUEST_DEADLINE_MS) {
      problems.push('LLM_TIMEOUT_MS: must be shorter than REQUEST_DEADLINE_MS (the page is crawled first, within the same call)');
    }
  }
  if (isPublicNominatim(c.NOMINATIM_BASE_URL) && c.NOMINATIM_MIN_INTERVAL_MS !== undefined && c.NOMINATIM_MIN_INTERVAL_MS < 1000) {
    // https://operations.osmfoundation.org/policies/nominatim/: an absolute maximum of 1 request per second.
    problems.push('NOMINATIM_MIN_INTERVAL_MS: must be at least 1000 for nominatim.openstreetmap.org (its usage policy allows 1 request/s)');
  }
  return problems;
}

/** PAGE_CACHE_MAX_AGE_MS in whole seconds: the largest `max_age` of `/crawl`. */
export function pageCacheMaxAgeS(c: Pick<TrawlConfig, 'PAGE_CACHE_MAX_AGE_MS'>): number {
  return Math.floor(c.PAGE_CACHE_MAX_AGE_MS / 1000);
}

/** The OSM Foundation's public instance, bound by its usage policy (1 request/s, an identifying User-Agent). */
export function isPublicNominatim(baseUrl: string): boolean {
  return new URL(baseUrl).hostname.toLowerCase() === 'nominatim.openstreetmap.org';
}

/** NOMINATIM_MIN_INTERVAL_MS with its default: 1000 ms for the public instance, none for a self-hosted one. */
export function nominatimMinIntervalMs(c: Pick<TrawlConfig, 'NOMINATIM_BASE_URL' | 'NOMINATIM_MIN_INTERVAL_MS'>): number {
  return c.NOMINATIM_MIN_INTERVAL_MS ?? (isPublicNominatim(c.NOMINATIM_BASE_URL) ? 1000 : 0);
}
