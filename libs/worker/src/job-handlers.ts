/**
 * The job kinds every worker kind runs, one row each: the handler built over the worker's engine and the providers
 * it injects. Adding a job kind is a handler class and one row here (engine-specific kinds, such as the headed
 * browser's pages, are rows of their engine in engine-factories.ts). EngineWorkerModule turns the rows into providers
 * and the consumer's handler map.
 */
import type { InjectionToken } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { TRAWL_CONFIG, nominatimMinIntervalMs, type TrawlConfig } from '#config';
import { JobName, type ProxyProvider } from '#contracts';
import { ExtractionPool } from '#extraction';
import { PROXY_POOL } from '#fetch';
import { REDIS } from '#platform';
import type { JobHandlers } from '#queue';
import { searchProvidersFromConfig } from '#serp/providers-from-config.js';
import { createMapsProvider } from '#serp/maps/index.js';
import { CrawlPageHandler } from './crawl-page.handler.js';
import { MapsJobHandler } from './maps-job.handler.js';
import type { PageEngine } from './page-engine.js';
import { SerpJobHandler } from './serp-job.handler.js';
import { deliverWebhook, fetchResource } from './resource-jobs.js';
import { RedisUpstreamPacer } from './upstream-pacer.js';
import { WebSearchJobHandler } from './web-search-job.handler.js';

export interface JobHandlerRow {
  inject: InjectionToken[];
  /** The handlers this row adds to the consumer's map (one job name each, as a rule). */
  create: (engine: PageEngine, ...deps: any[]) => JobHandlers;
}

export const JOB_HANDLERS: readonly JobHandlerRow[] = [
  {
    inject: [PROXY_POOL, ExtractionPool, REDIS, TRAWL_CONFIG],
    create: (engine, proxies: ProxyProvider, extraction: ExtractionPool, redis: Redis, c: TrawlConfig) => {
      const handler = new CrawlPageHandler(engine, proxies, extraction, new RedisUpstreamPacer(redis, c.REDIS_PREFIX));
      return { [JobName.crawlPage]: (payload, job) => handler.handle(payload, job.attemptsMade) };
    },
  },
  {
    inject: [PROXY_POOL, TRAWL_CONFIG],
    create: (engine, proxies: ProxyProvider, c: TrawlConfig) => {
      const handler = new SerpJobHandler(searchProvidersFromConfig(c), engine, proxies, c.SERP_PROXY_ATTEMPTS);
      return { [JobName.serpSearch]: (payload) => handler.handle(payload) };
    },
  },
  {
    inject: [PROXY_POOL, ExtractionPool, TRAWL_CONFIG],
    create: (engine, proxies: ProxyProvider, extraction: ExtractionPool, c: TrawlConfig) => {
      const handler = new WebSearchJobHandler(searchProvidersFromConfig(c), engine, proxies, extraction, c.SERP_PROXY_ATTEMPTS);
      return { [JobName.serpWeb]: (payload) => handler.handle(payload) };
    },
  },
  {
    inject: [PROXY_POOL, TRAWL_CONFIG, REDIS],
    create: (engine, proxies: ProxyProvider, c: TrawlConfig, redis: Redis) => {
      const options = { googleBaseUrl: c.GOOGLE_BASE_URL, nominatimBaseUrl: c.NOMINATIM_BASE_URL, overpassBaseUrl: c.OVERPASS_BASE_URL, osmUserAgent: c.NOMINATIM_USER_AGENT };
      const providers = { google: createMapsProvider({ ...options, provider: 'google' }), osm: createMapsProvider({ ...options, provider: 'osm' }) };
      const pacing = { pacer: new RedisUpstreamPacer(redis, c.REDIS_PREFIX), nominatimIntervalMs: nominatimMinIntervalMs(c) };
      const handler = new MapsJobHandler(providers, engine, proxies, c.SERP_PROXY_ATTEMPTS, pacing);
      return { [JobName.mapsSearch]: (payload) => handler.handle(payload) };
    },
  },
  {
    inject: [],
    create: (engine) => ({
      [JobName.fetchResource]: (payload) => fetchResource(engine, payload),
      [JobName.webhookDeliver]: (payload) => deliverWebhook(engine, payload),
    }),
  },
];
