/**
 * Trawl's Prometheus metrics (prom-client): one registry per process, every name `trawl_…`. The gateway and each
 * worker record into it; `/metrics` (admin token) and METRICS_PORT (no auth, for scrapers) serve it.
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

export interface BrowserPoolStats {
  browsers: number;
  activeContexts: number;
  queued: number;
  warmContexts: number;
  launches: number;
  crashes: number;
}

export interface ProxyPoolStats {
  country: string;
  configured: number;
  /** Mean health score 0..1 (pools that score health). */
  health?: number;
  /** Proxies resting after a failure (pools that rest them). */
  resting?: number;
}

const SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];

export class TrawlMetrics {
  readonly registry = new Registry();

  readonly httpRequests = new Counter({
    name: 'trawl_http_requests_total',
    help: 'HTTP requests answered by the gateway, by route and status code',
    labelNames: ['endpoint', 'status'] as const,
    registers: [this.registry],
  });
  readonly httpDuration = new Histogram({
    name: 'trawl_http_request_duration_seconds',
    help: 'Time from request to response at the gateway, by route',
    labelNames: ['endpoint'] as const,
    buckets: SECONDS,
    registers: [this.registry],
  });
  readonly jobDuration = new Histogram({
    name: 'trawl_job_duration_seconds',
    help: 'Time a worker spent on one job attempt, by queue and job name',
    labelNames: ['queue', 'job'] as const,
    buckets: SECONDS,
    registers: [this.registry],
  });
  readonly jobOutcomes = new Counter({
    name: 'trawl_job_outcomes_total',
    help: 'Job attempts by queue, job name and outcome (ok, or the error code that ended the attempt)',
    labelNames: ['queue', 'job', 'outcome'] as const,
    registers: [this.registry],
  });

  readonly crawlPages = new Counter({
    name: 'trawl_crawl_pages_total',
    help: 'URLs of site crawls and batches the coordinator finished, by outcome (stored, duplicate, failed); its rate is pages/s',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });
  readonly crawlFrontierAdded = new Counter({
    name: 'trawl_crawl_frontier_added_total',
    help: 'URLs admitted to crawl frontiers (admitted minus finished is the frontier size; see trawl_crawl_frontier_pending)',
    registers: [this.registry],
  });
  readonly crawlFrontierPending = new Gauge({
    name: 'trawl_crawl_frontier_pending',
    help: 'URLs admitted and not finished, over the running crawls (sampled by the crawl sweeper)',
    registers: [this.registry],
  });
  readonly crawlPolitenessWaits = new Counter({
    name: 'trawl_crawl_politeness_waits_total',
    help: 'Times a crawl URL was put back to wait for a politeness slot (host cap or gap, crawl cap, Crawl-delay)',
    registers: [this.registry],
  });
  readonly crawlsFinished = new Counter({
    name: 'trawl_crawls_finished_total',
    help: 'Site crawls and batches finished, by final status',
    labelNames: ['status'] as const,
    registers: [this.registry],
  });

  readonly extractionDuration = new Histogram({
    name: 'trawl_extraction_duration_seconds',
    help: 'Time to turn one fetched page into its formats (clean HTML, markdown, text), waiting for a thread included',
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [this.registry],
  });
  readonly creditsCharged = new Counter({
    name: 'trawl_credits_charged_total',
    help: 'Credits charged when calls settle, by endpoint',
    labelNames: ['endpoint'] as const,
    registers: [this.registry],
  });
  readonly leasesInUse = new Gauge({
    name: 'trawl_concurrency_leases_in_use',
    help: 'Concurrency leases held by calls running in this process (sum over gateways for the total)',
    registers: [this.registry],
  });

  /** Proxy pools of this process by kind (the latest of each kind), read when scraped. */
  private readonly proxyPools = new Map<string, () => ProxyPoolStats[]>();

  /** Browser pools of this process, read when scraped. */
  private readonly browserPools = new Map<object, { kind: string; stats: () => BrowserPoolStats }>();

