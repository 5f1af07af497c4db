/** One shared ioredis connection per process (BullMQ duplicates it for blocking clients), and the clock. */
import { Global, Inject, Module, type OnApplicationShutdown } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { TRAWL_CONFIG, type TrawlConfig } from '#config';
import { systemClock } from './clock.js';
import { closeUnlessRedisDown, createRedis } from './redis.js';
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
    { provide: CLOCK, useValue: systemClock },
  ],
  exports: [REDIS, CLOCK],
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
