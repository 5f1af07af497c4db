/**
 * Runs one `maps.search` job with the worker's engine: build the provider's search or lookup request, fetch it,
 * parse it into place objects. Google Maps is fetched through the proxy pool, rotating to another proxy when the
 * answer is a captcha / consent / block page, like the SERP handler. Nominatim is paced (the public instance allows
 * 1 request/s for the whole deployment) and never rotated: its blocks enforce a usage policy, not bot detection.
 * A lookup the provider has no place for is a `not_found` value; a block or failure is UPSTREAM_BLOCKED /
 * UPSTREAM_FAILED — never an empty result.
 */
import { ErrorCode, type MapsProviderName, type MapsSearchPayload, type MapsSearchResult, type ProxyProvider } from '#contracts';
import type { MapsProvider } from '#serp/maps/index.js';
import type { PageEngine } from './page-engine.js';
import { proxyFor } from '#fetch';
import { attemptUpstream, fetchUpstream, final, retryable, upstreamFailure } from './upstream-attempts.js';
import type { UpstreamPacer } from './upstream-pacer.js';

export interface MapsPacing {
  pacer: Pick<UpstreamPacer, 'waitTurn'>;
  /** Least time between two Nominatim requests across the deployment; 0 for none. */
  nominatimIntervalMs: number;
}

const NAMES: Record<MapsProviderName, string> = { google: 'Google Maps', osm: 'Nominatim' };

export class MapsJobHandler {
  constructor(
    private readonly providers: Record<MapsProviderName, MapsProvider>,
    private readonly engine: PageEngine,
    private readonly proxies: ProxyProvider | null,
    /** Attempts in all when Google Maps answers with a block page (each through the next proxy). */
    private readonly attempts: number,
    private readonly pacing: MapsPacing,
  ) {}

  async handle(payload: MapsSearchPayload): Promise<MapsSearchResult> {
    const provider = this.providers[payload.provider];
    if (!provider) return upstreamFailure(ErrorCode.UPSTREAM_FAILED, `The maps provider ${payload.provider} is not configured`);
    const name = NAMES[payload.provider];
    const { params } = payload;
    const request = params.placeId || params.cid ? provider.buildLookupRequest(params) : provider.buildSearchRequest(params);
    if ('verdict' in request) return { ok: true, verdict: 'not_found', reason: request.verdict.reason };

    const osm = payload.provider === 'osm';
    const plan = { attempts: osm ? 1 : this.attempts, deadline: Date.now() + payload.timeoutMs, unreachable: `${name} could not be reached` };
    return attemptUpstream<MapsSearchResult>(plan, async () => {
      if (osm && !(await this.pacing.pacer.waitTurn('nominatim', this.pacing.nominatimIntervalMs, plan.deadline))) {
        return final(ErrorCode.UPSTREAM_FAILED, `${name} allows one request per ${this.pacing.nominatimIntervalMs} ms and the queue for it is longer than this request's time budget`);
      }
      const remaining = plan.deadline - Date.now();
      if (remaining <= 0) return final(ErrorCode.UPSTREAM_FAILED, `${name} could not be reached within the request's time budget`);
      const fetched = await fetchUpstream(this.engine, {
        url: request.url,
        headers: request.headers,
        timeoutMs: remaining,
        device: 'desktop',
        acceptLanguage: request.headers['accept-language'] ?? 'en-US,en;q=0.9',
        proxy: osm ? null : proxyFor(this.proxies, null),
        target: 'upstream',
      }, name);
      if (!fetched.ok) return fetched;
      const { page } = fetched;
      if (page.status >= 400) return final(ErrorCode.UPSTREAM_FAILED, `${name} answered HTTP ${page.status}`);
      const parsed = provider.parse(page.html, params);
      switch (parsed.verdict.kind) {
        case 'ok':
          return { ok: true, result: { ok: true, verdict: 'ok', places: parsed.places } };
        case 'not_found':
          return { ok: true, result: { ok: true, verdict: 'not_found', reason: parsed.verdict.reason } };
        case 'blocked':
          return retryable(ErrorCode.UPSTREAM_BLOCKED, `${name} answered with a ${parsed.verdict.reason.replace('_', ' ')} page`
            + (parsed.verdict.detail ? ` (${parsed.verdict.detail})` : ''));
      }
    });
  }
}
