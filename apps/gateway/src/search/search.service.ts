/**
 * `/search`: result pages 1..max_pages fetched in order as `serp.web` jobs on the engine the search engine needs
 * (stopping when a page has no next page), the toggled-off blocks removed, and — with `auto_crawling` — every result
 * crawled through the crawl queue (auto-crawl.ts). Costs: 10 credits per result page fetched, plus 1 per result
 * crawled successfully (the `/crawl` price over HTTP); a failed or blocked page and a failed crawl cost nothing.
 * Page 1 failing fails the call (500 UPSTREAM_*, nothing charged); a later page failing ends the pagination and is reported in
 * `page_errors`. The public method is `search(principal, params)`, shared by REST and (later) MCP.
 */
import { Inject, Injectable } from '@nestjs/common';
import { CallLifecycle, COSTS, type CallContext, type Caller } from '#billing';
import { TRAWL_CONFIG, type TrawlConfig } from '#config';
import {
  ANY_COUNTRY, ErrorCode, egressFor, formatsOf, JobName, TrawlError, parseProxyList, parseQuery, proxyCoverage, searchEngineNeeds, searchParamsSchema, selectEngine,
  type Egress, type Freshness, type ProxyCoverage, type SearchResponsePage, type SearchParams, type SearchResponse, type WebSearchPayload, type WebSearchJobResult,
} from '#contracts';
import { JobDispatcher } from '#queue';
import { responseChunks } from '../chunks/result-chunks.js';
import { AUTO_CRAWL_MAX_PER_PAGE, AutoCrawl } from './auto-crawl.js';
import { shapePage } from './search-page.js';

@Injectable()
export class SearchService {
  /** The countries PROXIES names (`*` included when it has an entry for every other country). */
  private readonly proxyCountries: ReadonlySet<string>;
  private readonly coverage: ProxyCoverage;

  constructor(
    private readonly lifecycle: CallLifecycle,
    private readonly dispatcher: JobDispatcher,
    @Inject(TRAWL_CONFIG) private readonly config: TrawlConfig,
  ) {
    this.proxyCountries = new Set(parseProxyList(config.PROXIES).keys());
    this.coverage = proxyCoverage(config.PROXIES);
  }

  /** Validates raw query parameters (400 naming the parameter, before anything is charged). */
  parse(query: unknown): SearchParams {
    return parseQuery(searchParamsSchema, query);
  }

  /** Worst case: every page fetched, and with auto-crawling every result of every page crawled. */
  reserveFor(params: Pick<SearchParams, 'max_pages' | 'auto_crawling'>): number {
    return params.max_pages * (COSTS.search + (params.auto_crawling ? AUTO_CRAWL_MAX_PER_PAGE * COSTS.crawlHttp : 0));
  }

  /**
   * `options.tbs`: only results of the past hour … year (Google's freshness, each engine maps it); the contract's
   * `/search` has no such parameter, Firecrawl's search does.
   */
  async search(principal: Caller, params: SearchParams, endpoint = '/search', options: { tbs?: Freshness } = {}): Promise<SearchResponse> {
    const deadlineMs = params.max_pages * (this.config.SERP_TIMEOUT_MS + 1_000) + (params.auto_crawling ? this.config.SEARCH_CRAWL_DEADLINE_MS : 0) + 5_000;
    const { body } = await this.lifecycle.run(
      principal,
      { endpoint, reserve: this.reserveFor(params), insufficient: ErrorCode.CREDITS_EXHAUSTED, deadlineMs },
      async (call) => {
        // Inside the call, so a country no proxy serves is logged with its code and 0 credits.
        const { proxyCountry, egress } = this.route(params);
        const crawl = params.auto_crawling
          ? new AutoCrawl(this.dispatcher, call, {
              formats: formatsOf(params),
              device: params.device,
              geolocation: proxyCountry,
              concurrency: this.config.SEARCH_CRAWL_CONCURRENCY,
              timeoutMs: this.config.SEARCH_CRAWL_TIMEOUT_MS,
              ...(params.chunks ? { chunks: { query: params.chunks.query, perPage: params.chunks.perPage } } : {}),
            })
          : null;
        const { pages, fetched, pageErrors } = await this.fetchPages(call, params, options.tbs, proxyCountry, (page) => crawl?.add(page));
        // One deadline for every result, counted from when the last page is in.
        const crawled = crawl ? await crawl.finish(Date.now() + this.config.SEARCH_CRAWL_DEADLINE_MS) : 0;
        const credits = fetched * COSTS.search + crawled * COSTS.crawlHttp;
        const response: SearchResponse = { query: params.query, pages_fetched: fetched, pages, credits };
        if (Object.keys(pageErrors).length) response.page_errors = pageErrors;
        if (egress) response.egress = egress;
        if (crawl && params.chunks) {
          const crawledResults = crawl.chunks();
          const chunks = responseChunks(crawledResults.map((c) => c.chunks), params.chunks.maxTokens);
          crawledResults.forEach(({ item }, i) => (item.chunks = chunks.pages[i]));
          response.tokens = chunks.tokens;
          response.token_encoding = chunks.token_encoding;
        }
        return { body: response, charge: credits, ...(egress ? { detail: { urls: [], egress } } : {}) };
      },
    );
    return body;
  }

