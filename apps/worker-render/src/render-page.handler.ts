/**
 * Handles one `crawl.page` job with JavaScript rendering: headless Chromium (one context per job) renders the page,
 * optionally screenshots it, then the format pipeline runs on the rendered DOM. Expected failures are values;
 * faults a retry can fix (the browser crashed, navigation timed out) are thrown for the queue to retry.
 */
import type { CrawlPagePayload, CrawlPageResult, ProxyProvider } from '#contracts';
import { TrawlError } from '#contracts';
import type { PageRenderer } from '#browser';
import { toCrawlPageSuccess, type ExtractionPool } from '#extraction';
import { acceptLanguageForCountry, proxyForCountry } from '#fetch';

export class RenderPageHandler {
  constructor(
    private readonly renderer: PageRenderer,
    private readonly proxies: ProxyProvider,
    private readonly extraction: ExtractionPool,
  ) {}

  async handle(payload: CrawlPagePayload): Promise<CrawlPageResult> {
    try {
      const proxy = payload.geolocation ? proxyForCountry(this.proxies, payload.geolocation) : null;
      const rendered = await this.renderer.render({
        url: payload.url,
        timeoutMs: payload.timeoutMs,
        device: payload.device,
        acceptLanguage: acceptLanguageForCountry(payload.geolocation),
        proxy,
        screenshot: payload.screenshot ? (payload.screenshotFullPage ? 'full' : 'viewport') : false,
      });
      return await toCrawlPageSuccess(
        payload,
        { finalUrl: rendered.finalUrl, status: rendered.status, html: rendered.html, screenshot: rendered.screenshot },
        this.extraction,
      );
    } catch (error) {
      if (error instanceof TrawlError && !error.retryable) {
        return { ok: false, url: payload.url, error: error.toJSON() };
      }
      throw error;
    }
  }
}
