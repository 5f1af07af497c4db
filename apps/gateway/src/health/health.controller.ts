/** `/health`: Postgres, Redis and recently seen workers (no auth; reveals no secrets). */
import { Controller, Get, Inject } from '@nestjs/common';
import { HealthCheck, HealthCheckService, HealthIndicatorService } from '@nestjs/terminus';
import type { Redis } from 'ioredis';
import { Database } from '#db';
import { REDIS } from '#platform';
import { WorkerRegistry } from '#queue';

const WORKER_KINDS = ['worker-http', 'worker-render', 'worker-headful'] as const;

@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly indicators: HealthIndicatorService,
    private readonly db: Database,
    @Inject(REDIS) private readonly redis: Redis,
    private readonly registry: WorkerRegistry,
  ) {}

  @Get()
  @HealthCheck()
  check() {
    return this.health.check([
      () => this.probe('postgres', () => this.db.ping()),
      () => this.probe('redis', async () => void (await this.redis.ping())),
      async () => {
        const session = this.indicators.check('workers');
        const seen = Object.fromEntries(await Promise.all(WORKER_KINDS.map(async (k) => [k, await this.registry.seen(k)] as const)));
        // worker-http is required for /crawl; the others are reported, not required.
        return seen['worker-http'] > 0 ? session.up(seen) : session.down(seen);
      },
    ]);
  }

  private async probe(key: string, fn: () => Promise<void>) {
    const session = this.indicators.check(key);
    try {
      await Promise.race([fn(), new Promise((_, reject) => setTimeout(() => reject(new Error('timeout')), 2_000).unref())]);
      return session.up();
    } catch {
      return session.down({ message: `${key} is unreachable` });
    }
  }
}
