/**
 * Maps what Playwright/Chromium and the guard proxy report onto Trawl's per-URL error codes and retry classes.
 * Messages never carry proxy URLs or credentials (Chromium's net errors name only the target URL).
 */
import { ErrorCode, TrawlError, type ErrorKind } from '#contracts';
import { describeAddressKind, type AddressKind } from '#fetch/ip-address.js';
import type { GuardFailure } from './guard-proxy.js';

export interface RenderFailureContext {
  /** The renderer process of the job's page crashed. */
  pageCrashed: boolean;
  /** The browser disconnected (killed, crashed or closed) during the job. */
  browserGone: boolean;
  /** What the guard proxy met on the host of the last main-frame request, if it refused or failed. */
  guardFailure?: GuardFailure;
  /** The job used an upstream proxy. */
  proxied: boolean;
  /** The page's renderer or the whole browser was killed (or died) for going past its memory limit. */
  outOfMemory?: OutOfMemory;
}

export interface OutOfMemory {
  scope: 'page' | 'browser';
  limitMb: number;
}

const fail = (code: ErrorCode, message: string, kind: ErrorKind): TrawlError => new TrawlError(code, message, kind);

export function blockedAddress(kind: AddressKind | undefined): TrawlError {
  const what = kind ? describeAddressKind(kind) : 'a refused address';
  return fail(ErrorCode.BLOCKED_ADDRESS, `Refused to render: the target is ${what}`, 'permanent');
}

export function renderFailed(detail: string): TrawlError {
  return fail(ErrorCode.RENDER_FAILED, `Rendering failed: ${detail}`, 'transient');
}

export function renderTimeout(detail: string): TrawlError {
  return fail(ErrorCode.TIMEOUT, detail, 'transient');
}

/** A failure the guard proxy recorded, as the error the user should see. */
export function fromGuardFailure(failure: GuardFailure): TrawlError {
  switch (failure.kind) {
    case 'blocked':
      return blockedAddress(failure.addressKind);
    case 'dns':
      return dnsFailed(failure.detail);
    case 'proxy':
      return fail(ErrorCode.PROXY_FAILED, `The proxy failed (${failure.detail})`, 'transient');
    case 'connect':
      return fail(ErrorCode.CONNECTION_FAILED, `The connection failed (${failure.detail})`, 'transient');
  }
}

export function dnsFailed(code: string): TrawlError {
  const permanent = code === 'ENOTFOUND' || code === 'ENODATA' || code === 'EAI_NONAME' || code === 'EAI_NODATA';
  return permanent
    ? fail(ErrorCode.DNS_FAILED, 'The host name could not be resolved', 'permanent')
    : fail(ErrorCode.DNS_FAILED, `DNS resolution failed (${code})`, 'transient');
}

const PROXY_NET_ERRORS = new Set([
  'ERR_PROXY_CONNECTION_FAILED', 'ERR_PROXY_AUTH_UNSUPPORTED', 'ERR_PROXY_AUTH_REQUESTED', 'ERR_NO_SUPPORTED_PROXIES',
  'ERR_PROXY_CERTIFICATE_INVALID', 'ERR_TUNNEL_CONNECTION_FAILED', 'ERR_HTTPS_PROXY_TUNNEL_RESPONSE_REDIRECT',
  'ERR_MANDATORY_PROXY_CONFIGURATION_FAILED', 'ERR_SOCKS_CONNECTION_FAILED', 'ERR_PROXY_HTTP_1_1_REQUIRED',
]);

const CONNECTION_NET_ERRORS = new Set([
  'ERR_CONNECTION_REFUSED', 'ERR_CONNECTION_RESET', 'ERR_CONNECTION_CLOSED', 'ERR_CONNECTION_ABORTED',
  'ERR_CONNECTION_FAILED', 'ERR_ADDRESS_UNREACHABLE', 'ERR_EMPTY_RESPONSE', 'ERR_NETWORK_CHANGED',
  'ERR_INTERNET_DISCONNECTED', 'ERR_NETWORK_ACCESS_DENIED', 'ERR_HTTP2_PROTOCOL_ERROR', 'ERR_QUIC_PROTOCOL_ERROR',
]);

/** Chromium's net error name in a Playwright message, e.g. `page.goto: net::ERR_CONNECTION_REFUSED at http://…`. */
export function netErrorName(message: string): string | null {
  return /net::(ERR_[A-Z0-9_]+)/.exec(message)?.[1] ?? null;
}

