/** Search-engine pages that need JavaScript, rendered by the Chromium pool. */
import type { ProxyInfo } from '../../../libs/contracts/src/index.js';
import type { PageRenderer } from '../../../libs/browser/src/index.js';
import type { UpstreamPageSource, UpstreamRequest } from '../../../libs/serp/src/index.js';

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
