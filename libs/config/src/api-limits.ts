/** The deployment's limits the API schemas are built with (REST validation, MCP inputs, /openapi.json, docs/api.md). */
import type { ApiLimits } from '#contracts/api/endpoint-reference.js';
import { pageCacheMaxAgeS, type TrawlConfig } from './config.schema.js';

export function apiLimits(c: TrawlConfig): ApiLimits {
  return {
    crawlMaxUrls: c.CRAWL_MAX_URLS,
    headfulMaxUrls: c.HEADFUL_MAX_URLS,
    crawlJobs: { maxPages: c.CRAWL_JOB_MAX_PAGES, maxBatchUrls: c.BATCH_MAX_URLS, maxConcurrency: c.CRAWL_JOB_MAX_CONCURRENCY },
    mapMaxLinks: c.MAP_MAX_LINKS,
    pageCacheMaxAgeS: pageCacheMaxAgeS(c),
  };
}