  /** Pages 1..max_pages in order; each page's next-page facts and links go into the next page's job; `onPage` as each is in. */
  private async fetchPages(call: CallContext, params: SearchParams, tbs: Freshness | undefined, proxyCountry: string | undefined, onPage: (page: SearchResponsePage) => void) {
    const queue = selectEngine(searchEngineNeeds(this.config.SEARCH_ENGINE, this.config.GOOGLE_TRANSPORT)).queue;
    const formats = formatsOf(params);
    const pages: Record<string, SearchResponsePage> = {};
    const pageErrors: Record<string, string> = {};
    let fetched = 0;
    let previous: Extract<WebSearchJobResult, { ok: true }> | undefined;
    for (let n = 1; n <= params.max_pages; n++) {
      const payload: WebSearchPayload = {
        callId: call.callId,
        provider: this.config.SEARCH_ENGINE,
        params: {
          query: params.query,
          page: n,
          device: params.device,
          ...(params.setLang ? { setLang: params.setLang } : {}),
          ...(params.cc ? { cc: params.cc.toUpperCase() } : {}),
          ...(params.count !== undefined ? { count: params.count } : {}),
          ...(tbs ? { tbs } : {}),
          ...(previous?.pagination.nextParams ? { nextParams: previous.pagination.nextParams } : {}),
        },
        ...(previous ? { previousLinks: previous.page.search_results.map((r) => r.link) } : {}),
        ...(proxyCountry ? { proxyCountry } : {}),
        ...(Object.values(formats).some(Boolean) ? { formats } : {}),
        timeoutMs: this.config.SERP_TIMEOUT_MS,
      };
      const [outcome] = await this.dispatcher.runAll(queue, JobName.serpWeb, [payload], call.deadline);
      const result: WebSearchJobResult = outcome.ok
        ? outcome.result
        : { ok: false, error: { code: ErrorCode.UPSTREAM_FAILED, message: `The search engine request failed: ${outcome.error.message}`, kind: 'transient' } };
      if (!result.ok) {
        if (n === 1) throw new TrawlError(result.error.code, result.error.message, result.error.kind);
        pageErrors[String(n)] = `${result.error.code}: ${result.error.message}`;
        break;
      }
      fetched++;
      pages[String(n)] = shapePage(result, params);
      onPage(pages[String(n)]);
      if (!result.pagination.hasNext || !result.page.search_results.length) break;
      previous = result;
    }
    return { pages, fetched, pageErrors };
  }

  /**
   * The proxy country of the pages (and auto-crawls) for `geolocation`, and the `egress` reported, by `egressFor`'s
   * rule: a named country goes through its proxy or fails (500 PROXY_UNAVAILABLE, 0 credits); `random` picks one of
   * the countries PROXIES names, and with none takes the route a search without geolocation takes (the market's or a
   * `*` proxy, else direct: a fresh install).
   */
  private route(params: Pick<SearchParams, 'geolocation' | 'cc'>): { proxyCountry?: string; egress?: Egress } {
    const geolocation = params.geolocation;
    if (!geolocation) return {};
    if (geolocation === 'random') {
      const countries = [...this.proxyCountries].filter((c) => c !== ANY_COUNTRY);
      if (!countries.length) return { egress: egressFor(this.coverage, params.cc ?? 'us', false) };
      const country = countries[Math.floor(Math.random() * countries.length)];
      return { proxyCountry: country, egress: { via: 'proxy', country } };
    }
    return { proxyCountry: geolocation, egress: egressFor(this.coverage, geolocation, true) };
  }
}

