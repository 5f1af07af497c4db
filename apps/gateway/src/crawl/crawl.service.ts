/**
 * `/crawl`: one queued job per distinct URL on the engine the request needs (plain HTTP, or Chromium when
 * rendering); 1 credit per successful URL over HTTP, 10 rendered, 0 for failures. With a `query`, each page's worker
 * returns its best chunks for it, and they are put together here under one token budget (result-chunks.ts), at no
 * extra charge. With `summary` or `json_*`, each crawled page then goes to the configured LLM (LlmFormatsService):
 * its worst case is reserved with the crawl's, and only the formats that succeeded are charged, by their tokens.
 *
 * With `max_age` (seconds), a page the page cache holds for the same options, fetched at most that long ago, is
 * answered from it (`cache_state: hit`, 1 credit whatever the engine: COSTS.cacheHit) and every page fetched is stored
 * for the next call; the lookups come before the reservation, so only what the call can cost is reserved.
 *
 * `crawl(principal, params)` is the entry point for every surface (REST, MCP, and the Firecrawl-compatible one).
 */
import { Inject, Injectable } from '@nestjs/common';
import { CallLifecycle, COSTS, callDetailOf, type Caller } from '#billing';
import { pageCacheMaxAgeS, TRAWL_CONFIG, type TrawlConfig } from '#config';
import {
  ErrorCode,
  JobName,
  TrawlError,
  crawlParamsSchema,
  formatsOf,
  parseQuery,
  presentContent,
  selectEngine,
  withRejected,
  type CrawlPagePayload,
  type CrawlPageResult,
  type CrawlParams,
  type CrawlResponse,
  type CrawlResultItem,
} from '#contracts';
import { JobDispatcher, type JobOutcome } from '#queue';
import { responseChunks } from '../chunks/result-chunks.js';
import { LlmFormatsService, type CheckedLlmFormats } from '../llm/llm-formats.service.js';
import { PageCache, type CachedPage } from '../page-cache/page-cache.js';
import { pageCacheKey } from '../page-cache/page-cache-key.js';

type PageOutcome = JobOutcome<typeof JobName.crawlPage>;

@Injectable()
export class CrawlService {
  private readonly schema;

  constructor(
    private readonly lifecycle: CallLifecycle,
    private readonly dispatcher: JobDispatcher,
    @Inject(TRAWL_CONFIG) private readonly config: TrawlConfig,
    private readonly llm: LlmFormatsService,
    private readonly cache: PageCache,
  ) {
    this.schema = crawlParamsSchema(config.CRAWL_MAX_URLS, pageCacheMaxAgeS(config));
  }

  /** Validates raw query parameters (400 naming the parameter, before anything is charged). */
  parse(query: unknown): CrawlParams {
    return parseQuery(this.schema, query);
  }

