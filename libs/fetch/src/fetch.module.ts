/** The proxy pool of a process, built once from `PROXIES` and shared by every engine and handler that routes through it. */
import { Global, Module } from '@nestjs/common';
import { TRAWL_CONFIG, type TrawlConfig } from '#config';
import { metrics } from '#metrics';
import { ANY_COUNTRY, StaticProxyPool } from './proxy-pool.js';
import { ResidentialProxyPool } from './residential-proxy-pool.js';

export const PROXY_POOL = Symbol('PROXY_POOL');
/** The residential pool of /headful-browser (RESIDENTIAL_PROXIES, RESIDENTIAL_PROXY_URL), health-scored per process. */
export const RESIDENTIAL_PROXY_POOL = Symbol('RESIDENTIAL_PROXY_POOL');

export function residentialPoolFromConfig(c: TrawlConfig): ResidentialProxyPool {
  const pool = new ResidentialProxyPool({ lists: c.RESIDENTIAL_PROXIES, template: c.RESIDENTIAL_PROXY_URL, restMs: c.RESIDENTIAL_PROXY_REST_MS });
  metrics.trackProxyPool('residential', () => pool.healthByCountry());
  return pool;
}

function datacenterPoolFromConfig(c: TrawlConfig): StaticProxyPool {
  const pool = StaticProxyPool.parse(c.PROXIES);
  const countries = () => [...pool.countries(), ...(pool.servesAnyCountry() ? [ANY_COUNTRY] : [])];
  metrics.trackProxyPool('datacenter', () => countries().map((country) => ({ country, configured: pool.entries(country).length })));
  return pool;
}

@Global()
@Module({
  providers: [
    { provide: PROXY_POOL, inject: [TRAWL_CONFIG], useFactory: datacenterPoolFromConfig },
    { provide: RESIDENTIAL_PROXY_POOL, inject: [TRAWL_CONFIG], useFactory: residentialPoolFromConfig },
  ],
  exports: [PROXY_POOL, RESIDENTIAL_PROXY_POOL],
})
export class FetchModule {}
