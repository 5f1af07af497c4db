/**
 * Runs one `serp.web` job (one `/search` result page) with the worker's engine: build the search provider's request
 * (GET, or DuckDuckGo's POST form), fetch it through a proxy, parse it into the page object. A page that is not an
 * honest answer is retried through the next proxy: a hard block (429/403, captcha, a challenge served with 200),
 * page N that is really page 1 again (the offset the page prints, or the previous page's links), and a cached
 * unrelated result page (no query term in any top result). What stays failed is UPSTREAM_BLOCKED / UPSTREAM_FAILED,
 * never results and never an empty success.
 */
import {
  ErrorCode, contentOf, type ProxyInfo, type ProxyProvider, type TrawlError, type WebSearchPayload, type WebSearchJobResult,
} from '#contracts';
import type { ExtractionPool } from '#extraction';
import { proxyFor } from '#fetch';
import { isRepeatedPage, looksUnrelated, type SearchPage, type SearchProvider, type SearchPageParams } from '#serp';
import { bingCount, bingOffset } from '#serp/bing/bing-request.js';
import { duckDuckGoOffset } from '#serp/duckduckgo/duckduckgo-request.js';
import type { PageEngine } from './page-engine.js';
import { attemptUpstream, fetchUpstream, final, retryable, upstreamFailure, type Attempt } from './upstream-attempts.js';

type WebSearchPageResult = Extract<WebSearchJobResult, { ok: true }>;

export class WebSearchJobHandler {
  constructor(
    private readonly providers: Record<string, SearchProvider>,
    private readonly engine: PageEngine,
    private readonly proxies: ProxyProvider | null,
    private readonly extraction: ExtractionPool,
    private readonly attempts: number,
  ) {}

  async handle(payload: WebSearchPayload): Promise<WebSearchJobResult> {
    const provider = this.providers[payload.provider];
    if (!provider?.buildSearchPageRequest || !provider.parseSearchPage) {
      return upstreamFailure(ErrorCode.UPSTREAM_FAILED, `The ${payload.provider} search provider is not configured for /search`);
    }
    const params: SearchPageParams = { ...payload.params };
    const plan = { attempts: this.attempts, deadline: Date.now() + payload.timeoutMs, unreachable: 'The search engine could not be reached' };
    return attemptUpstream<WebSearchJobResult>(plan, async (attempt, remaining) => {
      let proxy: ProxyInfo | null;
      try {
        // A geolocation asked for must be served; otherwise the market (`cc`) is a hint, `us` by default.
        proxy = payload.proxyCountry ? proxyFor(this.proxies, payload.proxyCountry, { required: true }) : proxyFor(this.proxies, params.cc ?? 'us');
      } catch (error) {
        return final(ErrorCode.UPSTREAM_FAILED, (error as TrawlError).message);
      }
      return this.attempt(provider, payload, params, proxy, remaining, attempt);
    });
  }

  private async attempt(
    provider: SearchProvider, payload: WebSearchPayload, q: SearchPageParams, proxy: ProxyInfo | null, remaining: number, attempt: number,
  ): Promise<Attempt<WebSearchPageResult>> {
    const request = provider.buildSearchPageRequest!(q);
    const fetched = await fetchUpstream(this.engine, {
      url: request.url,
      headers: request.headers,
      timeoutMs: remaining,
      device: q.device ?? 'desktop',
      acceptLanguage: request.headers['accept-language'] ?? 'en-US,en;q=0.9',
      proxy,
      target: 'upstream',
      ...(request.browserTls ? { browserTls: true } : {}),
      ...(request.method === 'POST' ? { method: 'POST' as const, body: request.body ?? '' } : {}),
    }, `The search engine (page ${q.page})`);
    if (!fetched.ok) return fetched;
    const { page } = fetched;
    const parsed = provider.parseSearchPage!(page.html, q, { status: page.status, finalUrl: page.finalUrl });
    if (parsed.verdict.kind === 'blocked') {
      return retryable(ErrorCode.UPSTREAM_BLOCKED, `The search engine answered page ${q.page} with a ${parsed.verdict.reason.replace('_', ' ')} page`);
    }
    if (page.status >= 400) return retryable(ErrorCode.UPSTREAM_FAILED, `The search engine answered HTTP ${page.status}`);
    if (parsed.page) {
      const previous = payload.previousLinks ? { search_results: payload.previousLinks.map(asResult) } : null;
      if (q.page > 1 && isRepeatedPage(previous, parsed, requestedOffset(payload.provider, q))) {
        return retryable(ErrorCode.UPSTREAM_BLOCKED, `The search engine answered page ${q.page} with page 1 again`);
      }
      if (looksUnrelated(q.query, parsed.page)) {
        return retryable(ErrorCode.UPSTREAM_BLOCKED, `The search engine answered page ${q.page} with results unrelated to the query`);
      }
    }
    const result: WebSearchPageResult = {
      ok: true,
      page: parsed.page ?? EMPTY_PAGE,
      pagination: parsed.page ? parsed.pagination : { ...parsed.pagination, hasNext: false },
      attempts: attempt,
    };
    const formats = payload.formats;
    if (formats && Object.values(formats).some(Boolean)) {
      const formatted = await this.extraction.format(page.html, { url: page.finalUrl, formats });
      result.content = contentOf(formats, page.html, formatted);
    }
    return { ok: true, result };
  }
}

const EMPTY_PAGE: SearchPage = { total_results: '', search_results: [], related_queries: [] };

/** The 0-based offset the provider's page N starts at, for the repeat check; 0 = unknown (links alone decide). */
function requestedOffset(provider: WebSearchPayload['provider'], q: SearchPageParams): number {
  if (provider === 'bing') return bingOffset(q.page, bingCount(q));
  if (provider === 'duckduckgo') return duckDuckGoOffset(q.page);
  return 0;
}

const asResult = (link: string) => ({ title: '', link, date: null, snippet: '', source: '' });
