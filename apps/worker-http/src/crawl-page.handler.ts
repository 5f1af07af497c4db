/**
 * Handles one `crawl.page` job over plain HTTP: fetch (through a country proxy when asked), then run the format
 * pipeline. Expected failures (bad address, refused by the guard, oversize, unsupported content) are returned as
 * values; faults a retry can fix (timeouts, resets) are thrown so the queue retries them with backoff.
 */
import type { CrawlPagePayload, CrawlPageResult, ProxyProvider } from '../../../libs/contracts/src/index.js';
import { TrawlError } from '../../../libs/contracts/src/index.js';
import type { ExtractionPool } from '../../../libs/extraction/src/index.js';
import { acceptLanguageForCountry, proxyForCountry, type HttpClient } from '../../../libs/fetch/src/index.js';

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
      const page = await this.extraction.format(response.body, { url: response.finalUrl, formats: payload.formats });
      return {
        ok: true,
        url: payload.url,
        finalUrl: response.finalUrl,
        status_code: response.status,
        ...(payload.formats.raw_html ? { raw_html: response.body } : {}),
        ...(page.enhanced_html !== undefined ? { enhanced_html: page.enhanced_html } : {}),
        ...(page.markdown !== undefined ? { markdown: page.markdown } : {}),
        ...(page.page_text !== undefined ? { page_text: page.page_text } : {}),
        metadata: page.metadata,
      };
    } catch (error) {
      if (error instanceof TrawlError && !error.retryable) {
        return { ok: false, url: payload.url, error: error.toJSON() };
      }
      throw error;
    }
  }
}
