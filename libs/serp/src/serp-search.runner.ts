/**
 * Runs one `/serp-search` job: build the engine's request, fetch it (through the proxy pool, rotating to another
 * proxy when the page is a captcha / consent / block page), parse it. A page that stays blocked, or an upstream
 * that fails, is an outcome value with UPSTREAM_BLOCKED / UPSTREAM_FAILED — never "zero results".
 */
import { ErrorCode, TrawlError, type ProxyInfo, type ProxyProvider, type SerpSearchPayload, type SerpSearchResult } from '#contracts';
import type { SerpEngine, UpstreamRequest } from './types.js';

/** Fetches an upstream page as text, over plain HTTP or through a browser. */
export interface UpstreamPageSource {
  fetchPage(request: UpstreamRequest, proxy: ProxyInfo | null, timeoutMs: number): Promise<{ status: number; body: string }>;
}

export class SerpSearchRunner {
  constructor(
    private readonly engines: Record<string, SerpEngine>,
    private readonly source: UpstreamPageSource,
    private readonly proxies: ProxyProvider | null,
    private readonly attempts: number,
  ) {}

  async run(payload: SerpSearchPayload): Promise<SerpSearchResult> {
    const engine = this.engines[payload.engine];
    if (!engine?.buildSerpRequest || !engine.parseSerp) {
      return failure(ErrorCode.UPSTREAM_FAILED, `The ${payload.engine} engine is not configured for /serp-search`);
    }
    const request = engine.buildSerpRequest(payload.query);
    const deadline = Date.now() + payload.timeoutMs;
    let last: SerpSearchResult = failure(ErrorCode.UPSTREAM_FAILED, 'The search engine could not be reached');
    for (let attempt = 1; attempt <= this.attempts; attempt++) {
      const remaining = deadline - Date.now();
      if (remaining <= 0) break;
      const proxy = this.proxies?.next(payload.query.gl) ?? null;
      let page: { status: number; body: string };
      try {
        page = await this.source.fetchPage(request, proxy, remaining);
      } catch (error) {
        const e = TrawlError.from(error);
        last = failure(ErrorCode.UPSTREAM_FAILED, `The search engine could not be reached (${e.code})`);
        if (!e.retryable) break;
        continue;
      }
      if (page.status === 429 || page.status === 403) {
        last = failure(ErrorCode.UPSTREAM_BLOCKED, `The search engine refused the request (HTTP ${page.status})`);
        continue;
      }
      if (page.status >= 500) {
        last = failure(ErrorCode.UPSTREAM_FAILED, `The search engine answered HTTP ${page.status}`);
        continue;
      }
      const parsed = engine.parseSerp(page.body, payload.query);
      if (parsed.verdict.kind === 'blocked') {
        last = failure(ErrorCode.UPSTREAM_BLOCKED, `The search engine answered with a ${parsed.verdict.reason.replace('_', ' ')} page`);
        continue;
      }
      const response = parsed.result ?? { serp_search_results: [] };
      return { ok: true, verdict: parsed.verdict.kind, response: response as SerpSearchResultResponse };
    }
    return last;
  }
}

type SerpSearchResultResponse = Extract<SerpSearchResult, { ok: true }>['response'];

function failure(code: ErrorCode, message: string): SerpSearchResult {
  return { ok: false, error: { code, message, kind: code === ErrorCode.UPSTREAM_BLOCKED ? 'blocked' : 'transient' } };
}
