/** `/health`: Postgres, Redis and recently seen workers (no auth; reveals no secrets). */
import { Controller, Get, Inject } from '@nestjs/common';
import { HealthCheck, HealthCheckService, HealthIndicatorService } from '@nestjs/terminus';
import type { Redis } from 'ioredis';
import { Database } from '#db';
import { REDIS } from '#platform';
import { WorkerRegistry } from '#queue';

const WORKER_KINDS = ['worker-http', 'worker-render', 'worker-headful'] as const;
/** Longest a dependency may take to answer before it counts as down (a probe must answer, not hang). */
const PROBE_TIMEOUT_MS = 2_000;

function bounded<T>(work: Promise<T>): Promise<T> {
  return Promise.race([work, new Promise<never>((_, reject) => setTimeout(() => reject(new Error('timeout')), PROBE_TIMEOUT_MS).unref())]);
}

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
        let seen: Record<string, number>;
        try {
          // Read from Redis: while it is down the read would wait for its return, and /health with it.
          seen = Object.fromEntries(await bounded(Promise.all(WORKER_KINDS.map(async (k) => [k, await this.registry.seen(k)] as const))));
        } catch {
          return session.down({ message: 'workers unknown: Redis is unreachable' });
        }
        // worker-http is required for /crawl; the others are reported, not required.
        return seen['worker-http'] > 0 ? session.up(seen) : session.down(seen);
      },
    ]);
  }

  private async probe(key: string, fn: () => Promise<void>) {
    const session = this.indicators.check(key);
    try {
      await bounded(fn());
      return session.up();
    } catch {
      return session.down({ message: `${key} is unreachable` });
    }
  }
}
