/** worker-render: consumes the `trawl-render` queue with a pool of headless Chromium. */
import { Inject, Logger, Module, type DynamicModule, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { ChromiumPool } from '#browser';
import { ConfigModule, TRAWL_CONFIG, type TrawlConfig } from '#config';
import { JobName, QueueName } from '#contracts';
import { ExtractionPool } from '#extraction';
import { StaticProxyPool } from '#fetch';
import { REDIS, RedisModule } from '#platform';
import { startQueueConsumer, WorkerRegistry, type QueueConsumer } from '#queue';
import { RenderPageHandler } from './render-page.handler.js';
import { RenderPageSource } from './render-page-source.js';
import { SerpSearchRunner } from '#serp';
import { enginesFromConfig } from '#serp/engines-from-config.js';

const logger = new Logger('WorkerRender');
const RENDER_POOL = Symbol('RENDER_POOL');
const RENDER_EXTRACTION = Symbol('RENDER_EXTRACTION');
const RENDER_SERP = Symbol('RENDER_SERP');
const UPSTREAM_POOL = Symbol('UPSTREAM_POOL');

@Module({})
export class WorkerRenderModule implements OnApplicationBootstrap, OnApplicationShutdown {
  private consumer?: QueueConsumer;

  constructor(
    @Inject(TRAWL_CONFIG) private readonly config: TrawlConfig,
    @Inject(REDIS) private readonly redis: Redis,
    private readonly registry: WorkerRegistry,
    private readonly handler: RenderPageHandler,
    @Inject(RENDER_POOL) private readonly pool: ChromiumPool,
    @Inject(RENDER_EXTRACTION) private readonly extraction: ExtractionPool,
    @Inject(RENDER_SERP) private readonly serp: SerpSearchRunner,
    @Inject(UPSTREAM_POOL) private readonly upstreamPool: ChromiumPool,
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
              minFreeMemoryMb: c.RENDER_MIN_FREE_MEMORY_MB,
            }),
        },
        {
          provide: RENDER_EXTRACTION,
          inject: [TRAWL_CONFIG],
          useFactory: (c: TrawlConfig) => new ExtractionPool({ threads: c.EXTRACTION_THREADS, markdownConverter: c.MARKDOWN_CONVERTER }),
        },
        {
          // Upstream fetches go through their own pool: search-engine base URLs are operator config.
          provide: UPSTREAM_POOL,
          inject: [TRAWL_CONFIG],
          useFactory: (c: TrawlConfig) =>
            new ChromiumPool({ executablePath: c.CHROMIUM_PATH, maxContexts: 2, pagesPerBrowser: c.RENDER_PAGES_PER_BROWSER, allowPrivateAddresses: true }),
        },
        {
          provide: RENDER_SERP,
          inject: [UPSTREAM_POOL, TRAWL_CONFIG],
          useFactory: (pool: ChromiumPool, c: TrawlConfig) =>
            new SerpSearchRunner(
              enginesFromConfig(c),
              new RenderPageSource(pool),
              StaticProxyPool.parse(c.PROXIES),
              c.SERP_PROXY_ATTEMPTS,
            ),
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
    this.consumer = startQueueConsumer({
      redis: this.redis,
      prefix: this.config.REDIS_PREFIX,
      registry: this.registry,
      kind: 'worker-render',
      queue: QueueName.render,
      handlers: {
        [JobName.crawlPage]: (payload) => this.handler.handle(payload),
        [JobName.serpSearch]: (payload) => this.serp.run(payload),
      },
      // A rendered job holds a browser context: the BullMQ concurrency matches the pool's.
      concurrency: this.config.WORKER_RENDER_CONCURRENCY,
      lockMs: this.config.WORKER_LOCK_MS,
      onError: (error) => logger.error({ err: error }, 'worker-render job fault'),
    });
  }

  async onApplicationShutdown(): Promise<void> {
    await this.consumer?.close();
    await this.pool.close();
    await this.upstreamPool.close();
    await this.extraction.close();
  }
}
