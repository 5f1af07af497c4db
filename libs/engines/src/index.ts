/**
 * libs/engines — the page-engine table (plain HTTP, headless Chromium, headed Chromium behind residential proxies; each a row with capabilities, a queue and one
 * `fetchPage` method), the crawl-page and SERP job handlers every worker kind shares, and the worker module that
 * hosts one engine's queue.
 */
export { ENGINE_TABLE, EngineId, engineRow, selectEngine, type EngineCapabilities, type EngineNeeds, type EngineRow } from './engine-table.js';
export type { FetchedPage, PageEngine, PageRequest } from './page-engine.js';
export { HttpEngine, type HttpEngineLimits } from './http-engine.js';
export { ChromiumEngine } from './chromium-engine.js';
export { HeadfulEngine } from './headful-engine.js';
export { HeadfulPageHandler, type HeadfulPageOptions } from './headful-page.handler.js';
export { ENGINE_FACTORIES, type EngineFactory } from './engine-factories.js';
export { CrawlPageHandler } from './crawl-page.handler.js';
export { SerpJobHandler } from './serp-job.handler.js';
export { MapsJobHandler, type MapsPacing } from './maps-job.handler.js';
export { RedisUpstreamPacer, type UpstreamPacer } from './upstream-pacer.js';
export { WebSearchJobHandler } from './web-search-job.handler.js';
export { EngineWorkerModule, PAGE_ENGINE } from './engine-worker.module.js';
