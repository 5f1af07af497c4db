/** The producer side of the queue for a process that sends work and waits for it (a gateway): one JobDispatcher. */
import { Global, Module } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { TRAWL_CONFIG, type TrawlConfig } from '#config';
import { REDIS } from '#platform';
import { JobDispatcher } from './job-dispatcher.js';

@Global()
@Module({
  providers: [
    {
      provide: JobDispatcher,
      inject: [REDIS, TRAWL_CONFIG],
      useFactory: (redis: Redis, c: TrawlConfig) => new JobDispatcher(redis, c.REDIS_PREFIX, { attempts: c.JOB_ATTEMPTS, backoffMs: c.JOB_BACKOFF_MS }),
    },
  ],
  exports: [JobDispatcher],
})
export class DispatcherModule {}
