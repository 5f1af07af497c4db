/**
 * robots.txt per origin, fetched once through worker-http (so the SSRF guard applies) and cached in Redis for every
 * crawl and every gateway; one process fetches at a time (a Redis lock), the others wait for its answer. Rules are
 * parsed per product token (RFC 9309) with libs/frontier; a robots.txt that could not be fetched follows the RFC:
 * 4xx allows everything, 5xx and unreachable disallow everything. Unreachable is thrown as `RobotsUnreachable` with
 * the fetch's own error (a refused address, a name that does not resolve, a timeout): the origin's URLs are not
 * crawled, and the crawl's errors say why rather than listing them as disallowed.
 */
import { JobName, QueueName, type FetchResourceResult } from '#contracts';
import { MAX_ROBOTS_BYTES, parseRobots, type RobotsRules } from '#frontier';
import type { JobDispatcher } from '#queue';
import type { CachedRobots, FrontierStore } from './frontier-store.js';

const CACHE_MS = 3_600_000;
const LOCK_MS = 30_000;
const FETCH_TIMEOUT_MS = 15_000;

/** Thrown when another process is fetching the origin's robots.txt: try again shortly. */
export class RobotsPending extends Error {
  constructor(readonly origin: string) {
    super(`robots.txt of ${origin} is being fetched`);
  }
}

/** Thrown when the origin's robots.txt could not be fetched at all: none of its URLs is crawled (RFC 9309). */
export class RobotsUnreachable extends Error {
  constructor(
    readonly origin: string,
    readonly code: string,
    readonly reason: string,
  ) {
    super(`robots.txt of ${origin} could not be fetched (${reason}), so none of its URLs is crawled`);
  }
}

export class RobotsCache {
  /** Parsed rules of this process, for a minute (parsing per page would cost more than the Redis read). */
  private readonly local = new Map<string, { rules: RobotsRules; at: number }>();

  constructor(
    private readonly store: FrontierStore,
    private readonly dispatcher: JobDispatcher,
    private readonly userAgent: string,
  ) {}

  /**
   * The rules for `url`'s origin; fetches robots.txt when no process has. Throws RobotsPending while another does,
   * RobotsUnreachable when it could not be fetched.
   */
  async rulesFor(url: string, callId: string): Promise<RobotsRules> {
    const origin = new URL(url).origin;
    const hit = this.local.get(origin);
    if (hit && Date.now() - hit.at < 60_000) return hit.rules;
    let cached = await this.store.cachedRobots(origin);
    if (!cached) {
      if (!(await this.store.lockRobots(origin, LOCK_MS))) throw new RobotsPending(origin);
      cached = await this.fetch(origin, callId);
      await this.store.cacheRobots(origin, cached, CACHE_MS);
    }
    if (cached.error) throw new RobotsUnreachable(origin, cached.error.code, cached.error.message);
    const rules = parseRobots(`${origin}/robots.txt`, cached.status, cached.body, this.userAgent);
    this.local.set(origin, { rules, at: Date.now() });
    if (this.local.size > 10_000) this.local.delete(this.local.keys().next().value!);
    return rules;
  }

  private async fetch(origin: string, callId: string): Promise<CachedRobots> {
    const [outcome] = await this.dispatcher.runAll(
      QueueName.http,
      JobName.fetchResource,
      [{ callId, url: `${origin}/robots.txt`, maxBytes: MAX_ROBOTS_BYTES, timeoutMs: FETCH_TIMEOUT_MS }],
      Date.now() + FETCH_TIMEOUT_MS + 5_000,
    );
    const result: FetchResourceResult | null = outcome.ok ? outcome.result : null;
    // Unreachable (no answer at all): RFC 9309 says assume complete disallow.
    if (!result?.ok) {
      const error = result ? result.error : outcome.ok ? null : outcome.error.toJSON();
      return { status: null, body: '', error: { code: error?.code ?? 'INTERNAL', message: (error?.message ?? 'no answer').slice(0, 300) } };
    }
    return { status: result.status, body: Buffer.from(result.body, 'base64').toString('utf8') };
  }
}
