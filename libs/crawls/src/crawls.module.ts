/**
 * Site crawls and batches in a gateway process: the service the surfaces call, the coordinator that consumes the
 * crawl queue, and the sweeper; and `/map`'s service. Needs the platform's Redis and Postgres, billing and a
 * JobDispatcher (DispatcherModule).
 */
import { Inject, Logger, Module, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { CallLifecycle, ConcurrencyGate } from '#billing';
import { TRAWL_CONFIG, type TrawlConfig } from '#config';
import { MAX_URL_LENGTH, searchEngineNeeds, selectEngine } from '#contracts';
import { CrawlsRepository, FrontierRepository, LedgerRepository } from '#db';
import { duplicateRedis, REDIS } from '#platform';
import { JobDispatcher } from '#queue';
import { CrawlCoordinator } from './coordinator.js';
import { CrawlJobsService } from './crawl-jobs.service.js';
import { CrawlSweeper } from './crawl-sweeper.js';
import { FrontierStore } from './frontier-store.js';
import { FrontierSpill } from './frontier-spill.js';
import { MapService } from './map.service.js';
import { RobotsCache } from './robots-cache.js';
import { WebhookSender } from './webhooks.js';

const logger = new Logger('Crawls');
const FRONTIER_REDIS = Symbol('FRONTIER_REDIS');
const SWEEP_MS = 5_000;

@Module({
  providers: [
    // Its own connection, auto-pipelined: the coordinator's concurrent visits send their scripts in shared writes.
    { provide: FRONTIER_REDIS, inject: [REDIS], useFactory: (redis: Redis) => duplicateRedis(redis, 'trawl-frontier', { autoPipelining: true }) },
    {
      provide: FrontierStore,
      inject: [FRONTIER_REDIS, TRAWL_CONFIG],
      useFactory: (redis: Redis, c: TrawlConfig) => new FrontierStore(redis, c.REDIS_PREFIX, { shapeCap: c.CRAWL_MAX_URLS_PER_PATTERN, pendingMax: c.CRAWL_FRONTIER_REDIS_URLS }),
    },
    {
      provide: FrontierSpill,
      inject: [FrontierStore, FrontierRepository, TRAWL_CONFIG],
      useFactory: (store: FrontierStore, repo: FrontierRepository, c: TrawlConfig) =>
        new FrontierSpill(store, repo, Math.max(1, Math.floor(c.CRAWL_FRONTIER_REDIS_URLS / 2)), (error) => logger.error({ err: error }, 'crawl frontier spill failed')),
    },
    {
      provide: RobotsCache,
      inject: [FrontierStore, JobDispatcher, TRAWL_CONFIG],
      useFactory: (store: FrontierStore, dispatcher: JobDispatcher, c: TrawlConfig) => new RobotsCache(store, dispatcher, c.CRAWL_ROBOTS_USER_AGENT),
    },
    {
      provide: WebhookSender,
      inject: [REDIS, TRAWL_CONFIG, CrawlsRepository],
      useFactory: (redis: Redis, c: TrawlConfig, repo: CrawlsRepository) =>
        new WebhookSender(redis, c.REDIS_PREFIX, { attempts: c.WEBHOOK_ATTEMPTS, backoffMs: c.WEBHOOK_BACKOFF_MS, timeoutMs: c.WEBHOOK_TIMEOUT_MS }, (accountId) =>
          repo.webhookSecret(accountId),
        ),
    },
    {
      provide: CrawlCoordinator,
      inject: [REDIS, TRAWL_CONFIG, CrawlsRepository, LedgerRepository, ConcurrencyGate, JobDispatcher, FrontierStore, FrontierSpill, RobotsCache, WebhookSender],
      useFactory: (
        redis: Redis, c: TrawlConfig, repo: CrawlsRepository, ledger: LedgerRepository, gate: ConcurrencyGate,
        dispatcher: JobDispatcher, store: FrontierStore, spill: FrontierSpill, robots: RobotsCache, webhooks: WebhookSender,
      ) =>
        new CrawlCoordinator(
          redis,
          {
            prefix: c.REDIS_PREFIX,
            concurrency: c.CRAWL_COORDINATOR_CONCURRENCY,
            lockMs: c.WORKER_LOCK_MS,
            pageTimeoutMs: c.CRAWL_TIMEOUT_MS,
            reservationTtlMs: c.RESERVATION_TTL_MS,
            retentionMs: c.CRAWL_RETENTION_MS,
            hostCap: c.CRAWL_HOST_MAX_INFLIGHT,
            hostGapMs: c.CRAWL_HOST_MIN_GAP_MS,
            shapeCap: c.CRAWL_MAX_URLS_PER_PATTERN,
            maxUrlLength: MAX_URL_LENGTH,
            pageMaxBytes: c.CRAWL_PAGE_MAX_BYTES,
          },
          { repo, ledger, gate, dispatcher, store, spill, robots, webhooks, onError: (error, what) => logger.error({ err: error }, `${what} failed`) },
        ),
    },
    {
      provide: CrawlJobsService,
      inject: [CallLifecycle, CrawlsRepository, LedgerRepository, FrontierStore, CrawlCoordinator, TRAWL_CONFIG],
      useFactory: (lifecycle: CallLifecycle, repo: CrawlsRepository, ledger: LedgerRepository, store: FrontierStore, coordinator: CrawlCoordinator, c: TrawlConfig) =>
        new CrawlJobsService(lifecycle, repo, ledger, store, coordinator, { retentionMs: c.CRAWL_RETENTION_MS, maxUrlLength: MAX_URL_LENGTH, hostGapMs: c.CRAWL_HOST_MIN_GAP_MS }),
    },
    {
      provide: MapService,
      inject: [CallLifecycle, JobDispatcher, RobotsCache, TRAWL_CONFIG],
      useFactory: (lifecycle: CallLifecycle, dispatcher: JobDispatcher, robots: RobotsCache, c: TrawlConfig) =>
        new MapService(lifecycle, dispatcher, robots, {
          searchProvider: c.SEARCH_ENGINE,
          searchQueue: selectEngine(searchEngineNeeds(c.SEARCH_ENGINE, c.GOOGLE_TRANSPORT)).queue,
          pageTimeoutMs: c.CRAWL_TIMEOUT_MS,
          serpTimeoutMs: c.SERP_TIMEOUT_MS,
          maxUrlLength: MAX_URL_LENGTH,
          maxLinks: c.MAP_MAX_LINKS,
        }),
    },
    {
      provide: CrawlSweeper,
      inject: [CrawlsRepository, FrontierStore, CrawlCoordinator],
      useFactory: (repo: CrawlsRepository, store: FrontierStore, coordinator: CrawlCoordinator) =>
        new CrawlSweeper(repo, store, coordinator, (error) => logger.error({ err: error }, 'crawl sweep failed')),
    },
  ],
  exports: [CrawlJobsService, CrawlCoordinator, FrontierStore, MapService],
})
export class CrawlsModule implements OnApplicationBootstrap, OnApplicationShutdown {
  private timer?: NodeJS.Timeout;
  private sweeping: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly coordinator: CrawlCoordinator,
    private readonly sweeper: CrawlSweeper,
    private readonly webhooks: WebhookSender,
    @Inject(TRAWL_CONFIG) private readonly config: TrawlConfig,
    @Inject(FRONTIER_REDIS) private readonly frontierRedis: Redis,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.config.REDIS_URL) return;
    this.coordinator.start();
    this.timer = setInterval(() => {
      this.sweeping = this.sweeper.run().catch((error: unknown) => logger.error({ err: error }, 'crawl sweep failed'));
    }, SWEEP_MS);
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.sweeping;
    await this.coordinator.close();
    await this.webhooks.close();
    await this.frontierRedis.quit().catch(() => this.frontierRedis.disconnect());
  }
}
