/** The gateway side of /headful-browser: its service ports, screenshot links and store, and the expired-file cleaner. */
import { Inject, Injectable, Logger, type OnModuleDestroy, type OnModuleInit, type Provider } from '@nestjs/common';
import { LocalScreenshotStore, ScreenshotLinks, s3StoreFromConfig, screenshotDir } from '#storage';
import { TRAWL_CONFIG, type TrawlConfig } from '#config';
import { residentialCoverage } from '#contracts';
import { LedgerRepository } from '#db';
import { WorkerRegistry } from '#queue';
import { HEADFUL_PORTS, HeadfulBrowserService, type HeadfulPorts } from './headful-browser.service.js';

const logger = new Logger('Screenshots');

/** Deletes screenshots older than their links' lifetime, every tenth of it (at most every 10 minutes). */
@Injectable()
export class ScreenshotCleaner implements OnModuleInit, OnModuleDestroy {
  private timer?: NodeJS.Timeout;

  constructor(
    @Inject(LocalScreenshotStore) private readonly store: LocalScreenshotStore,
    @Inject(TRAWL_CONFIG) private readonly config: TrawlConfig,
  ) {}

  onModuleInit(): void {
    const every = Math.max(1_000, Math.min(this.config.SCREENSHOT_URL_TTL_MS / 10, 600_000));
    this.timer = setInterval(() => void this.sweep(), every);
    this.timer.unref();
  }

  async sweep(): Promise<number> {
    try {
      return await this.store.deleteOlderThan(this.config.SCREENSHOT_URL_TTL_MS);
    } catch (error) {
      logger.error({ err: error }, 'screenshot cleanup failed');
      return 0;
    }
  }

  onModuleDestroy(): void {
    clearInterval(this.timer);
  }
}

function screenshotLinker(c: TrawlConfig, links: ScreenshotLinks): HeadfulPorts['links'] {
  if (c.SCREENSHOT_STORE === 's3') {
    const s3 = s3StoreFromConfig(c);
    return { urlFor: (key) => s3.urlFor(key, c.SCREENSHOT_URL_TTL_MS) };
  }
  const base = c.PUBLIC_BASE_URL?.replace(/\/$/, '');
  return { urlFor: (key, origin) => `${base ?? origin}${links.sign(key)}` };
}

export const HEADFUL_GATEWAY_PROVIDERS: Provider[] = [
  {
    provide: ScreenshotLinks,
    inject: [TRAWL_CONFIG],
    useFactory: (c: TrawlConfig) => {
      if (!c.SCREENSHOT_SIGNING_KEY) logger.warn('SCREENSHOT_SIGNING_KEY is not set: screenshot links work only on the gateway that issued them');
      return new ScreenshotLinks(c.SCREENSHOT_SIGNING_KEY, c.SCREENSHOT_URL_TTL_MS);
    },
  },
  { provide: LocalScreenshotStore, inject: [TRAWL_CONFIG], useFactory: (c: TrawlConfig) => new LocalScreenshotStore(screenshotDir(c.DATA_DIR)) },
  {
    provide: HEADFUL_PORTS,
    inject: [TRAWL_CONFIG, WorkerRegistry, LedgerRepository, ScreenshotLinks],
    useFactory: (c: TrawlConfig, workers: WorkerRegistry, balances: LedgerRepository, links: ScreenshotLinks): HeadfulPorts => ({
      workers,
      balances,
      links: screenshotLinker(c, links),
      coverage: residentialCoverage(c.RESIDENTIAL_PROXIES, c.RESIDENTIAL_PROXY_URL),
    }),
  },
  ScreenshotCleaner,
  HeadfulBrowserService,
];
