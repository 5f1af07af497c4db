/**
 * Handles one `crawl.page` job over plain HTTP: fetch (through a country proxy when asked), then run the format
 * pipeline. Expected failures (bad address, refused by the guard, oversize, unsupported content) are returned as
 * values; faults a retry can fix (timeouts, resets) are thrown so the queue retries them with backoff.
 */
import type { CrawlPagePayload, CrawlPageResult, ProxyProvider } from '#contracts';
import { TrawlError } from '#contracts';
import { toCrawlPageSuccess, type ExtractionPool } from '#extraction';
import { acceptLanguageForCountry, proxyForCountry, type HttpClient } from '#fetch';

export interface CrawlFetchLimits {
  maxBytes: number;
  maxRedirects: number;
}

export class CrawlPageHandler {
  constructor(
    private readonly http: HttpClient,
    private readonly proxies: ProxyProvider,
    private readonly extraction: ExtractionPool,
    private readonly limits: CrawlFetchLimits,
  ) {}

  async handle(payload: CrawlPagePayload): Promise<CrawlPageResult> {
    try {
      const proxy = payload.geolocation ? proxyForCountry(this.proxies, payload.geolocation) : null;
      const response = await this.http.fetch({
        url: payload.url,
        timeoutMs: payload.timeoutMs,
        maxBytes: this.limits.maxBytes,
        maxRedirects: this.limits.maxRedirects,
        device: payload.device,
        acceptLanguage: acceptLanguageForCountry(payload.geolocation),
        proxy,
      });
      return await toCrawlPageSuccess(payload, { finalUrl: response.finalUrl, status: response.status, html: response.body }, this.extraction);
    } catch (error) {
      if (error instanceof TrawlError && !error.retryable) {
        return { ok: false, url: payload.url, error: error.toJSON() };
      }
      throw error;
    }
  }
}
