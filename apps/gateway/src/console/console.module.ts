/**
 * The web console (docs/console.md): its built pages and assets at /console/, `GET /`, and the JSON API it uses —
 * sessions (/console/session), the account's own views (/account/…) and the operator's (/admin/usage,
 * /admin/health). Nothing here is on an API call's path: the data endpoints neither know nor wait for it.
 */
import { Global, Module, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import { TRAWL_CONFIG, type TrawlConfig } from '#config';
import { API_REFERENCE } from '#contracts';
import { ConsoleRepository, CrawlsRepository, Database } from '#db';
import { REDIS } from '#platform';
import { AccountController } from './account.controller.js';
import { AccountGuard } from './account.guard.js';
import { AccountService } from './account.service.js';
import { registerConsoleAssets } from './console-assets.js';
import { ConsoleAuth } from './console-auth.js';
import { OperatorController } from './operator.controller.js';
import { QueueStats } from './queue-stats.js';
import { SessionController } from './session.controller.js';
import { SessionStore } from './session-store.js';
import { SignInLimiter } from './sign-in-limiter.js';
import { SignInService } from './sign-in.service.js';

@Global()
@Module({
  controllers: [SessionController, AccountController, OperatorController],
  providers: [
    { provide: ConsoleRepository, inject: [Database], useFactory: (db: Database) => new ConsoleRepository(db) },
    { provide: CrawlsRepository, inject: [Database], useFactory: (db: Database) => new CrawlsRepository(db) },
    { provide: SessionStore, inject: [REDIS, TRAWL_CONFIG], useFactory: (redis: Redis, c: TrawlConfig) => new SessionStore(redis, c.REDIS_PREFIX) },
    { provide: SignInLimiter, inject: [REDIS, TRAWL_CONFIG], useFactory: (redis: Redis, c: TrawlConfig) => new SignInLimiter(redis, c.REDIS_PREFIX) },
    { provide: QueueStats, inject: [REDIS, TRAWL_CONFIG], useFactory: (redis: Redis, c: TrawlConfig) => new QueueStats(redis, c.REDIS_PREFIX) },
    ConsoleAuth,
    SignInService,
    AccountService,
    AccountGuard,
  ],
  exports: [ConsoleAuth],
})
export class ConsoleModule implements OnModuleInit, OnApplicationShutdown {
  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly queues: QueueStats,
  ) {}

  onModuleInit(): void {
    registerConsoleAssets(this.adapterHost.httpAdapter.getInstance<FastifyInstance>(), {
      name: 'Trawl API',
      console: '/console/',
      docs: '/docs',
      openapi: '/openapi.json',
      mcp: '/mcp',
      health: '/health',
      endpoints: API_REFERENCE.map((e) => ({ method: (e.method ?? 'get').toUpperCase(), path: e.path, summary: e.summary })),
    });
  }

  async onApplicationShutdown(): Promise<void> {
    await this.queues.close();
  }
}
