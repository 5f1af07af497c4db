/**
 * Handles one `crawl.page` job with JavaScript rendering: headless Chromium (one context per job) renders the page,
 * optionally screenshots it, then the format pipeline runs on the rendered DOM. Expected failures are values;
 * faults a retry can fix (the browser crashed, navigation timed out) are thrown for the queue to retry.
 */
import type { CrawlPagePayload, CrawlPageResult, ProxyProvider } from '../../../libs/contracts/src/index.js';
import { TrawlError } from '../../../libs/contracts/src/index.js';
import type { PageRenderer } from '../../../libs/browser/src/index.js';
import type { ExtractionPool } from '../../../libs/extraction/src/index.js';
import { acceptLanguageForCountry, proxyForCountry } from '../../../libs/fetch/src/index.js';

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
      const page = await this.extraction.format(rendered.html, { url: rendered.finalUrl, formats: payload.formats });
      return {
        ok: true,
        url: payload.url,
        finalUrl: rendered.finalUrl,
        status_code: rendered.status,
        ...(payload.formats.raw_html ? { raw_html: rendered.html } : {}),
        ...(page.enhanced_html !== undefined ? { enhanced_html: page.enhanced_html } : {}),
        ...(page.markdown !== undefined ? { markdown: page.markdown } : {}),
        ...(page.page_text !== undefined ? { page_text: page.page_text } : {}),
        ...(rendered.screenshot !== undefined ? { screenshot: rendered.screenshot } : {}),
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
