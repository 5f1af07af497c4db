/**
 * Runs one `serp.search` job with the worker's engine: build the search engine's request, fetch it (through the
 * proxy pool, rotating to another proxy when the page is a captcha / consent / block page), parse it. A page that
 * stays blocked, or an upstream that fails, is an outcome value with UPSTREAM_BLOCKED / UPSTREAM_FAILED — never
 * "zero results".
 */
import { ErrorCode, type ProxyProvider, type SerpSearchPayload, type SerpSearchResult } from '#contracts';
import { detectBlock, proxyFor } from '#fetch';
import type { SearchProvider } from '#serp';
import type { PageEngine } from './page-engine.js';
import { attemptUpstream, fetchUpstream, retryable, upstreamFailure } from './upstream-attempts.js';

export class SerpJobHandler {
  constructor(
    private readonly providers: Record<string, SearchProvider>,
    private readonly engine: PageEngine,
    private readonly proxies: ProxyProvider | null,
    private readonly attempts: number,
  ) {}

  async handle(payload: SerpSearchPayload): Promise<SerpSearchResult> {
    const provider = this.providers[payload.provider];
    if (!provider?.buildSerpRequest || !provider.parseSerp) {
      return upstreamFailure(ErrorCode.UPSTREAM_FAILED, `The ${payload.provider} search provider is not configured for /serp-search`);
    }
    const { params } = payload;
    const request = provider.buildSerpRequest(params);
    const plan = { attempts: this.attempts, deadline: Date.now() + payload.timeoutMs, unreachable: 'The search engine could not be reached' };
    return attemptUpstream<SerpSearchResult>(plan, async (_n, remaining) => {
      const fetched = await fetchUpstream(this.engine, {
        url: request.url,
        headers: request.headers,
        timeoutMs: remaining,
        device: params.device ?? 'desktop',
        acceptLanguage: request.headers['accept-language'] ?? 'en-US,en;q=0.9',
        proxy: proxyFor(this.proxies, params.gl),
        target: 'upstream',
        ...(request.browserTls ? { browserTls: true } : {}),
      }, 'The search engine');
      if (!fetched.ok) return fetched;
      const { page } = fetched;
      // The shared detector's vendor tier (Cloudflare, Akamai, DataDome, …): the engine's own parser knows its captcha
      // pages, not a CDN's challenge in front of a self-hosted engine.
      const wall = detectBlock({ status: page.status, html: page.html });
      if (wall.blocked && wall.tier === 1) return retryable(ErrorCode.UPSTREAM_BLOCKED, `The search engine answered with an anti-bot page (${wall.reason})`);
      const parsed = provider.parseSerp!(page.html, params);
      if (parsed.verdict.kind === 'blocked') {
        return retryable(ErrorCode.UPSTREAM_BLOCKED, `The search engine answered with a ${parsed.verdict.reason.replace('_', ' ')} page`);
      }
      const response = parsed.result ?? { serp_search_results: [] };
      return { ok: true, result: { ok: true, verdict: parsed.verdict.kind, response } };
    });
  }
}
