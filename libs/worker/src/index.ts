/**
 * libs/worker — the worker runtime: the page engines (plain HTTP, headless Chromium, headed Chromium behind residential
 * proxies; each implements one `fetchPage` method for its row of the engine table in libs/contracts), the job
 * handlers every worker kind shares, and the module that hosts one engine's queue in a process.
 */
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