  async crawl(principal: Caller, params: CrawlParams): Promise<CrawlResponse> {
    const engine = selectEngine({ renders: params.render_js, screenshots: params.screenshot });
    const unitCost = params.render_js ? COSTS.crawlRender : COSTS.crawlHttp;
    // Checked before the call starts: a request the LLM cannot take is a 400 and nothing is reserved.
    const llm = params.llm ? this.llm.check(params.llm) : undefined;
    if (params.max_age !== undefined && !this.cache.enabled) {
      throw new TrawlError(ErrorCode.INVALID_PARAMETER, 'max_age: the page cache is off on this server (PAGE_CACHE_MAX_BYTES=0)');
    }
    const formats = formatsOf(params);
    const payloadOf = (callId: string, accountId: string, url: string): CrawlPagePayload => ({
      callId,
      accountId,
      url,
      device: 'desktop',
      // The LLM formats read the page's Markdown, asked for or not.
      formats: llm ? { ...formats, markdown: true } : formats,
      geolocation: params.geolocation,
      screenshot: params.screenshot,
      screenshotFullPage: params.screenshot && params.screenshot_full_page,
      ...(params.chunks ? { chunks: { query: params.chunks.query, perPage: params.chunks.perPage } } : {}),
      timeoutMs: this.config.CRAWL_TIMEOUT_MS,
    });
    const scope = this.config.PAGE_CACHE_SCOPE === 'shared' ? 'shared' : principal.accountId;
    const keys = params.max_age === undefined ? [] : params.urls.map((url) => pageCacheKey(payloadOf('', principal.accountId, url), engine.id));
    const hits: (CachedPage | null)[] = await Promise.all(
      params.urls.map((_, i) => (keys[i] && params.max_age ? this.cache.get(scope, keys[i], params.max_age * 1000) : null)),
    );
    const hitCount = hits.filter(Boolean).length;
    const llmReserve = llm ? this.llm.reservePerPage(llm) : 0;
    const reserve = hitCount * COSTS.cacheHit + (params.urls.length - hitCount) * unitCost + params.urls.length * llmReserve;
    const { body } = await this.lifecycle.run(
      principal,
      { endpoint: '/crawl', reserve, insufficient: ErrorCode.CREDITS_EXHAUSTED },
      async (call) => {
        const missed = params.urls.filter((_, i) => !hits[i]);
        const payloads = missed.map((url) => payloadOf(call.callId, call.principal.accountId, url));
        const fetched = payloads.length ? await this.dispatcher.runAll(engine.queue, JobName.crawlPage, payloads, call.deadline) : [];
        const fetchedAt = Date.now();
        let next = 0;
        const outcomes: PageOutcome[] = hits.map((hit) => (hit ? { ok: true, result: hit.result } : fetched[next++]));
        const results = outcomes.map((outcome, i) => toResultItem(params.urls[i], outcome));
        if (params.max_age !== undefined) await this.throughCache(scope, results, outcomes, hits, keys, fetchedAt);
        let credits = 0;
        for (const [i, item] of results.entries()) if (item.error === undefined) credits += hits[i] ? COSTS.cacheHit : unitCost;
        const successful = results.filter((r) => r.error === undefined).length;
        // A malformed entry of urls fails on its own, at its place: its `error`, no status, 0 credits (url-list.ts).
        const all = withRejected(results, params.urls, (rejected): CrawlResultItem => ({ url: rejected.url, error: rejected.error }));
        const body: CrawlResponse = { results: all, credits, successful_pages: successful };
        if (params.chunks) {
          const chunks = responseChunks(outcomes.map((o) => (o.ok && o.result.ok ? o.result.chunks : undefined)), params.chunks.maxTokens);
          results.forEach((item, i) => {
            if (item.error === undefined) item.chunks = chunks.pages[i];
          });
          body.tokens = chunks.tokens;
          body.token_encoding = chunks.token_encoding;
        }
        const detail = callDetailOf(all);
        if (llm) {
          body.llm_usage = await this.runLlm(results, llm, call.deadline);
          if (!formats.markdown) for (const item of results) delete item.markdown;
          credits += body.llm_usage.credits;
          body.credits = credits;
          detail.llm = body.llm_usage;
        }
        return { body, charge: credits, detail };
      },
    );
    return body;
  }

  /** Marks each result `hit` or `miss` (and when it was fetched), and stores the pages fetched successfully. */
  private async throughCache(
    scope: string,
    results: CrawlResultItem[],
    outcomes: PageOutcome[],
    hits: (CachedPage | null)[],
    keys: (string | null)[],
    fetchedAt: number,
  ): Promise<void> {
    await Promise.all(
      results.map(async (item, i) => {
        const hit = hits[i];
        item.cache_state = hit ? 'hit' : 'miss';
        if (item.error !== undefined) return;
        item.cached_at = new Date(hit ? hit.cachedAt : fetchedAt).toISOString();
        const outcome = outcomes[i];
        const key = keys[i];
        if (!hit && key && outcome.ok && outcome.result.ok) await this.cache.put(scope, key, outcome.result, fetchedAt);
      }),
    );
  }

  /** The LLM formats of every crawled page, side by side (LLM_CONCURRENCY bounds the requests); their usage and price. */
  private async runLlm(results: CrawlResultItem[], formats: CheckedLlmFormats, deadline: number): Promise<NonNullable<CrawlResponse['llm_usage']>> {
    const usage = { model: this.llm.model, prompt_tokens: 0, completion_tokens: 0, credits: 0 };
    await Promise.all(
      results.map(async (item) => {
        if (item.error !== undefined || item.markdown === undefined) return;
        const outcome = await this.llm.run({ url: item.url, title: item.metadata?.title, markdown: item.markdown }, formats, deadline);
        if (outcome.summary !== undefined) item.summary = outcome.summary;
        if (outcome.summary_error !== undefined) item.summary_error = outcome.summary_error;
        if (outcome.json !== undefined) item.json = outcome.json;
        if (outcome.json_error !== undefined) item.json_error = outcome.json_error;
        usage.prompt_tokens += outcome.usage.prompt;
        usage.completion_tokens += outcome.usage.completion;
        usage.credits += outcome.credits;
      }),
    );
    return usage;
  }
}

function toResultItem(url: string, outcome: PageOutcome): CrawlResultItem {
  if (!outcome.ok) return { url, error: `${outcome.error.code}: ${outcome.error.message}` };
  const result: CrawlPageResult = outcome.result;
  if (!result.ok) {
    const failed: CrawlResultItem = { url };
    if (result.status_code !== undefined) failed.status_code = result.status_code;
    failed.error = `${result.error.code}: ${result.error.message}`;
    return failed;
  }
  const item: CrawlResultItem = { url, status_code: result.status_code, ...presentContent(result) };
  if (result.screenshot !== undefined) item.screenshot = result.screenshot;
  if (result.metadata !== undefined) item.metadata = result.metadata;
  return item;
}
