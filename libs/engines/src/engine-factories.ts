/**
 * How each engine of the table is built inside a worker process: the Nest modules it needs and a factory over their
 * providers. One entry per row of `ENGINE_TABLE`.
 */
import type { DynamicModule, InjectionToken, Type } from '@nestjs/common';
import { BrowserModule, ChromiumPool } from '#browser';
import { TRAWL_CONFIG, type TrawlConfig } from '#config';
import { AddressGuard, BrowserTlsHttpClient, UndiciHttpClient } from '#fetch';
import { ChromiumEngine } from './chromium-engine.js';
import type { EngineId } from './engine-table.js';
import { HttpEngine } from './http-engine.js';
import type { PageEngine } from './page-engine.js';

/** Search-engine base URLs are operator config: private networks allowed (a self-hosted SearXNG), metadata never. */
const UPSTREAM_KINDS = ['loopback', 'private', 'unique-local', 'cgnat'] as const;
const UPSTREAM_MAX_BYTES = 8 * 1024 * 1024;

export interface EngineFactory {
  imports: (Type | DynamicModule)[];
  inject: InjectionToken[];
  create: (...deps: any[]) => PageEngine;
  /** Jobs one worker process runs at once. */
  concurrency: (c: TrawlConfig) => number;
}

export const ENGINE_FACTORIES: Record<EngineId, EngineFactory> = {
  http: {
    imports: [],
    inject: [TRAWL_CONFIG],
    create: (c: TrawlConfig) =>
      new HttpEngine(
        new UndiciHttpClient({ allowPrivateAddresses: c.ALLOW_PRIVATE_ADDRESSES }),
        new UndiciHttpClient({ allowPrivateAddresses: true, allowedKinds: [...UPSTREAM_KINDS] }),
        { maxBytes: c.CRAWL_MAX_BYTES, maxRedirects: c.CRAWL_MAX_REDIRECTS, upstreamMaxBytes: UPSTREAM_MAX_BYTES },
        new BrowserTlsHttpClient({ guard: new AddressGuard({ allowPrivateAddresses: true, allowedKinds: [...UPSTREAM_KINDS] }) }),
      ),
    concurrency: (c) => c.WORKER_HTTP_CONCURRENCY,
  },
  chromium: {
    imports: [BrowserModule],
    inject: [ChromiumPool],
    create: (pool: ChromiumPool) =>
      new ChromiumEngine(pool, new AddressGuard({ allowPrivateAddresses: true, allowedKinds: [...UPSTREAM_KINDS] })),
    // A rendered job holds a browser context: the queue concurrency matches the pool's.
    concurrency: (c) => c.WORKER_RENDER_CONCURRENCY,
  },
};
