/**
 * `/serp-maps`: one queued maps job on the http engine (the provider's JSON endpoints need no browser): a search,
 * or a direct `placeId` / `cid` lookup. 30 credits per answered request whatever the number of places (spec §4.3) —
 * a lookup the provider has no place for is answered too: 200 with an empty `serp_maps_results` (the contract lists
 * no 404 for this endpoint); 0 when the provider failed or blocked us (500 UPSTREAM_FAILED / UPSTREAM_BLOCKED).
 * `search(principal, params)` is the one entry point, for REST and for MCP tools alike.
 */
import { Inject, Injectable } from '@nestjs/common';
import { CallLifecycle, COSTS, type Caller } from '#billing';
import { TRAWL_CONFIG, type TrawlConfig } from '#config';
import {
  ErrorCode,
  JobName,
  TrawlError,
  parseQuery,
  serpMapsParamsSchema,
  type SerpMapsParams,
  type SerpMapsResponse,
} from '#contracts';
import { selectEngine } from '#contracts';
import { JobDispatcher } from '#queue';
import type { MapsParams } from '#contracts';

/** Time the gateway allows past the worker's own budget (queueing, Nominatim pacing is inside the budget). */
const DEADLINE_MARGIN_MS = 10_000;

@Injectable()
export class SerpMapsService {
  constructor(
    private readonly lifecycle: CallLifecycle,
    private readonly dispatcher: JobDispatcher,
    @Inject(TRAWL_CONFIG) private readonly config: TrawlConfig,
  ) {}

  /** Validates raw query parameters (400 naming the parameter, before anything is charged). */
  parse(query: unknown): SerpMapsParams {
    return parseQuery(serpMapsParamsSchema, query);
  }

  async search(principal: Caller, params: SerpMapsParams): Promise<SerpMapsResponse> {
    const { body } = await this.lifecycle.run(
      principal,
      {
        endpoint: '/serp-maps',
        reserve: COSTS.serpMaps,
        insufficient: ErrorCode.CREDITS_EXHAUSTED,
        deadlineMs: this.config.SERP_TIMEOUT_MS + DEADLINE_MARGIN_MS,
      },
      async (call) => {
        const [outcome] = await this.dispatcher.runAll(
          selectEngine({}).queue,
          JobName.mapsSearch,
          [{ callId: call.callId, provider: this.config.MAPS_PROVIDER, params: mapsParams(params), timeoutMs: this.config.SERP_TIMEOUT_MS }],
          call.deadline,
        );
        if (!outcome.ok) throw new TrawlError(ErrorCode.UPSTREAM_FAILED, `The maps request failed: ${outcome.error.message}`);
        const result = outcome.result;
        if (!result.ok) throw new TrawlError(result.error.code, result.error.message, result.error.kind);
        // The provider answered: no place has the identifier (a lookup never passes off another place as the one asked for).
        const places = result.verdict === 'not_found' ? [] : result.places;
        const body: SerpMapsResponse = { parameters: echo(params), serp_maps_results: places, credits: COSTS.serpMaps };
        return { body, charge: COSTS.serpMaps };
      },
    );
    return body;
  }
}

/** The provider query: `q` goes upstream only in a search (a lookup is by identifier alone). */
function mapsParams(params: SerpMapsParams): MapsParams {
  const query: MapsParams = { q: params.q };
  if (params.hl) query.hl = params.hl;
  if (params.ll) query.ll = params.ll.value;
  if (params.placeId) query.placeId = params.placeId;
  if (params.cid) query.cid = params.cid;
  return query;
}

function echo(params: SerpMapsParams): SerpMapsResponse['parameters'] {
  const parameters: SerpMapsResponse['parameters'] = { q: params.q };
  if (params.hl) parameters.hl = params.hl;
  if (params.ll) parameters.ll = params.ll.text;
  if (params.placeId) parameters.placeId = params.placeId;
  if (params.cid) parameters.cid = params.cid;
  return parameters;
}
