/**
 * Every machine-readable error code Trawl emits, at the HTTP edge and across the queue.
 * The gateway maps a code to an HTTP status in one place (apps/gateway error filter).
 */
export const ErrorCode = {
  // request-level (HTTP)
  UNAUTHORIZED: 'UNAUTHORIZED',
  FORBIDDEN: 'FORBIDDEN',
  ACCOUNT_SUSPENDED: 'ACCOUNT_SUSPENDED',
  SUBSCRIPTION_EXPIRED: 'SUBSCRIPTION_EXPIRED',
  INVALID_PARAMETER: 'INVALID_PARAMETER',
  /** The HTTP request itself is malformed or too large (below any parameter). */
  INVALID_REQUEST: 'INVALID_REQUEST',
  NOT_FOUND: 'NOT_FOUND',
  /** The resource is not in a state that allows the request (cancelling a crawl that already finished). */
  CONFLICT: 'CONFLICT',
  CONCURRENCY_LIMIT: 'CONCURRENCY_LIMIT',
  /** Too many attempts of something bounded per client (console sign-ins). */
  RATE_LIMITED: 'RATE_LIMITED',
  INSUFFICIENT_CREDITS: 'INSUFFICIENT_CREDITS',
  CREDITS_EXHAUSTED: 'CREDITS_EXHAUSTED',
  UPSTREAM_BLOCKED: 'UPSTREAM_BLOCKED',
  UPSTREAM_FAILED: 'UPSTREAM_FAILED',
  SERVICE_UNAVAILABLE: 'SERVICE_UNAVAILABLE',
  INTERNAL: 'INTERNAL',
  /** No headful worker is alive, or its browser (or virtual display) cannot start: HTTP 500, nothing charged. */
  HEADFUL_UNAVAILABLE: 'HEADFUL_UNAVAILABLE',
  // per-URL fetch outcomes (carried in results, never charged)
  INVALID_URL: 'INVALID_URL',
  BLOCKED_ADDRESS: 'BLOCKED_ADDRESS',
  DNS_FAILED: 'DNS_FAILED',
  CONNECTION_FAILED: 'CONNECTION_FAILED',
  TIMEOUT: 'TIMEOUT',
  TOO_LARGE: 'TOO_LARGE',
  TOO_MANY_REDIRECTS: 'TOO_MANY_REDIRECTS',
  UNSUPPORTED_CONTENT: 'UNSUPPORTED_CONTENT',
  PROXY_UNAVAILABLE: 'PROXY_UNAVAILABLE',
  PROXY_FAILED: 'PROXY_FAILED',
  RENDER_FAILED: 'RENDER_FAILED',
  NETWORK_ERROR: 'NETWORK_ERROR',
  /** A page action could not be done (no element matches its selector, an unknown key, a script that threw): never charged. */
  ACTION_FAILED: 'ACTION_FAILED',
  /** A site crawl's URL the site's robots.txt does not allow (never fetched, never charged). */
  ROBOTS_DISALLOWED: 'ROBOTS_DISALLOWED',
  /** A site crawl's URL redirected out of the crawl's scope (another site, an excluded path): the target is not requested. */
  OUT_OF_SCOPE: 'OUT_OF_SCOPE',
  /** A site crawl's page that answered an HTTP error status (4xx, 5xx): not a page of the site, never charged. */
  HTTP_ERROR: 'HTTP_ERROR',
} as const;

export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(ErrorCode, value);
}
