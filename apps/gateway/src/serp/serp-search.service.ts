/**
 * `/serp-search`: one queued SERP job (worker-http, or worker-render for engines that need JavaScript).
 * 10 credits when the engine answered; 0 when it failed or blocked us (502 UPSTREAM_BLOCKED / UPSTREAM_FAILED).
 */
import { Inject, Injectable } from '@nestjs/common';
import { COSTS, type Principal } from '#billing';
import { TRAWL_CONFIG, type TrawlConfig } from '#config';
import { ErrorCode, JobName, QueueName, TrawlError } from '#contracts';
import { JobDispatcher } from '#queue';
import type { SerpEngine } from '#serp';
import { enginesFromConfig } from '#serp/engines-from-config.js';
import { RequestLifecycle } from '../lifecycle/request-lifecycle.service.js';
import type { SerpSearchParams } from './serp-search.params.js';

export type SerpSearchBody = { parameters: Record<string, string | number> } & Record<string, unknown>;

@Injectable()
export class SerpSearchService {
  private readonly engine: SerpEngine;

  constructor(
    private readonly lifecycle: RequestLifecycle,
    private readonly dispatcher: JobDispatcher,
    @Inject(TRAWL_CONFIG) private readonly config: TrawlConfig,
  ) {
    this.engine = enginesFromConfig(config)[config.SERP_ENGINE];
  }

  async search(principal: Principal, params: SerpSearchParams, meter: { credits?: number; requestId?: string }): Promise<SerpSearchBody> {
    const { body } = await this.lifecycle.run(
      principal,
      { reserve: COSTS.serpSearch, insufficient: ErrorCode.INSUFFICIENT_CREDITS },
      meter,
      async (requestId) => {
        const query = { q: params.q, gl: params.gl, hl: params.hl, tbs: params.tbs, page: params.page, num: params.num, type: params.type };
        const transport = this.engine.buildSerpRequest?.(query).transport ?? 'http';
        const [outcome] = await this.dispatcher.runAll(
          transport === 'render' ? QueueName.render : QueueName.http,
          JobName.serpSearch,
          [{ requestId, engine: this.config.SERP_ENGINE, query, timeoutMs: this.config.SERP_TIMEOUT_MS }],
          Date.now() + Math.min(this.config.REQUEST_DEADLINE_MS, this.config.SERP_TIMEOUT_MS + 10_000),
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
