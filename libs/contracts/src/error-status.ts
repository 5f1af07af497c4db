/** The one place where error codes become HTTP statuses (REST responses, the request log, MCP tool results). */
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
  [ErrorCode.UPSTREAM_BLOCKED]: 502,
  [ErrorCode.UPSTREAM_FAILED]: 502,
  [ErrorCode.SERVICE_UNAVAILABLE]: 503,
  [ErrorCode.TIMEOUT]: 504,
};

export function httpStatusOf(code: ErrorCode): number {
  return STATUS[code] ?? 500;
}
