/** The search providers as configured (base URLs). */
import type { TrawlConfig } from '#config';
import { createSearchProviders } from './index.js';
import type { SearchProvider } from './types.js';

export function searchProvidersFromConfig(c: TrawlConfig): Record<string, SearchProvider> {
  return createSearchProviders({
    googleBaseUrl: c.GOOGLE_BASE_URL,
    bingBaseUrl: c.BING_BASE_URL,
    duckduckgoBaseUrl: c.DUCKDUCKGO_BASE_URL,
    searxngBaseUrl: c.SEARXNG_BASE_URL,
    // worker-http sends request bodies (PageRequest.method/body), so DuckDuckGo gets its form as a POST.
    duckduckgoForm: 'post',
  });
}
