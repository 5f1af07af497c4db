/**
 * One headless Chromium pool per process. Chromium starts on the first rendered job, so a process that hosts the
 * module but renders nothing never launches a browser.
 */
import { Global, Module, type OnApplicationShutdown } from '@nestjs/common';
import { TRAWL_CONFIG, type TrawlConfig } from '#config';
import { OPTIONAL_DNS_RESOLVER, type DnsResolver } from '#fetch';
import { ChromiumPool } from './chromium-pool.js';
import { poolLimitsFromConfig } from './pool-limits.js';
import { renderExecutable } from './render-executable.js';

@Global()
@Module({
  providers: [
    {
      provide: ChromiumPool,
      inject: [TRAWL_CONFIG, OPTIONAL_DNS_RESOLVER],
      useFactory: (c: TrawlConfig, resolve?: DnsResolver) =>
        new ChromiumPool({
          resolve,
          executablePath: renderExecutable(c.RENDER_CHROMIUM_PATH, c.CHROMIUM_PATH),
          maxContexts: c.WORKER_RENDER_CONCURRENCY,
          pagesPerBrowser: c.RENDER_PAGES_PER_BROWSER,
          ...poolLimitsFromConfig(c),
          reuseContexts: c.RENDER_REUSE_CONTEXTS,
          shareContexts: c.RENDER_SHARE_CONTEXTS,
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
