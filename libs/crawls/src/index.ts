/**
 * libs/crawls — site crawls and batches, gateway side: the service every surface calls, the coordinator that runs a
 * crawl's URLs through the workers (politeness, credits, storage, discovery), its Redis frontier and its sweeper;
 * and `/map` (a site's URLs from its sitemaps, start page and the web search).
 * No worker code: pages, robots.txt, sitemaps and webhooks are jobs for worker-http / worker-render.
 */
export { CrawlsModule } from './crawls.module.js';
export { CrawlJobsService } from './crawl-jobs.service.js';
export type { PageOptions } from './crawl-data.js';
export { CrawlCoordinator } from './coordinator.js';
export { FrontierStore } from './frontier-store.js';
export { signWebhook } from './webhooks.js';
export { sitemapUrls } from './sitemaps.js';
export { RobotsCache } from './robots-cache.js';
export { MapService, MAP_DEADLINE_MS, siteQuery } from './map.service.js';
export { mergeLinks, rankLinks } from './map-links.js';
export { siteCrawlSchema } from './site-crawl-schema.js';
