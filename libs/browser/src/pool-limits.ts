/** The limits every Chromium pool takes from the configuration (headless render and headed pools alike). */
import type { TrawlConfig } from '#config';
import type { ChromiumPoolOptions } from './render-types.js';

export function poolLimitsFromConfig(c: TrawlConfig) {
  return {
    allowPrivateAddresses: c.ALLOW_PRIVATE_ADDRESSES,
    minFreeMemoryMb: c.RENDER_MIN_FREE_MEMORY_MB,
    maxRedirects: c.CRAWL_MAX_REDIRECTS,
    maxResponseBytes: c.CRAWL_MAX_BYTES,
    maxJobBytes: c.RENDER_MAX_JOB_BYTES,
    maxDomNodes: c.RENDER_MAX_DOM_NODES,
    maxPageMemoryMb: c.RENDER_MAX_PAGE_MEMORY_MB,
    maxBrowserMemoryMb: c.RENDER_MAX_BROWSER_MEMORY_MB,
    memorySampleMs: c.RENDER_MEMORY_SAMPLE_MS,
  } satisfies Partial<ChromiumPoolOptions>;
}
