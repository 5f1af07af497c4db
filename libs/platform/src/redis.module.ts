/** One shared ioredis connection per process (BullMQ duplicates it for blocking clients), plus the worker registry. */
import { Global, Inject, Module, type OnApplicationShutdown } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { TRAWL_CONFIG, type TrawlConfig } from '#config';
import { closeUnlessRedisDown, createRedis, WorkerRegistry } from '#queue';
import { systemClock } from './clock.js';
import { CLOCK, REDIS } from './tokens.js';

@Global()
@Module({
  providers: [
    {
      provide: REDIS,
      inject: [TRAWL_CONFIG],
      useFactory: (config: TrawlConfig) => {
        if (!config.REDIS_URL) throw new Error('REDIS_URL is not set (npm start sets it when it launches a local redis-server)');
        return createRedis(config.REDIS_URL, 'trawl');
      },
    },
    {
      provide: WorkerRegistry,
      inject: [REDIS, TRAWL_CONFIG],
      useFactory: (redis: Redis, config: TrawlConfig) => new WorkerRegistry(redis, config.REDIS_PREFIX),
    },
    { provide: CLOCK, useValue: systemClock },
  ],
  exports: [REDIS, WorkerRegistry, CLOCK],
})
export class RedisModule implements OnApplicationShutdown {
  constructor(@Inject(REDIS) private readonly redis: Redis) {}

  async onApplicationShutdown(): Promise<void> {
    await closeUnlessRedisDown(
      this.redis,
      () => this.redis.quit().catch(() => this.redis.disconnect()),
      () => this.redis.disconnect(),
    );
  }
}
