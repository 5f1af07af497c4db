/** Plain HTTP (undici): redirects, decompression, charset, size and time caps, the SSRF guard at every hop. */
import type { HttpClient } from '#fetch';
import { EngineId, engineRow } from './engine-table.js';
import type { FetchedPage, PageEngine, PageRequest } from './page-engine.js';

export interface HttpEngineLimits {
  maxBytes: number;
  maxRedirects: number;
  /** Body cap for search-engine result pages. */
  upstreamMaxBytes: number;
}

export class HttpEngine implements PageEngine {
  readonly row = engineRow(EngineId.http);

  constructor(
    /** Guarded as configured (ALLOW_PRIVATE_ADDRESSES). */
    private readonly crawlClient: HttpClient,
    /** For operator-configured upstreams: private networks allowed, metadata never. */
    private readonly upstreamClient: HttpClient,
    private readonly limits: HttpEngineLimits,
  ) {}

  async fetchPage(request: PageRequest): Promise<FetchedPage> {
    const upstream = request.target === 'upstream';
    const response = await (upstream ? this.upstreamClient : this.crawlClient).fetch({
      url: request.url,
      timeoutMs: request.timeoutMs,
      maxBytes: upstream ? this.limits.upstreamMaxBytes : this.limits.maxBytes,
      maxRedirects: this.limits.maxRedirects,
      device: request.device,
      acceptLanguage: request.acceptLanguage,
      proxy: request.proxy,
      headers: request.headers,
    });
    return { finalUrl: response.finalUrl, status: response.status, html: response.body, headers: response.headers };
  }

  async close(): Promise<void> {
    await this.crawlClient.close();
    await this.upstreamClient.close();
  }
}
