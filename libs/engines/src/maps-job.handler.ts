/**
 * Runs one `maps.search` job with the worker's engine: build the provider's search or lookup request, fetch it,
 * parse it into place objects. Google Maps is fetched through the proxy pool, rotating to another proxy when the
 * answer is a captcha / consent / block page, like the SERP handler. Nominatim is paced (the public instance allows
 * 1 request/s for the whole deployment) and never rotated: its blocks enforce a usage policy, not bot detection.
 * A lookup the provider has no place for is a `not_found` value; a block or failure is UPSTREAM_BLOCKED /
 * UPSTREAM_FAILED — never an empty result.
 */
import { ErrorCode, TrawlError, type MapsProviderName, type MapsSearchPayload, type MapsSearchResult, type ProxyProvider } from '#contracts';
import type { MapsProvider } from '#serp/maps/index.js';
import type { PageEngine } from './page-engine.js';
import type { UpstreamPacer } from './upstream-pacer.js';

export interface MapsPacing {
  pacer: UpstreamPacer;
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
    if (!provider) return failure(ErrorCode.UPSTREAM_FAILED, `The maps provider ${payload.provider} is not configured`);
    const name = NAMES[payload.provider];
    const query = payload.query;
    const request = query.placeId || query.cid ? provider.buildLookupRequest(query) : provider.buildSearchRequest(query);
    if ('verdict' in request) return { ok: true, verdict: 'not_found', reason: request.verdict.reason };

    const osm = payload.provider === 'osm';
    const attempts = osm ? 1 : this.attempts;
    const deadline = Date.now() + payload.timeoutMs;
    let last: MapsSearchResult = failure(ErrorCode.UPSTREAM_FAILED, `${name} could not be reached`);
    for (let attempt = 1; attempt <= attempts; attempt++) {
      if (osm && !(await this.pacing.pacer.waitTurn('nominatim', this.pacing.nominatimIntervalMs, deadline))) {
        return failure(ErrorCode.UPSTREAM_FAILED, `${name} allows one request per ${this.pacing.nominatimIntervalMs} ms and the queue for it is longer than this request's time budget`);
      }
      const remaining = deadline - Date.now();
      if (remaining <= 0) break;
      let page: { status: number; html: string };
      try {
        page = await this.engine.fetchPage({
          url: request.url,
          headers: request.headers,
          timeoutMs: remaining,
          device: 'desktop',
          acceptLanguage: request.headers['accept-language'] ?? 'en-US,en;q=0.9',
          proxy: osm ? null : (this.proxies?.next('*') ?? null),
          target: 'upstream',
        });
      } catch (error) {
        const e = TrawlError.from(error);
        last = failure(ErrorCode.UPSTREAM_FAILED, `${name} could not be reached (${e.code})`);
        if (!e.retryable) break;
        continue;
      }
      if (page.status === 429 || page.status === 403) {
        last = failure(ErrorCode.UPSTREAM_BLOCKED, `${name} refused the request (HTTP ${page.status})`);
        continue;
      }
      if (page.status >= 400) {
        last = failure(ErrorCode.UPSTREAM_FAILED, `${name} answered HTTP ${page.status}`);
        if (page.status >= 500) continue;
        break;
      }
      const parsed = provider.parse(page.html, query);
      switch (parsed.verdict.kind) {
        case 'ok':
          return { ok: true, verdict: 'ok', places: parsed.places };
        case 'not_found':
          return { ok: true, verdict: 'not_found', reason: parsed.verdict.reason };
        case 'blocked':
          last = failure(ErrorCode.UPSTREAM_BLOCKED, `${name} answered with a ${parsed.verdict.reason.replace('_', ' ')} page`
            + (parsed.verdict.detail ? ` (${parsed.verdict.detail})` : ''));
          continue;
      }
    }
    return last;
  }
}

function failure(code: ErrorCode, message: string): MapsSearchResult {
  return { ok: false, error: { code, message, kind: code === ErrorCode.UPSTREAM_BLOCKED ? 'blocked' : 'transient' } };
}
