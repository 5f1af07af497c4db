/**
 * One headless Chromium pool per process. Chromium starts on the first rendered job, so a process that hosts the
 * module but renders nothing never launches a browser.
 */
import { Global, Module, type OnApplicationShutdown } from '@nestjs/common';
import { TRAWL_CONFIG, type TrawlConfig } from '#config';
import { ChromiumPool } from './chromium-pool.js';

@Global()
@Module({
  providers: [
    {
      provide: ChromiumPool,
      inject: [TRAWL_CONFIG],
      useFactory: (c: TrawlConfig) =>
        new ChromiumPool({
          executablePath: c.CHROMIUM_PATH,
          maxContexts: c.WORKER_RENDER_CONCURRENCY,
          pagesPerBrowser: c.RENDER_PAGES_PER_BROWSER,
          allowPrivateAddresses: c.ALLOW_PRIVATE_ADDRESSES,
          minFreeMemoryMb: c.RENDER_MIN_FREE_MEMORY_MB,
          reuseContexts: c.RENDER_REUSE_CONTEXTS,
          shareContexts: c.RENDER_SHARE_CONTEXTS,
          maxRedirects: c.CRAWL_MAX_REDIRECTS,
          maxResponseBytes: c.CRAWL_MAX_BYTES,
          maxJobBytes: c.RENDER_MAX_JOB_BYTES,
          maxDomNodes: c.RENDER_MAX_DOM_NODES,
          maxPageMemoryMb: c.RENDER_MAX_PAGE_MEMORY_MB,
          maxBrowserMemoryMb: c.RENDER_MAX_BROWSER_MEMORY_MB,
          memorySampleMs: c.RENDER_MEMORY_SAMPLE_MS,
        }),
    },
  ],
  exports: [ChromiumPool],
})
export class BrowserModule implements OnApplicationShutdown {
  constructor(private readonly pool: ChromiumPool) {}

  async onApplicationShutdown(): Promise<void> {
    await this.pool.close();
  }
}
