/** The proxy pool of a process, built once from `PROXIES` and shared by every engine and handler that routes through it. */
import { Global, Module } from '@nestjs/common';
import { TRAWL_CONFIG, type TrawlConfig } from '#config';
import { StaticProxyPool } from './proxy-pool.js';
import { ResidentialProxyPool } from './residential-proxy-pool.js';

export const PROXY_POOL = Symbol('PROXY_POOL');
/** The residential pool of /headful-browser (RESIDENTIAL_PROXIES, RESIDENTIAL_PROXY_URL), health-scored per process. */
export const RESIDENTIAL_PROXY_POOL = Symbol('RESIDENTIAL_PROXY_POOL');

export function residentialPoolFromConfig(c: TrawlConfig): ResidentialProxyPool {
  return new ResidentialProxyPool({ lists: c.RESIDENTIAL_PROXIES, template: c.RESIDENTIAL_PROXY_URL, restMs: c.RESIDENTIAL_PROXY_REST_MS });
}

@Global()
@Module({
  providers: [
    { provide: PROXY_POOL, inject: [TRAWL_CONFIG], useFactory: (c: TrawlConfig) => StaticProxyPool.parse(c.PROXIES) },
    { provide: RESIDENTIAL_PROXY_POOL, inject: [TRAWL_CONFIG], useFactory: residentialPoolFromConfig },
  ],
  exports: [PROXY_POOL, RESIDENTIAL_PROXY_POOL],
})
export class FetchModule {}
