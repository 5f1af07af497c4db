/** Search-engine pages over plain HTTP. Upstream base URLs are operator config, so private addresses are allowed. */
import type { ProxyInfo } from '#contracts';
import type { HttpClient } from '#fetch';
import type { UpstreamPageSource, UpstreamRequest } from '#serp';

const SERP_MAX_BYTES = 8 * 1024 * 1024;

export class HttpPageSource implements UpstreamPageSource {
  constructor(private readonly http: HttpClient) {}

  async fetchPage(request: UpstreamRequest, proxy: ProxyInfo | null, timeoutMs: number) {
    const response = await this.http.fetch({ url: request.url, headers: request.headers, timeoutMs, maxBytes: SERP_MAX_BYTES, proxy });
    return { status: response.status, body: response.body };
  }
}
