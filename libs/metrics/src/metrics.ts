/**
 * Trawl's Prometheus metrics (prom-client): one registry per process, every name `trawl_…`. The gateway and each
 * worker record into it; `/metrics` (admin token) and METRICS_PORT (no auth, for scrapers) serve it.
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

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

  constructor() {
    collectDefaultMetrics({ register: this.registry, prefix: 'trawl_' });
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
