/**
 * How each engine of the table is built inside a worker process: the Nest modules it needs and a factory over their
 * providers. One entry per row of `ENGINE_TABLE`.
 */
import { Logger, type DynamicModule, type InjectionToken, type Type } from '@nestjs/common';
import { BrowserModule, ChromiumPool, HEADFUL_POOL, HeadfulBrowserModule } from '#browser';
import { SCREENSHOT_STORE, type ScreenshotStore } from '#storage';
import { TRAWL_CONFIG, type TrawlConfig } from '#config';
import { JobName } from '#contracts';
import { ExtractionPool } from '#extraction';
import { AddressGuard, BrowserTlsHttpClient, OPTIONAL_DNS_RESOLVER, RESIDENTIAL_PROXY_POOL, UndiciHttpClient, type DnsResolver, type ResidentialProxyPool } from '#fetch';
import { ChromiumEngine } from './chromium-engine.js';
import type { EngineId } from '#contracts';
import { HeadfulEngine } from './headful-engine.js';
import { HeadfulPageHandler } from './headful-page.handler.js';
import { HttpEngine } from './http-engine.js';
import type { JobHandlerRow } from './job-handlers.js';
import type { PageEngine } from './page-engine.js';

/** Search-engine base URLs are operator config: private networks allowed (a self-hosted SearXNG), metadata never. */
const UPSTREAM_KINDS = ['loopback', 'private', 'unique-local', 'cgnat'] as const;
const UPSTREAM_MAX_BYTES = 8 * 1024 * 1024;
const headfulLogger = new Logger('worker-headful');

export interface EngineFactory {
  imports: (Type | DynamicModule)[];
  inject: Array<InjectionToken | typeof OPTIONAL_DNS_RESOLVER>;
  create: (...deps: any[]) => PageEngine;
  /** Jobs one worker process runs at once. */
  concurrency: (c: TrawlConfig) => number;
  /** Job kinds only this engine's queue carries: rows like those of job-handlers.ts. */
  handlers?: readonly JobHandlerRow[];
  /**
   * Whether a dispatcher of the worker's own process may hand it jobs directly (#queue's local lane, asked for by a
   * site crawl's pages). Fetches only: a browser's jobs hold contexts its pool is sized for.
   */
  lane?: boolean;
}

export const ENGINE_FACTORIES: Record<EngineId, EngineFactory> = {
  http: {
    imports: [],
    inject: [TRAWL_CONFIG, OPTIONAL_DNS_RESOLVER],
    create: (c: TrawlConfig, resolve?: DnsResolver) =>
      new HttpEngine(
        new UndiciHttpClient({ allowPrivateAddresses: c.ALLOW_PRIVATE_ADDRESSES, resolve }),
        new UndiciHttpClient({ allowPrivateAddresses: true, allowedKinds: [...UPSTREAM_KINDS], resolve }),
        { maxBytes: c.CRAWL_MAX_BYTES, maxRedirects: c.CRAWL_MAX_REDIRECTS, upstreamMaxBytes: UPSTREAM_MAX_BYTES },
        new BrowserTlsHttpClient({ guard: new AddressGuard({ allowPrivateAddresses: true, allowedKinds: [...UPSTREAM_KINDS] }), resolve }),
      ),
    concurrency: (c) => c.WORKER_HTTP_CONCURRENCY,
    lane: true,
  },
  chromium: {
    imports: [BrowserModule],
    inject: [ChromiumPool],
    create: (pool: ChromiumPool) =>
      new ChromiumEngine(pool, new AddressGuard({ allowPrivateAddresses: true, allowedKinds: [...UPSTREAM_KINDS] })),
    // A rendered job holds a browser context: the queue concurrency matches the pool's.
    concurrency: (c) => c.WORKER_RENDER_CONCURRENCY,
  },
  headful: {
    imports: [HeadfulBrowserModule],
    inject: [HEADFUL_POOL],
    create: (pool: ChromiumPool) => new HeadfulEngine(pool),
    concurrency: (c) => c.WORKER_HEADFUL_CONCURRENCY,
    handlers: [{
      inject: [RESIDENTIAL_PROXY_POOL, SCREENSHOT_STORE, ExtractionPool, TRAWL_CONFIG],
      create: (engine: PageEngine, proxies: ResidentialProxyPool, store: ScreenshotStore, extraction: ExtractionPool, c: TrawlConfig) => {
        const handler = new HeadfulPageHandler(engine, proxies, store, extraction, {
          attempts: c.HEADFUL_ATTEMPTS,
          // The label is the proxy's host:port (or "template host:port"), never its credentials.
          onAttempt: (e) => {
            if (e.outcome !== 'ok') headfulLogger.warn(`${e.outcome} via ${e.proxy}: ${e.reason ?? ''}`);
          },
        });
        return { [JobName.headfulPage]: (payload) => handler.handle(payload) };
      },
    }],
  },
};
