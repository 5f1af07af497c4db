/**
 * `/serp-search`: one queued SERP job on the engine the search provider needs (plain HTTP, or Chromium for engines
 * that need JavaScript). 10 credits when the engine answered; 0 when it failed or blocked us (500
 * UPSTREAM_BLOCKED / UPSTREAM_FAILED).
 */
import { Inject, Injectable } from '@nestjs/common';
import { CallLifecycle, COSTS, type Caller } from '#billing';
import { TRAWL_CONFIG, type TrawlConfig } from '#config';
import { ErrorCode, JobName, TrawlError, searchEngineNeeds, selectEngine, type SerpSearchBody, type SerpSearchParams } from '#contracts';
import { JobDispatcher } from '#queue';

@Injectable()
export class SerpSearchService {
  constructor(
    private readonly lifecycle: CallLifecycle,
    private readonly dispatcher: JobDispatcher,
    @Inject(TRAWL_CONFIG) private readonly config: TrawlConfig,
  ) {}

  /** `endpoint`: the route the call is logged under (Firecrawl's search runs its news and images through here). */
  async search(principal: Caller, params: SerpSearchParams, endpoint = '/serp-search'): Promise<SerpSearchBody> {
    const deadlineMs = this.config.SERP_TIMEOUT_MS + 10_000;
    const { body } = await this.lifecycle.run(
      principal,
      { endpoint, reserve: COSTS.serpSearch, insufficient: ErrorCode.INSUFFICIENT_CREDITS, deadlineMs },
      async (call) => {
        const page = { q: params.q, gl: params.gl, hl: params.hl, tbs: params.tbs, page: params.page, num: params.num, type: params.type };
        const provider = this.config.SERP_ENGINE;
        const engine = selectEngine(searchEngineNeeds(provider, this.config.GOOGLE_TRANSPORT));
        const [outcome] = await this.dispatcher.runAll(
          engine.queue,
          JobName.serpSearch,
          [{ callId: call.callId, provider, params: page, timeoutMs: this.config.SERP_TIMEOUT_MS }],
          call.deadline,
        );
        if (!outcome.ok) throw new TrawlError(ErrorCode.UPSTREAM_FAILED, `The search engine request failed: ${outcome.error.message}`);
        const result = outcome.result;
        if (!result.ok) throw new TrawlError(result.error.code, result.error.message, result.error.kind);
        const parameters: Record<string, string | number> = { q: params.q, gl: params.gl, hl: params.hl, num: params.num, page: params.page, type: params.type };
        if (params.tbs) parameters.tbs = params.tbs;
        return { body: { parameters, ...result.response }, charge: COSTS.serpSearch };
      },
    );
    return body;
  }
}
