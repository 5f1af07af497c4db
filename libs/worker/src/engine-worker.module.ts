/**
 * A worker process's consumption of one engine's queue: the engine (built by its factory), the shared crawl-page
 * handler and the SERP job handler over it, and the BullMQ consumer with its /health heartbeat. worker-http,
 * worker-render and the standalone process are this module with a different engine id.
 */
import { Inject, Logger, Module, type DynamicModule, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { ConfigModule, TRAWL_CONFIG, nominatimMinIntervalMs, type TrawlConfig } from '#config';
import { JobName, type ProxyProvider } from '#contracts';
import { ExtractionModule, ExtractionPool } from '#extraction';
import { FetchModule, PROXY_POOL } from '#fetch';
import { startMetricsServer } from '#metrics';
import { REDIS, RedisModule } from '#platform';
import { QueueModule, startQueueConsumer, WorkerRegistry, type JobHandlers, type QueueConsumer } from '#queue';
import { searchProvidersFromConfig } from '#serp/providers-from-config.js';
import { createMapsProvider } from '#serp/maps/index.js';
import { CrawlPageHandler } from './crawl-page.handler.js';
import { ENGINE_FACTORIES } from './engine-factories.js';
import type { EngineId } from '#contracts';
import type { PageEngine } from './page-engine.js';
import { SerpJobHandler } from './serp-job.handler.js';
import { MapsJobHandler } from './maps-job.handler.js';
import { RedisUpstreamPacer } from './upstream-pacer.js';
import { WebSearchJobHandler } from './web-search-job.handler.js';

export const PAGE_ENGINE = Symbol('PAGE_ENGINE');
const CONCURRENCY = Symbol('WORKER_CONCURRENCY');
const ENGINE_HANDLERS = Symbol('ENGINE_HANDLERS');

@Module({})
export class EngineWorkerModule implements OnApplicationBootstrap, OnApplicationShutdown {
  private consumer?: QueueConsumer;
  private metricsServer?: Promise<{ stop: () => Promise<void> }>;
  private readonly logger: Logger;

  constructor(
    @Inject(TRAWL_CONFIG) private readonly config: TrawlConfig,
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(PAGE_ENGINE) private readonly engine: PageEngine,
    @Inject(CONCURRENCY) private readonly concurrency: number,
    private readonly registry: WorkerRegistry,
    private readonly crawl: CrawlPageHandler,
    private readonly serp: SerpJobHandler,
    private readonly maps: MapsJobHandler,
    private readonly web: WebSearchJobHandler,
    @Inject(ENGINE_HANDLERS) private readonly engineHandlers: JobHandlers,
  ) {
    this.logger = new Logger(engine.row.workerKind);
  }

  /** `withInfrastructure: false` when the host process (the standalone app) already provides config and Redis. */
  static forRoot(config: TrawlConfig, engineId: EngineId, options: { withInfrastructure?: boolean } = {}): DynamicModule {
    const factory = ENGINE_FACTORIES[engineId];
    const infrastructure = options.withInfrastructure === false ? [] : [ConfigModule.forRoot(config), RedisModule, QueueModule];
    return {
      module: EngineWorkerModule,
      imports: [...infrastructure, FetchModule, ExtractionModule, ...factory.imports],
      providers: [
        { provide: PAGE_ENGINE, inject: factory.inject, useFactory: factory.create },
        { provide: CONCURRENCY, useValue: factory.concurrency(config) },
        {
          provide: ENGINE_HANDLERS,
          inject: [PAGE_ENGINE, ...(factory.handlers?.inject ?? [])],
          useFactory: (engine: PageEngine, ...deps: unknown[]) => factory.handlers?.create(engine, ...deps) ?? {},
        },
        {
          provide: CrawlPageHandler,
          inject: [PAGE_ENGINE, PROXY_POOL, ExtractionPool],
          useFactory: (engine: PageEngine, proxies: ProxyProvider, extraction: ExtractionPool) => new CrawlPageHandler(engine, proxies, extraction),
        },
        {
          provide: SerpJobHandler,
          inject: [PAGE_ENGINE, PROXY_POOL, TRAWL_CONFIG],
          useFactory: (engine: PageEngine, proxies: ProxyProvider, c: TrawlConfig) =>
            new SerpJobHandler(searchProvidersFromConfig(c), engine, proxies, c.SERP_PROXY_ATTEMPTS),
        },
        {
          provide: MapsJobHandler,
          inject: [PAGE_ENGINE, PROXY_POOL, TRAWL_CONFIG, REDIS],
          useFactory: (engine: PageEngine, proxies: ProxyProvider, c: TrawlConfig, redis: Redis) => {
            const options = { googleBaseUrl: c.GOOGLE_BASE_URL, nominatimBaseUrl: c.NOMINATIM_BASE_URL, overpassBaseUrl: c.OVERPASS_BASE_URL, osmUserAgent: c.NOMINATIM_USER_AGENT };
            const providers = { google: createMapsProvider({ ...options, provider: 'google' }), osm: createMapsProvider({ ...options, provider: 'osm' }) };
            const pacing = { pacer: new RedisUpstreamPacer(redis, c.REDIS_PREFIX), nominatimIntervalMs: nominatimMinIntervalMs(c) };
            return new MapsJobHandler(providers, engine, proxies, c.SERP_PROXY_ATTEMPTS, pacing);
          },
        },
        {
          provide: WebSearchJobHandler,
          inject: [PAGE_ENGINE, PROXY_POOL, ExtractionPool, TRAWL_CONFIG],
          useFactory: (engine: PageEngine, proxies: ProxyProvider, extraction: ExtractionPool, c: TrawlConfig) =>
            new WebSearchJobHandler(searchProvidersFromConfig(c), engine, proxies, extraction, c.SERP_PROXY_ATTEMPTS),
        },
      ],
    };
  }

  onApplicationBootstrap(): void {
    this.consumer = startQueueConsumer({
      redis: this.redis,
      prefix: this.config.REDIS_PREFIX,
      registry: this.registry,
      kind: this.engine.row.workerKind,
      queue: this.engine.row.queue,
      handlers: {
        [JobName.crawlPage]: (payload, job) => this.crawl.handle(payload, job.attemptsMade),
        [JobName.serpSearch]: (payload) => this.serp.handle(payload),
        [JobName.mapsSearch]: (payload) => this.maps.handle(payload),
        [JobName.serpWeb]: (payload) => this.web.handle(payload),
        ...this.engineHandlers,
      },
      concurrency: this.concurrency,
      lockMs: this.config.WORKER_LOCK_MS,
      onError: (error) => this.logger.error({ err: error }, `${this.engine.row.workerKind} job fault`),
    });
    // METRICS_PORT: job durations and outcomes of this worker, for Prometheus (shared with a co-hosted gateway).
    if (this.config.METRICS_PORT !== undefined) {
      this.metricsServer = startMetricsServer(this.config.METRICS_PORT, this.config.HOST);
      void this.metricsServer.catch((error: unknown) => this.logger.error({ err: error }, `METRICS_PORT ${this.config.METRICS_PORT}: cannot listen`));
    }
  }

  async onApplicationShutdown(): Promise<void> {
    await this.consumer?.close();
    await this.engine.close();
    await this.metricsServer?.then((server) => server.stop()).catch(() => undefined);
  }
}
