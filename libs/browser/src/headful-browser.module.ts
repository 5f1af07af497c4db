/**
 * The headed Chromium pool of worker-headful: a ChromiumPool with `headless: false` on a supervised Xvfb display,
 * without the automation switches (`--enable-automation`, the AutomationControlled blink feature), with recycling,
 * crash recovery and memory admission like the headless pool; plus the screenshot store its jobs write to.
 * Chromium (and Xvfb) start on the first job.
 */
import { Global, Logger, Module, type OnApplicationShutdown, Inject } from '@nestjs/common';
import { TRAWL_CONFIG, type TrawlConfig } from '#config';
import { OPTIONAL_DNS_RESOLVER, type DnsResolver } from '#fetch';
import { ChromiumPool, DEFAULT_CHROMIUM_ARGS } from './chromium-pool.js';
import { LocalScreenshotStore, SCREENSHOT_STORE, s3StoreFromConfig, screenshotDir } from '#storage';
import { XvfbDisplay } from './xvfb.js';
import { poolLimitsFromConfig } from './pool-limits.js';

export const HEADFUL_POOL = Symbol('HEADFUL_POOL');

/** Headed launch flags: the shared ones plus no AutomationControlled (navigator.webdriver stays false). */
export const HEADFUL_CHROMIUM_ARGS: readonly string[] = [
  ...DEFAULT_CHROMIUM_ARGS,
  '--disable-blink-features=AutomationControlled',
  '--window-size=1366,868',
  '--start-maximized',
];

const logger = new Logger('HeadfulBrowser');

@Global()
@Module({
  providers: [
    {
      provide: XvfbDisplay,
      inject: [TRAWL_CONFIG],
      useFactory: (c: TrawlConfig) =>
        new XvfbDisplay({
          xvfbPath: c.XVFB_PATH,
          display: c.DISPLAY,
          onEvent: (e) => logger.log(`Xvfb ${e.kind}${e.display ? ` on ${e.display}` : ''}${e.detail ? ` (${e.detail})` : ''}`),
        }),
    },
    {
      provide: HEADFUL_POOL,
      inject: [TRAWL_CONFIG, XvfbDisplay, OPTIONAL_DNS_RESOLVER],
      useFactory: (c: TrawlConfig, xvfb: XvfbDisplay, resolve?: DnsResolver) =>
        new ChromiumPool({
          resolve,
          executablePath: c.CHROMIUM_PATH,
          headless: false,
          launchEnv: async () => ({ DISPLAY: await xvfb.display() }),
          launchArgs: [...HEADFUL_CHROMIUM_ARGS],
          ignoreDefaultArgs: ['--enable-automation'],
          maxContexts: c.WORKER_HEADFUL_CONCURRENCY,
          pagesPerBrowser: c.HEADFUL_PAGES_PER_BROWSER,
          ...poolLimitsFromConfig(c),
        }),
    },
    {
      provide: SCREENSHOT_STORE,
      inject: [TRAWL_CONFIG],
      useFactory: (c: TrawlConfig) => (c.SCREENSHOT_STORE === 's3' ? s3StoreFromConfig(c) : new LocalScreenshotStore(screenshotDir(c.DATA_DIR))),
    },
  ],
  exports: [HEADFUL_POOL, XvfbDisplay, SCREENSHOT_STORE],
})
export class HeadfulBrowserModule implements OnApplicationShutdown {
  constructor(
    @Inject(HEADFUL_POOL) private readonly pool: ChromiumPool,
    private readonly xvfb: XvfbDisplay,
  ) {}

  async onApplicationShutdown(): Promise<void> {
    await this.pool.close();
    await this.xvfb.close();
  }
}
