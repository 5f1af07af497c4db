/**
 * The gateway: authentication, validation, concurrency, metering, and the endpoints. Stateless — run N replicas.
 */
import { Inject, Logger, Module, type DynamicModule, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { TerminusModule } from '@nestjs/terminus';
import type { Redis } from 'ioredis';
import { AuthService, BillingModule, BillingReconciler, RequestLogWriter } from '#billing';
import { ConfigModule, TRAWL_CONFIG, type TrawlConfig } from '#config';
import { CrawlsModule } from '#crawls';
import { createRedis, DatabaseModule, RedisModule } from '#platform';
import { DispatcherModule, JobDispatcher, QueueModule } from '#queue';
import { AdminTokenGuard } from './admin/admin-token.guard.js';
import { AdminController } from './admin/admin.controller.js';
import { CrawlController } from './crawl/crawl.controller.js';
import { CrawlService } from './crawl/crawl.service.js';
import { CrawlsController } from './crawls/crawls.controller.js';
import { HeadfulBrowserController } from './headful-browser/headful-browser.controller.js';
import { HEADFUL_GATEWAY_PROVIDERS } from './headful-browser/headful.providers.js';
import { ScreenshotController } from './headful-browser/screenshot.controller.js';
import { FIRECRAWL_CONTROLLERS, FIRECRAWL_PROVIDERS } from './firecrawl/firecrawl.providers.js';
import { HealthController } from './health/health.controller.js';
import { LLM_PROVIDERS } from './llm/llm.providers.js';
import { ApiKeyGuard } from './http/api-key.guard.js';
import { ErrorShapes } from './http/error-shapes.js';
import { ErrorFilter } from './http/error.filter.js';
import { MapController } from './map/map.controller.js';
import { McpEndpoint } from './mcp/mcp.endpoint.js';
import { McpService } from './mcp/mcp.service.js';
import { OpenApiController } from './openapi/openapi.controller.js';
import { PAGE_CACHE_PROVIDER } from './page-cache/page-cache.js';
import { SerpSearchController } from './serp-search/serp-search.controller.js';
import { SerpSearchService } from './serp-search/serp-search.service.js';
import { SerpMapsController } from './serp-maps/serp-maps.controller.js';
import { SerpMapsService } from './serp-maps/serp-maps.service.js';
import { SearchController } from './search/search.controller.js';
import { SearchService } from './search/search.service.js';

const logger = new Logger('Gateway');

@Module({})
export class GatewayModule implements OnModuleInit, OnApplicationShutdown {
  private subscriber?: Redis;
  private reconcileTimer?: NodeJS.Timeout;

  constructor(
    @Inject(TRAWL_CONFIG) private readonly config: TrawlConfig,
    private readonly auth: AuthService,
    private readonly reconciler: BillingReconciler,
    private readonly logWriter: RequestLogWriter,
    private readonly dispatcher: JobDispatcher,
  ) {}

  static forRoot(config: TrawlConfig): DynamicModule {
    return {
      module: GatewayModule,
      imports: [ConfigModule.forRoot(config), RedisModule, QueueModule, DispatcherModule, DatabaseModule, BillingModule, TerminusModule, CrawlsModule],
      controllers: [
        CrawlController,
        CrawlsController,
        MapController,
        SerpSearchController,
        AdminController,
        HealthController,
        SerpMapsController,
        SearchController,
        OpenApiController,
        HeadfulBrowserController,
        ScreenshotController,
        ...FIRECRAWL_CONTROLLERS,
      ],
      providers: [
        { provide: APP_FILTER, useClass: ErrorFilter },
        ErrorShapes,
        CrawlService,
        PAGE_CACHE_PROVIDER,
        ...LLM_PROVIDERS,
        SerpSearchService,
        SerpMapsService,
        SearchService,
        McpService,
        McpEndpoint,
        ...HEADFUL_GATEWAY_PROVIDERS,
        ...FIRECRAWL_PROVIDERS,
        ApiKeyGuard,
        AdminTokenGuard,
      ],
    };
  }

  async onModuleInit(): Promise<void> {
    if (!this.config.REDIS_URL) return;
    this.subscriber = createRedis(this.config.REDIS_URL, 'trawl-auth-sub');
    await this.auth.listen(this.subscriber);
    const reconcile = () =>
      Promise.all([
        this.reconciler.run().then((r) => {
          if (r.refunded || r.periodsReset) logger.log(`reconciled: ${r.refunded} reservations refunded, ${r.periodsReset} periods reset`);
        }),
        this.dispatcher.clean(),
      ]).catch((error: unknown) => logger.error({ err: error }, 'reconcile failed'));
    void reconcile();
    this.reconcileTimer = setInterval(() => void reconcile(), this.config.RECONCILE_INTERVAL_MS);
    this.reconcileTimer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.reconcileTimer);
    await this.logWriter.close();
    await this.dispatcher.close();
    this.subscriber?.disconnect();
  }
}
