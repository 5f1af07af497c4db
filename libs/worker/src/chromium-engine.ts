/**
 * Headless Chromium from the process's render pool, every request behind the SSRF guard proxy; an account's jobs
 * may reuse its own reset context, never another account's.
 */
import type { AddressPolicy, PageRenderer } from '#browser';
import { EngineId, engineRow } from '#contracts';
import type { FetchedPage, PageEngine, PageRequest } from './page-engine.js';

export class ChromiumEngine implements PageEngine {
  readonly row = engineRow(EngineId.chromium);

  constructor(
    private readonly renderer: PageRenderer,
    /** The address policy for operator-configured upstreams (private networks allowed, metadata never). */
    private readonly upstreamPolicy: AddressPolicy,
  ) {}

  async fetchPage(request: PageRequest): Promise<FetchedPage> {
    const rendered = await this.renderer.render({
      url: request.url,
      timeoutMs: request.timeoutMs,
      device: request.device,
      acceptLanguage: request.acceptLanguage,
      proxy: request.proxy,
      screenshot: request.screenshot ?? false,
      ...(request.waitForMs ? { waitMs: request.waitForMs } : {}),
      ...(request.actions?.length ? { actions: request.actions } : {}),
      ...(request.target === 'upstream' ? { addressPolicy: this.upstreamPolicy } : {}),
      ...(request.isolationKey ? { isolationKey: request.isolationKey } : {}),
    });
    return {
      finalUrl: rendered.finalUrl,
      status: rendered.status,
      html: rendered.html,
      screenshot: rendered.screenshot,
      ...(rendered.actions ? { actions: rendered.actions } : {}),
      ...(rendered.headers ? { headers: rendered.headers } : {}),
    };
  }

  /** The pool belongs to BrowserModule, which closes it. */
  async close(): Promise<void> {}
}
