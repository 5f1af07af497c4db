/**
 * Headed Chromium on the worker's Xvfb display (the headful pool): one isolated context per attempt behind the SSRF
 * guard proxy, which resolves and checks every host itself before chaining to the residential proxy — so the
 * proxy never sees a refused address, and redirects and subresources are checked the same way.
 */
import type { PageRenderer } from '#browser';
import { ErrorCode, TrawlError } from '#contracts';
import { EngineId, engineRow } from '#contracts';
import type { FetchedPage, PageEngine, PageRequest } from './page-engine.js';

export class HeadfulEngine implements PageEngine {
  readonly row = engineRow(EngineId.headful);

  constructor(private readonly pool: PageRenderer) {}

  async fetchPage(request: PageRequest): Promise<FetchedPage> {
    try {
      const rendered = await this.pool.render({
        url: request.url,
        timeoutMs: request.timeoutMs,
        device: request.device,
        acceptLanguage: request.acceptLanguage,
        proxy: request.proxy,
        screenshot: request.screenshot ?? false,
        ...(request.waitForMs ? { waitMs: request.waitForMs } : {}),
      ...(request.actions?.length ? { actions: request.actions } : {}),
        ...(request.actions?.length ? { actions: request.actions } : {}),
        // The headed browser presents itself as it is (real version and platform), not as a Windows profile.
        userAgent: 'browser',
        ...(request.locale ? { locale: request.locale } : {}),
        ...(request.timezoneId ? { timezoneId: request.timezoneId } : {}),
      });
      return {
        finalUrl: rendered.finalUrl,
        status: rendered.status,
        html: rendered.html,
        screenshot: rendered.screenshot,
        ...(rendered.actions ? { actions: rendered.actions } : {}),
        ...(rendered.headers ? { headers: rendered.headers } : {}),
      };
    } catch (error) {
      // The pool reports a browser that cannot launch as RENDER_FAILED; for this engine that means the service is down.
      if (error instanceof TrawlError && error.code === ErrorCode.RENDER_FAILED && error.message.includes('could not start Chromium')) {
        throw new TrawlError(ErrorCode.HEADFUL_UNAVAILABLE, 'The headful browser is unavailable: Chromium could not start on the virtual display', 'permanent');
      }
      throw error;
    }
  }

  /** The pool belongs to HeadfulBrowserModule, which closes it. */
  async close(): Promise<void> {}
}
