/** Plain HTTP (undici): redirects, decompression, charset, size and time caps, the SSRF guard at every hop. */
import type { HttpClient } from '#fetch';
import { EngineId, engineRow } from '#contracts';
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
    /** Chrome's TLS fingerprint, for upstreams that refuse Node's handshake (`request.browserTls`). */
    private readonly browserTlsClient: HttpClient = upstreamClient,
  ) {}

  async fetchPage(request: PageRequest): Promise<FetchedPage> {
    const upstream = request.target === 'upstream';
    const client = !upstream ? this.crawlClient : request.browserTls ? this.browserTlsClient : this.upstreamClient;
    const response = await client.fetch({
      url: request.url,
      timeoutMs: request.timeoutMs,
      maxBytes: upstream ? this.limits.upstreamMaxBytes : this.limits.maxBytes,
      maxRedirects: this.limits.maxRedirects,
      device: request.device,
      acceptLanguage: request.acceptLanguage,
      proxy: request.proxy,
      headers: request.headers,
      ...(request.method === 'POST' ? { method: 'POST' as const, body: request.body ?? '' } : {}),
      ...(request.raw ? { raw: true } : {}),
      ...(!upstream && !request.raw ? { documents: true } : {}),
      ...(request.followRedirects === false ? { followRedirects: false } : {}),
    });
    return {
      finalUrl: response.finalUrl,
      status: response.status,
      html: response.body,
      headers: response.headers,
      ...(response.raw ? { body: response.raw } : {}),
      ...(response.location ? { location: response.location } : {}),
      ...(response.document ? { document: response.document } : {}),
    };
  }

  async close(): Promise<void> {
    await this.crawlClient.close();
    await this.upstreamClient.close();
    if (this.browserTlsClient !== this.upstreamClient) await this.browserTlsClient.close();
  }
}
