/**
 * Runs one `serp.web` job (one `/search` result page) with the worker's engine: build the search engine's request
 * (GET, or DuckDuckGo's POST form), fetch it through a proxy, parse it into the page object. A page that is not an
 * honest answer is retried through the next proxy: a hard block (429/403, captcha, a challenge served with 200),
 * page N that is really page 1 again (the offset the page prints, or the previous page's links), and a cached
 * unrelated result page (no query term in any top result). What stays failed is UPSTREAM_BLOCKED / UPSTREAM_FAILED,
 * never results and never an empty success.
 */
import {
  ErrorCode, TrawlError, type ProxyInfo, type ProxyProvider, type WebSearchPayload, type WebSearchJobResult,
} from '#contracts';
import type { ExtractionPool } from '#extraction';
import { isRepeatedPage, looksUnrelated, type SearchPage, type SerpEngine, type WebQuery } from '#serp';
import { bingCount, bingOffset } from '#serp/bing/bing-request.js';
import { duckDuckGoOffset } from '#serp/duckduckgo/duckduckgo-request.js';
import type { FetchedPage, PageEngine } from './page-engine.js';

type Attempt = { ok: true; result: Extract<WebSearchJobResult, { ok: true }> } | { ok: false; failure: WebSearchJobResult; retry: boolean };

export class WebSearchJobHandler {
  constructor(
    private readonly searchEngines: Record<string, SerpEngine>,
    private readonly engine: PageEngine,
    private readonly proxies: ProxyProvider | null,
    private readonly extraction: ExtractionPool,
    private readonly attempts: number,
  ) {}

  async handle(payload: WebSearchPayload): Promise<WebSearchJobResult> {
    const searchEngine = this.searchEngines[payload.engine];
    if (!searchEngine?.buildWebRequest || !searchEngine.parseSearchPage) {
      return failure(ErrorCode.UPSTREAM_FAILED, `The ${payload.engine} engine is not configured for /search`);
    }
    const q: WebQuery = { ...payload.query };
    const deadline = Date.now() + payload.timeoutMs;
    let last: WebSearchJobResult = failure(ErrorCode.UPSTREAM_FAILED, 'The search engine could not be reached');
    for (let attempt = 1; attempt <= this.attempts; attempt++) {
      const remaining = deadline - Date.now();
      if (remaining <= 0) break;
      const proxy = this.proxyFor(payload);
      if (proxy === undefined) return failure(ErrorCode.UPSTREAM_FAILED, `No proxy is configured for geolocation "${payload.proxyCountry}"`);
      const outcome = await this.attempt(searchEngine, payload, q, proxy, remaining, attempt);
      if (outcome.ok) return outcome.result;
      last = outcome.failure;
      if (!outcome.retry) break;
    }
    return last;
  }

  /** The next proxy: of the asked-for country (undefined when the pool has none), else any the pool hands out, else direct. */
  private proxyFor(payload: WebSearchPayload): ProxyInfo | null | undefined {
    if (payload.proxyCountry) return this.proxies?.next(payload.proxyCountry) ?? undefined;
    return this.proxies?.next(payload.query.cc?.toLowerCase() ?? 'us') ?? null;
  }

  private async attempt(
    searchEngine: SerpEngine, payload: WebSearchPayload, q: WebQuery, proxy: ProxyInfo | null, remaining: number, attempt: number,
  ): Promise<Attempt> {
    const request = searchEngine.buildWebRequest!(q);
    let page: FetchedPage;
    try {
      page = await this.engine.fetchPage({
        url: request.url,
        headers: request.headers,
        timeoutMs: remaining,
        device: q.device ?? 'desktop',
        acceptLanguage: request.headers['accept-language'] ?? 'en-US,en;q=0.9',
        proxy,
        target: 'upstream',
        ...(request.browserTls ? { browserTls: true } : {}),
        ...(request.method === 'POST' ? { method: 'POST' as const, body: request.body ?? '' } : {}),
      });
    } catch (error) {
      const e = TrawlError.from(error);
      return { ok: false, failure: failure(ErrorCode.UPSTREAM_FAILED, `The search engine could not be reached (${e.code})`), retry: e.retryable };
    }
    if (page.status === 429 || page.status === 403) return blocked(ErrorCode.UPSTREAM_BLOCKED, `The search engine refused page ${q.page} (HTTP ${page.status})`);
    if (page.status >= 500) return blocked(ErrorCode.UPSTREAM_FAILED, `The search engine answered HTTP ${page.status}`);
    const parsed = searchEngine.parseSearchPage!(page.html, q, { status: page.status, finalUrl: page.finalUrl });
    if (parsed.verdict.kind === 'blocked') {
      return blocked(ErrorCode.UPSTREAM_BLOCKED, `The search engine answered page ${q.page} with a ${parsed.verdict.reason.replace('_', ' ')} page`);
    }
    if (page.status >= 400) return blocked(ErrorCode.UPSTREAM_FAILED, `The search engine answered HTTP ${page.status}`);
    if (parsed.page) {
      const previous = payload.previousLinks ? { search_results: payload.previousLinks.map(asResult) } : null;
      if (q.page > 1 && isRepeatedPage(previous, parsed, requestedOffset(payload.engine, q))) {
        return blocked(ErrorCode.UPSTREAM_BLOCKED, `The search engine answered page ${q.page} with page 1 again`);
      }
      if (looksUnrelated(q.query, parsed.page)) {
        return blocked(ErrorCode.UPSTREAM_BLOCKED, `The search engine answered page ${q.page} with results unrelated to the query`);
      }
    }
    const result: Extract<WebSearchJobResult, { ok: true }> = {
      ok: true,
      page: parsed.page ?? EMPTY_PAGE,
      pagination: parsed.page ? parsed.pagination : { ...parsed.pagination, hasNext: false },
      attempts: attempt,
    };
    const formats = payload.formats;
    if (formats && Object.values(formats).some(Boolean)) {
      const formatted = await this.extraction.format(page.html, { url: page.finalUrl, formats });
      result.content = {
        ...(formats.raw_html ? { raw_html: page.html } : {}),
        ...(formatted.enhanced_html !== undefined ? { enhanced_html: formatted.enhanced_html } : {}),
        ...(formatted.markdown !== undefined ? { markdown: formatted.markdown } : {}),
        ...(formatted.page_text !== undefined ? { page_text: formatted.page_text } : {}),
      };
    }
    return { ok: true, result };
  }
}

const EMPTY_PAGE: SearchPage = { total_results: '', search_results: [], related_queries: [] };

/** The 0-based offset the engine's page N starts at, for the repeat check; 0 = unknown (links alone decide). */
function requestedOffset(engine: WebSearchPayload['engine'], q: WebQuery): number {
  if (engine === 'bing') return bingOffset(q.page, bingCount(q));
  if (engine === 'duckduckgo') return duckDuckGoOffset(q.page);
  return 0;
}

const asResult = (link: string) => ({ title: '', link, date: null, snippet: '', source: '' });

function failure(code: ErrorCode, message: string): WebSearchJobResult {
  return { ok: false, error: { code, message, kind: code === ErrorCode.UPSTREAM_BLOCKED ? 'blocked' : 'transient' } };
}

/** A page to retry through another proxy. */
function blocked(code: ErrorCode, message: string): Attempt {
  return { ok: false, failure: failure(code, message), retry: true };
}
