/** Search-engine pages that need JavaScript, rendered by the Chromium pool. */
import type { ProxyInfo } from '#contracts';
import type { PageRenderer } from '#browser';
import type { UpstreamPageSource, UpstreamRequest } from '#serp';

export class RenderPageSource implements UpstreamPageSource {
  constructor(private readonly renderer: PageRenderer) {}

  async fetchPage(request: UpstreamRequest, proxy: ProxyInfo | null, timeoutMs: number) {
    const rendered = await this.renderer.render({
      url: request.url,
      timeoutMs,
      proxy,
      acceptLanguage: request.headers['accept-language'],
      device: /Mobile/.test(request.headers['user-agent'] ?? '') ? 'mobile' : 'desktop',
    });
    return { status: rendered.status, body: rendered.html };
  }
}
