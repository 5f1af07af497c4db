/**
 * The one place where error codes become HTTP statuses (REST responses, the request log, MCP tool results).
 *
 * Every failure on the server's side — a search engine that blocked or failed us (UPSTREAM_BLOCKED, UPSTREAM_FAILED),
 * Postgres or Redis unreachable (SERVICE_UNAVAILABLE, with Retry-After), a call out of time (TIMEOUT), a bug
 * (INTERNAL) — is a 500, the one status the contract lists for them ("internal server error"), with the code saying
 * which: never a 502, 503 or 504 that a client written against the contract does not know.
 */
import { ErrorCode } from './error-codes.js';

const STATUS: Partial<Record<ErrorCode, number>> = {
  [ErrorCode.UNAUTHORIZED]: 401,
  [ErrorCode.FORBIDDEN]: 403,
  [ErrorCode.ACCOUNT_SUSPENDED]: 403,
  [ErrorCode.SUBSCRIPTION_EXPIRED]: 403,
  [ErrorCode.INVALID_PARAMETER]: 400,
  [ErrorCode.INVALID_REQUEST]: 400,
  [ErrorCode.NOT_FOUND]: 404,
  [ErrorCode.CONFLICT]: 409,
  [ErrorCode.CONCURRENCY_LIMIT]: 429,
  [ErrorCode.RATE_LIMITED]: 429,
  [ErrorCode.CREDITS_EXHAUSTED]: 429,
  [ErrorCode.INSUFFICIENT_CREDITS]: 402,
};

export function httpStatusOf(code: ErrorCode): number {
  return STATUS[code] ?? 500;
}
