/** The queue side of a process's Redis: the worker registry /health reads and every worker kind announces itself in. */
import { Global, Module } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { TRAWL_CONFIG, type TrawlConfig } from '#config';
import { REDIS } from '#platform';
import { WorkerRegistry } from './worker-registry.js';

@Global()
@Module({
  providers: [
    {
      provide: WorkerRegistry,
      inject: [REDIS, TRAWL_CONFIG],
      useFactory: (redis: Redis, config: TrawlConfig) => new WorkerRegistry(redis, config.REDIS_PREFIX),
    },
  ],
  exports: [WorkerRegistry],
})
export class QueueModule {}