function fromNetError(name: string): TrawlError {
  if (name === 'ERR_NAME_NOT_RESOLVED') return dnsFailed('ENOTFOUND');
  if (name === 'ERR_NAME_RESOLUTION_FAILED') return dnsFailed('EAI_AGAIN');
  if (PROXY_NET_ERRORS.has(name)) return fail(ErrorCode.PROXY_FAILED, `The proxy failed (${name})`, 'transient');
  if (CONNECTION_NET_ERRORS.has(name)) return fail(ErrorCode.CONNECTION_FAILED, `The connection failed (${name})`, 'transient');
  if (name === 'ERR_TIMED_OUT' || name === 'ERR_CONNECTION_TIMED_OUT') return renderTimeout(`The connection timed out (${name})`);
  if (name === 'ERR_TOO_MANY_REDIRECTS') return fail(ErrorCode.TOO_MANY_REDIRECTS, 'Too many redirects', 'permanent');
  if (name === 'ERR_UNSAFE_PORT') return fail(ErrorCode.BLOCKED_ADDRESS, 'Refused to render: the port is blocked by the browser', 'permanent');
  if (name === 'ERR_INVALID_URL' || name === 'ERR_DISALLOWED_URL_SCHEME') return fail(ErrorCode.INVALID_URL, 'The URL is not valid', 'permanent');
  if (/^ERR_(CERT|SSL)_/.test(name)) return fail(ErrorCode.CONNECTION_FAILED, `The TLS handshake failed (${name})`, 'permanent');
  // A navigation that turns into a download or an empty (204) response is aborted by the browser.
  if (name === 'ERR_ABORTED') return fail(ErrorCode.UNSUPPORTED_CONTENT, 'The navigation did not produce a page (download or empty response)', 'permanent');
  if (name === 'ERR_INSUFFICIENT_RESOURCES' || name === 'ERR_OUT_OF_MEMORY') return renderFailed(`the browser ran out of resources (${name})`);
  return fail(ErrorCode.NETWORK_ERROR, `The page could not be loaded (${name})`, 'transient');
}

/** A main-frame navigation that failed, as Playwright reports it (`errorText` like `net::ERR_CONNECTION_REFUSED`). */
export interface FailedNavigation {
  url: string;
  errorText: string;
}

/**
 * The error of a page that navigated itself (a script, a meta refresh) to an address that failed: the tab then shows
 * Chromium's error page, which is no content of the site's and must not be returned (or charged) as the page. The
 * guard's refusal of that address comes first, then Chromium's net error.
 */
export function failedNavigation(nav: FailedNavigation | undefined, guard: { failureFor(host: string): GuardFailure | undefined }): TrawlError {
  let host: string | undefined;
  try {
    host = nav ? new URL(nav.url).hostname : undefined;
  } catch {
    host = undefined;
  }
  const refused = host ? guard.failureFor(host) : undefined;
  if (refused) return fromGuardFailure(refused);
  const net = nav ? netErrorName(nav.errorText) : null;
  if (net) return fromNetError(net);
  return renderFailed('the page navigated to an address that could not be loaded');
}

const CLOSED = /Target page, context or browser has been closed|Browser has been closed|browser has disconnected|Target closed|Connection closed/i;

/** Converts anything thrown during a render job into a TrawlError. */
export function toRenderError(error: unknown, ctx: RenderFailureContext): TrawlError {
  const memory = ctx.outOfMemory;
  // The page itself went past its limit: another attempt would only do it again.
  if (memory?.scope === 'page' && ctx.pageCrashed) {
    return fail(ErrorCode.TOO_LARGE, `The page used more than ${memory.limitMb} MiB of memory`, 'permanent');
  }
  // Which page of several drove the whole browser past its limit is not known: each of them may be tried again.
  // The pool killed the browser: whatever this job saw of it (a closed page, a lost connection) came from that.
  if (memory?.scope === 'browser') {
    return renderFailed(`the browser went past its ${memory.limitMb} MiB memory limit and was restarted`);
  }
  if (error instanceof TrawlError) return error;
  const message = error instanceof Error ? error.message : String(error);
  const name = error instanceof Error ? error.name : '';
  if (ctx.pageCrashed || /Page crashed|Target crashed/.test(message)) return renderFailed('the page crashed');
  if (ctx.browserGone || CLOSED.test(message)) return renderFailed('the browser closed during the job');
  if (ctx.guardFailure) return fromGuardFailure(ctx.guardFailure);
  const net = netErrorName(message);
  if (net) return fromNetError(net);
  if (message.includes('Download is starting')) {
    return fail(ErrorCode.UNSUPPORTED_CONTENT, 'The URL is a download, not a page', 'permanent');
  }
  if (name === 'TimeoutError') return renderTimeout('The navigation did not commit within the job budget');
  return renderFailed(message.split('\n')[0].slice(0, 200));
}
