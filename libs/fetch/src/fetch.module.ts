/** The proxy pool of a process, built once from `PROXIES` and shared by every engine and handler that routes through it. */
import { Global, Module } from '@nestjs/common';
import { TRAWL_CONFIG, type TrawlConfig } from '#config';
import { StaticProxyPool } from './proxy-pool.js';

export const PROXY_POOL = Symbol('PROXY_POOL');

@Global()
@Module({
  providers: [{ provide: PROXY_POOL, inject: [TRAWL_CONFIG], useFactory: (c: TrawlConfig) => StaticProxyPool.parse(c.PROXIES) }],
  exports: [PROXY_POOL],
})
export class FetchModule {}