  constructor() {
    collectDefaultMetrics({ register: this.registry, prefix: 'trawl_' });
    const proxyPools = this.proxyPools;
    new Gauge({
      name: 'trawl_proxies_configured',
      help: 'Proxies configured, by country (* = any country) and pool (datacenter, residential)',
      labelNames: ['country', 'pool'] as const,
      registers: [this.registry],
      collect() {
        this.reset();
        for (const [pool, stats] of proxyPools) for (const s of stats()) this.set({ country: s.country, pool }, s.configured);
      },
    });
    new Gauge({
      name: 'trawl_proxy_health',
      help: 'Mean health score (0..1) of the residential proxies, by country: halved on a failure or block, +0.2 on success',
      labelNames: ['country'] as const,
      registers: [this.registry],
      collect() {
        this.reset();
        for (const stats of proxyPools.values()) for (const s of stats()) if (s.health !== undefined) this.set({ country: s.country }, s.health);
      },
    });
    new Gauge({
      name: 'trawl_proxy_resting',
      help: 'Residential proxies resting after a failure or block, by country',
      labelNames: ['country'] as const,
      registers: [this.registry],
      collect() {
        this.reset();
        for (const stats of proxyPools.values()) for (const s of stats()) if (s.resting !== undefined) this.set({ country: s.country }, s.resting);
      },
    });
    const pools = this.browserPools;
    const each = (read: (stats: BrowserPoolStats) => number) => {
      const sums = new Map<string, number>();
      for (const pool of pools.values()) sums.set(pool.kind, (sums.get(pool.kind) ?? 0) + read(pool.stats()));
      return sums;
    };
    new Gauge({
      name: 'trawl_browser_pool_browsers',
      help: 'Chromium browsers alive, by pool kind (headless, headed)',
      labelNames: ['kind'] as const,
      registers: [this.registry],
      collect() {
        this.reset();
        for (const [kind, value] of each((s) => s.browsers)) this.set({ kind }, value);
      },
    });
    new Gauge({
      name: 'trawl_browser_pool_contexts',
      help: 'Browser contexts by pool kind and state (active, queued jobs, warm spares)',
      labelNames: ['kind', 'state'] as const,
      registers: [this.registry],
      collect() {
        this.reset();
        for (const [kind, value] of each((s) => s.activeContexts)) this.set({ kind, state: 'active' }, value);
        for (const [kind, value] of each((s) => s.queued)) this.set({ kind, state: 'queued' }, value);
        for (const [kind, value] of each((s) => s.warmContexts)) this.set({ kind, state: 'warm' }, value);
      },
    });
    for (const [name, help, read] of [
      ['trawl_browser_launches_total', 'Chromium launches (first start, recycling after RENDER_PAGES_PER_BROWSER, relaunch after a crash)', (s: BrowserPoolStats) => s.launches],
      ['trawl_browser_crashes_total', 'Unplanned browser deaths and renderer crashes', (s: BrowserPoolStats) => s.crashes],
    ] as const) {
      new Counter({
        name,
        help,
        labelNames: ['kind'] as const,
        registers: [this.registry],
        collect() {
          this.reset();
          for (const [kind, value] of each(read)) this.inc({ kind }, value);
        },
      });
    }
  }

  /** A browser pool reports its stats at each scrape until it is untracked (on close). */
  trackBrowserPool(pool: object, kind: string, stats: () => BrowserPoolStats): () => void {
    this.browserPools.set(pool, { kind, stats });
    return () => void this.browserPools.delete(pool);
  }

  /** A proxy pool reports per-country stats at each scrape (the latest pool of each kind). */
  trackProxyPool(kind: 'datacenter' | 'residential', stats: () => ProxyPoolStats[]): void {
    this.proxyPools.set(kind, stats);
  }

  /** A gauge whose value is read when scraped (queue depths and the like). Registered once per name. */
  gauge<L extends string>(name: string, help: string, labelNames: readonly L[], collect: (gauge: Gauge<L>) => Promise<void>): void {
    if (this.registry.getSingleMetric(name)) return;
    new Gauge({
      name,
      help,
      labelNames,
      registers: [this.registry],
      async collect() {
        await collect(this);
      },
    });
  }

  text(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}

/** The process's metrics (the standalone process hosts the gateway and workers: they share it). */
export const metrics = new TrawlMetrics();
