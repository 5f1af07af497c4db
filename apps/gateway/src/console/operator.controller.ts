/**
 * The operator's views beyond the admin API's accounts and plans: usage across accounts (`/admin/usage`) and the
 * health of workers, queues and proxy pools (`/admin/health`). Same guard as /admin: ADMIN_TOKEN or its session.
 */
import { Controller, Get, Header, Inject, Query, UseGuards } from '@nestjs/common';
import type { Gauge } from 'prom-client';
import { parseInput, usageQuerySchema, type AdminHealthView, type AdminUsageView } from '#contracts';
import { ConsoleRepository } from '#db';
import { metrics } from '#metrics';
import { CLOCK } from '#platform';
import type { Clock } from '#platform/clock.js';
import { WorkerRegistry } from '#queue';
import { AdminTokenGuard } from '../admin/admin-token.guard.js';
import { windowStart } from './account.service.js';
import { QueueStats } from './queue-stats.js';

const WORKER_KINDS = ['worker-http', 'worker-render', 'worker-headful'] as const;
const TOP_ACCOUNTS = 100;

@Controller('admin')
@UseGuards(AdminTokenGuard)
export class OperatorController {
  constructor(
    private readonly repo: ConsoleRepository,
    private readonly registry: WorkerRegistry,
    private readonly queues: QueueStats,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @Get('usage')
  @Header('cache-control', 'no-store')
  async usage(@Query() query: unknown): Promise<AdminUsageView> {
    const since = windowStart(this.clock.now(), parseInput(usageQuerySchema, query).days);
    const [days, accounts] = await Promise.all([this.repo.usageByDayAll(since), this.repo.usageByAccount(since, TOP_ACCOUNTS)]);
    return { since: since.toISOString(), days, accounts };
  }

  @Get('health')
  @Header('cache-control', 'no-store')
  async health(): Promise<AdminHealthView> {
    const [seen, queues, proxies] = await Promise.all([
      Promise.all(WORKER_KINDS.map(async (k) => [k, await this.registry.seen(k)] as const)),
      this.queues.counts(),
      proxyPools(),
    ]);
    return { workers: Object.fromEntries(seen), queues, proxies };
  }
}

/** The proxy gauges of this process's metrics (filled by the workers it hosts), joined by pool and country. */
async function proxyPools(): Promise<AdminHealthView['proxies']> {
  const read = async (name: string) => ((await (metrics.registry.getSingleMetric(name) as Gauge | undefined)?.get())?.values ?? []);
  const [configured, health, resting] = await Promise.all([read('trawl_proxies_configured'), read('trawl_proxy_health'), read('trawl_proxy_resting')]);
  return configured.map((c) => {
    const country = String(c.labels.country);
    const pool = String(c.labels.pool);
    const entry: AdminHealthView['proxies'][number] = { pool, country, configured: c.value };
    if (pool === 'residential') {
      const h = health.find((v) => v.labels.country === country);
      const r = resting.find((v) => v.labels.country === country);
      if (h) entry.health = h.value;
      if (r) entry.resting = r.value;
    }
    return entry;
  });
}
