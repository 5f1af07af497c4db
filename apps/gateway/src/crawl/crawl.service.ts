/**
 * `/crawl`: one queued job per distinct URL on the engine the request needs (plain HTTP, or Chromium when
 * rendering); 1 credit per successful URL over HTTP, 10 rendered, 0 for failures. With a `query`, each page's worker
 * returns its best chunks for it, and they are put together here under one token budget (result-chunks.ts), at no
 * extra charge.
 */
import { Inject, Injectable } from '@nestjs/common';
import { CallLifecycle, COSTS, callDetailOf, type Caller } from '#billing';
import { TRAWL_CONFIG, type TrawlConfig } from '#config';
import {
  ErrorCode,
  JobName,
  crawlParamsSchema,
  formatsOf,
  parseQuery,
  presentContent,
  selectEngine,
  type CrawlPagePayload,
  type CrawlPageResult,
  type CrawlParams,
  type CrawlResponse,
  type CrawlResultItem,
} from '#contracts';
import { JobDispatcher, type JobOutcome } from '#queue';
import { responseChunks } from '../chunks/result-chunks.js';

@Injectable()
export class CrawlService {
  private readonly schema;

  constructor(
    private readonly lifecycle: CallLifecycle,
    private readonly dispatcher: JobDispatcher,
    @Inject(TRAWL_CONFIG) private readonly config: TrawlConfig,
  ) {
    this.schema = crawlParamsSchema(config.CRAWL_MAX_URLS);
  }

  /** Validates raw query parameters (400 naming the parameter, before anything is charged). */
  parse(query: unknown): CrawlParams {
    return parseQuery(this.schema, query);
  }

  async crawl(principal: Caller, params: CrawlParams): Promise<CrawlResponse> {
    const engine = selectEngine({ renders: params.render_js, screenshots: params.screenshot });
    const unitCost = params.render_js ? COSTS.crawlRender : COSTS.crawlHttp;
    const { body } = await this.lifecycle.run(
      principal,
      { endpoint: '/crawl', reserve: params.urls.length * unitCost, insufficient: ErrorCode.CREDITS_EXHAUSTED },
      async (call) => {
        const payloads: CrawlPagePayload[] = params.urls.map((url) => ({
          callId: call.callId,
          accountId: call.principal.accountId,
          url,
          device: 'desktop',
          formats: formatsOf(params),
          geolocation: params.geolocation,
          screenshot: params.screenshot,
          screenshotFullPage: params.screenshot && params.screenshot_full_page,
          ...(params.chunks ? { chunks: { query: params.chunks.query, perPage: params.chunks.perPage } } : {}),
          timeoutMs: this.config.CRAWL_TIMEOUT_MS,
        }));
        const outcomes = await this.dispatcher.runAll(engine.queue, JobName.crawlPage, payloads, call.deadline);
        const results = outcomes.map((outcome, i) => toResultItem(params.urls[i], outcome));
        const successful = results.filter((r) => r.error === undefined).length;
        const credits = successful * unitCost;
        const body: CrawlResponse = { results, credits, successful_pages: successful };
        if (params.chunks) {
          const chunks = responseChunks(outcomes.map((o) => (o.ok && o.result.ok ? o.result.chunks : undefined)), params.chunks.maxTokens);
          results.forEach((item, i) => {
            if (item.error === undefined) item.chunks = chunks.pages[i];
          });
          body.tokens = chunks.tokens;
          body.token_encoding = chunks.token_encoding;
        }
        return { body, charge: credits, detail: callDetailOf(results) };
      },
    );
    return body;
  }
}

function toResultItem(url: string, outcome: JobOutcome<typeof JobName.crawlPage>): CrawlResultItem {
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
