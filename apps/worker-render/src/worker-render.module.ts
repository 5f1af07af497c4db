/** worker-render: consumes the `trawl-render` queue with a pool of headless Chromium. */
import { Inject, Logger, Module, type DynamicModule, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type { Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { ChromiumPool } from '../../../libs/browser/src/index.js';
import { ConfigModule, TRAWL_CONFIG, type TrawlConfig } from '../../../libs/config/src/index.js';
import { JobName, QueueName } from '../../../libs/contracts/src/index.js';
import { ExtractionPool } from '../../../libs/extraction/src/index.js';
import { StaticProxyPool } from '../../../libs/fetch/src/index.js';
import { REDIS, RedisModule } from '../../../libs/platform/src/index.js';
import { startJobWorker, WorkerRegistry } from '../../../libs/queue/src/index.js';
import { RenderPageHandler } from './render-page.handler.js';

const logger = new Logger('WorkerRender');
const RENDER_POOL = Symbol('RENDER_POOL');
const RENDER_EXTRACTION = Symbol('RENDER_EXTRACTION');

@Module({})
export class WorkerRenderModule implements OnApplicationBootstrap, OnApplicationShutdown {
  private worker?: Worker;
  private stopAnnouncing?: () => Promise<void>;

  constructor(
    @Inject(TRAWL_CONFIG) private readonly config: TrawlConfig,
    @Inject(REDIS) private readonly redis: Redis,
    private readonly registry: WorkerRegistry,
    private readonly handler: RenderPageHandler,
    @Inject(RENDER_POOL) private readonly pool: ChromiumPool,
    @Inject(RENDER_EXTRACTION) private readonly extraction: ExtractionPool,
  ) {}

  static forRoot(config: TrawlConfig, options: { withInfrastructure?: boolean } = {}): DynamicModule {
    return {
      module: WorkerRenderModule,
      imports: options.withInfrastructure === false ? [] : [ConfigModule.forRoot(config), RedisModule],
      providers: [
        {
          provide: RENDER_POOL,
          inject: [TRAWL_CONFIG],
          useFactory: (c: TrawlConfig) =>
            new ChromiumPool({
              executablePath: c.CHROMIUM_PATH,
              maxContexts: c.WORKER_RENDER_CONCURRENCY,
              pagesPerBrowser: c.RENDER_PAGES_PER_BROWSER,
              allowPrivateAddresses: c.ALLOW_PRIVATE_ADDRESSES,
            }),
        },
        {
          provide: RENDER_EXTRACTION,
          inject: [TRAWL_CONFIG],
          useFactory: (c: TrawlConfig) => new ExtractionPool({ threads: c.EXTRACTION_THREADS, markdownConverter: c.MARKDOWN_CONVERTER }),
        },
        {
          provide: RenderPageHandler,
          inject: [RENDER_POOL, RENDER_EXTRACTION, TRAWL_CONFIG],
          useFactory: (pool: ChromiumPool, extraction: ExtractionPool, c: TrawlConfig) =>
            new RenderPageHandler(pool, StaticProxyPool.parse(c.PROXIES), extraction),
        },
      ],
    };
  }

  onApplicationBootstrap(): void {
    this.worker = startJobWorker(
      this.redis,
      this.config.REDIS_PREFIX,
      QueueName.render,
      { [JobName.crawlPage]: (payload) => this.handler.handle(payload) },
      {
        // A rendered job holds a browser context: the BullMQ concurrency matches the pool's.
        concurrency: this.config.WORKER_RENDER_CONCURRENCY,
        lockMs: this.config.WORKER_LOCK_MS,
        onError: (error) => logger.error({ err: error }, 'worker-render job fault'),
      },
    );
    this.stopAnnouncing = this.registry.announce('worker-render');
  }

  async onApplicationShutdown(): Promise<void> {
    await this.stopAnnouncing?.();
    await this.worker?.close();
    await this.pool.close();
    await this.extraction.close();
  }
}
