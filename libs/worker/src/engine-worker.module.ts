/**
 * A worker process's consumption of one engine's queue: the engine (built by its factory), the job handlers over it
 * (the table of job-handlers.ts plus the engine's own), and the BullMQ consumer with its /health heartbeat.
 * worker-http, worker-render, worker-headful and the standalone process are this module with a different engine id.
 */
import { Inject, Logger, Module, type DynamicModule, type OnApplicationBootstrap, type OnApplicationShutdown, type Provider } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { ConfigModule, TRAWL_CONFIG, type TrawlConfig } from '#config';
import type { EngineId } from '#contracts';
import { ExtractionModule } from '#extraction';
import { DnsModule, FetchModule, type DnsResolver } from '#fetch';
import { startMetricsServer } from '#metrics';
import { REDIS, RedisModule } from '#platform';
import { QueueModule, startQueueConsumer, WorkerRegistry, type JobHandlers, type QueueConsumer } from '#queue';
import { ENGINE_FACTORIES } from './engine-factories.js';
import { JOB_HANDLERS, type JobHandlerRow } from './job-handlers.js';
import type { PageEngine } from './page-engine.js';

export const PAGE_ENGINE = Symbol('PAGE_ENGINE');
const CONCURRENCY = Symbol('WORKER_CONCURRENCY');
const HANDLERS = Symbol('WORKER_HANDLERS');

/** Each row of the handler table (plus the engine's own) as a provider over the engine, merged into one map. */
function handlerProviders(rows: readonly JobHandlerRow[]): Provider[] {
  const tokens = rows.map((_, i) => Symbol(`WORKER_HANDLERS_${i}`));
  return [
    ...rows.map((row, i) => ({
      provide: tokens[i],
      inject: [PAGE_ENGINE, ...row.inject],
      useFactory: (engine: PageEngine, ...deps: unknown[]) => row.create(engine, ...deps),
    })),
    { provide: HANDLERS, inject: tokens, useFactory: (...maps: JobHandlers[]): JobHandlers => Object.assign({}, ...maps) },
  ];
}

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
    @Inject(HANDLERS) private readonly handlers: JobHandlers,
  ) {
    this.logger = new Logger(engine.row.workerKind);
  }

  /**
   * `withInfrastructure: false` when the host process (the standalone app) already provides config and Redis;
   * `resolve`: the DNS resolver of the SSRF checks (a test's; the system's by default).
   */
  static forRoot(config: TrawlConfig, engineId: EngineId, options: { withInfrastructure?: boolean; resolve?: DnsResolver } = {}): DynamicModule {
    const factory = ENGINE_FACTORIES[engineId];
    const infrastructure = options.withInfrastructure === false ? [] : [ConfigModule.forRoot(config), RedisModule, QueueModule];
    return {
      module: EngineWorkerModule,
      imports: [...infrastructure, DnsModule.forRoot(options.resolve), FetchModule, ExtractionModule, ...factory.imports],
      providers: [
        { provide: PAGE_ENGINE, inject: factory.inject, useFactory: factory.create },
        { provide: CONCURRENCY, useValue: factory.concurrency(config) },
        ...handlerProviders([...JOB_HANDLERS, ...(factory.handlers ?? [])]),
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
      handlers: this.handlers,
      concurrency: this.concurrency,
      lockMs: this.config.WORKER_LOCK_MS,
      lane: ENGINE_FACTORIES[this.engine.row.id].lane ?? false,
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
