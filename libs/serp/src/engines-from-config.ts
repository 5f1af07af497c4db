/** The engine table as configured (base URLs, Google's transport). */
import type { TrawlConfig } from '#config';
import { createEngines } from './index.js';
import type { SerpEngine } from './types.js';

export function enginesFromConfig(c: TrawlConfig): Record<string, SerpEngine> {
  return createEngines({
    googleBaseUrl: c.GOOGLE_BASE_URL,
    googleTransport: c.GOOGLE_TRANSPORT,
    bingBaseUrl: c.BING_BASE_URL,
    duckduckgoBaseUrl: c.DUCKDUCKGO_BASE_URL,
    searxngBaseUrl: c.SEARXNG_BASE_URL,
    // worker-http sends request bodies (PageRequest.method/body), so DuckDuckGo gets its form as a POST.
    duckduckgoForm: 'post',
  });
}
