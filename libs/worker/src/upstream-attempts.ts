/**
 * The retry loop every upstream job shares (SERP pages, `/search` pages, Google Maps): fetch, judge the answer, and
 * when it is not an honest one (a block page, a 5xx, a transient network failure) try again through the next proxy —
 * until an attempt succeeds, one fails for good, the attempts run out or the job's deadline passes. What stays
 * failed is a value (`UPSTREAM_BLOCKED` / `UPSTREAM_FAILED`), never an empty success.
 */
import { ErrorCode, TrawlError, type SerializedError } from '#contracts';
import type { FetchedPage, PageEngine, PageRequest } from './page-engine.js';

/** The failure half every upstream job result shares. */
export interface UpstreamFailure {
  ok: false;
  error: SerializedError;
}

/** One attempt's outcome: the job's result, or a failure and whether another proxy may do better. */
export type Attempt<R> = { ok: true; result: R } | FailedAttempt;
export interface FailedAttempt {
  ok: false;
  failure: UpstreamFailure;
  retry: boolean;
}

export function upstreamFailure(code: ErrorCode, message: string): UpstreamFailure {
  return { ok: false, error: { code, message, kind: code === ErrorCode.UPSTREAM_BLOCKED ? 'blocked' : 'transient' } };
}

/** A failure worth another attempt through the next proxy. */
export function retryable(code: ErrorCode, message: string): FailedAttempt {
  return { ok: false, failure: upstreamFailure(code, message), retry: true };
}

/** A failure no other proxy can change. */
export function final(code: ErrorCode, message: string): FailedAttempt {
  return { ok: false, failure: upstreamFailure(code, message), retry: false };
}

export interface AttemptPlan {
  attempts: number;
  /** Epoch ms: no attempt starts after it. */
  deadline: number;
  /** The failure when no attempt got to run. */
  unreachable: string;
}

/** Runs `attempt(n, remainingMs)` until one succeeds or fails for good, the attempts run out or the deadline passes. */
export async function attemptUpstream<R>(
  plan: AttemptPlan,
  attempt: (n: number, remainingMs: number) => Promise<Attempt<R>>,
): Promise<R | UpstreamFailure> {
  let last = upstreamFailure(ErrorCode.UPSTREAM_FAILED, plan.unreachable);
  for (let n = 1; n <= plan.attempts; n++) {
    const remaining = plan.deadline - Date.now();
    if (remaining <= 0) break;
    const outcome = await attempt(n, remaining);
    if (outcome.ok) return outcome.result;
    last = outcome.failure;
    if (!outcome.retry) break;
  }
  return last;
}

/**
 * Fetches an upstream page and judges its status: 429/403 are a refusal (`UPSTREAM_BLOCKED`), 5xx and a network
 * failure a transient `UPSTREAM_FAILED` — each retried through the next proxy — and a permanent fetch error ends
 * the job. Other statuses are the caller's to judge (an engine's 404 may be its "no results" page).
 */
export async function fetchUpstream(
  engine: PageEngine,
  request: PageRequest,
  name: string,
): Promise<{ ok: true; page: FetchedPage } | FailedAttempt> {
  let page: FetchedPage;
  try {
    page = await engine.fetchPage(request);
  } catch (error) {
    const e = TrawlError.from(error);
    const message = `${name} could not be reached (${e.code})`;
    return e.retryable ? retryable(ErrorCode.UPSTREAM_FAILED, message) : final(ErrorCode.UPSTREAM_FAILED, message);
  }
  if (page.status === 429 || page.status === 403) return retryable(ErrorCode.UPSTREAM_BLOCKED, `${name} refused the request (HTTP ${page.status})`);
  if (page.status >= 500) return retryable(ErrorCode.UPSTREAM_FAILED, `${name} answered HTTP ${page.status}`);
  return { ok: true, page };
}
