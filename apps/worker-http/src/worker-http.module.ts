/** worker-http: consumes the `trawl-http` queue (plain HTTP crawl). */
import { Inject, Logger, Module, type DynamicModule, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { ConfigModule, TRAWL_CONFIG, type TrawlConfig } from '#config';
import { JobName, QueueName } from '#contracts';
import { ExtractionPool } from '#extraction';
import { StaticProxyPool, UndiciHttpClient } from '#fetch';
import { REDIS, RedisModule } from '#platform';
import { startQueueConsumer, WorkerRegistry, type QueueConsumer } from '#queue';
import { CrawlPageHandler } from './crawl-page.handler.js';
import { HttpPageSource } from './http-page-source.js';
import { SerpSearchRunner } from '#serp';
import { enginesFromConfig } from '#serp/engines-from-config.js';

const UPSTREAM_HTTP = Symbol('UPSTREAM_HTTP');

const logger = new Logger('WorkerHttp');

@Module({})
export class WorkerHttpModule implements OnApplicationBootstrap, OnApplicationShutdown {
  private consumer?: QueueConsumer;

  constructor(
    @Inject(TRAWL_CONFIG) private readonly config: TrawlConfig,
    @Inject(REDIS) private readonly redis: Redis,
    private readonly registry: WorkerRegistry,
    private readonly handler: CrawlPageHandler,
    private readonly http: UndiciHttpClient,
    private readonly extraction: ExtractionPool,
    private readonly serp: SerpSearchRunner,
    @Inject(UPSTREAM_HTTP) private readonly upstreamHttp: UndiciHttpClient,
  ) {}

  static forRoot(config: TrawlConfig, options: { withInfrastructure?: boolean } = {}): DynamicModule {
    return {
      module: WorkerHttpModule,
      imports: options.withInfrastructure === false ? [] : [ConfigModule.forRoot(config), RedisModule],
      providers: [
        {
          provide: UndiciHttpClient,
          inject: [TRAWL_CONFIG],
          useFactory: (c: TrawlConfig) => new UndiciHttpClient({ allowPrivateAddresses: c.ALLOW_PRIVATE_ADDRESSES }),
        },
        {
          provide: ExtractionPool,
          inject: [TRAWL_CONFIG],
          useFactory: (c: TrawlConfig) => new ExtractionPool({ threads: c.EXTRACTION_THREADS, markdownConverter: c.MARKDOWN_CONVERTER }),
        },
        {
          // Search-engine upstreams are operator config: private networks allowed (a self-hosted SearXNG), metadata never.
          provide: UPSTREAM_HTTP,
          useFactory: () =>
            new UndiciHttpClient({ allowPrivateAddresses: true, allowedKinds: ['loopback', 'private', 'unique-local', 'cgnat'] }),
        },
        {
          provide: SerpSearchRunner,
          inject: [UPSTREAM_HTTP, TRAWL_CONFIG],
          useFactory: (http: UndiciHttpClient, c: TrawlConfig) =>
            new SerpSearchRunner(enginesFromConfig(c), new HttpPageSource(http), StaticProxyPool.parse(c.PROXIES), c.SERP_PROXY_ATTEMPTS),
        },
        {
          provide: CrawlPageHandler,
          inject: [UndiciHttpClient, ExtractionPool, TRAWL_CONFIG],
          useFactory: (http: UndiciHttpClient, extraction: ExtractionPool, c: TrawlConfig) =>
            new CrawlPageHandler(http, StaticProxyPool.parse(c.PROXIES), extraction, {
              maxBytes: c.CRAWL_MAX_BYTES,
              maxRedirects: c.CRAWL_MAX_REDIRECTS,
            }),
        },
      ],
    };
  }

  onApplicationBootstrap(): void {
    this.consumer = startQueueConsumer({
      redis: this.redis,
      prefix: this.config.REDIS_PREFIX,
      registry: this.registry,
      kind: 'worker-http',
      queue: QueueName.http,
      handlers: {
        [JobName.crawlPage]: (payload) => this.handler.handle(payload),
        [JobName.serpSearch]: (payload) => this.serp.run(payload),
      },
      concurrency: this.config.WORKER_HTTP_CONCURRENCY,
      lockMs: this.config.WORKER_LOCK_MS,
      onError: (error) => logger.error({ err: error }, 'worker-http job fault'),
    });
  }

  async onApplicationShutdown(): Promise<void> {
    await this.consumer?.close();
    await this.http.close();
    await this.upstreamHttp.close();
    await this.extraction.close();
  }
}
