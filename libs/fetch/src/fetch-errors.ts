/**
 * Maps what undici, node:net and node:dns throw onto Trawl's per-URL error codes, with the retry class each
 * deserves (permanent / transient). Messages name the failure, never the proxy URL or its credentials.
 */
import { ErrorCode, TrawlError } from '#contracts';
import { blockedAddressError } from './address-guard.js';
import type { AddressKind } from './ip-address.js';

export interface FailureContext {
  /** The fetch went through a forward proxy: connection-level failures are the proxy's. */
  proxied: boolean;
  /** Our own deadline fired. */
  timedOut: boolean;
  timeoutMs: number;
}

const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EHOSTDOWN',
  'ENETDOWN',
  'ECONNABORTED',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
]);

const TIMEOUT_CODES = new Set(['ETIMEDOUT', 'UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

/** Certificate and handshake failures: the same server will fail the same way next time. */
const TLS_CODE = /^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_|EPROTO$|HOSTNAME_MISMATCH)/;

const PROXY_TUNNEL_STATUS = /^Proxy response \((\d{3})\) !== 200/;

export function timeoutError(timeoutMs: number): TrawlError {
  return new TrawlError(ErrorCode.TIMEOUT, `The fetch did not complete within ${timeoutMs} ms`, 'transient');
}

export function proxyFailedError(detail: string): TrawlError {
  return new TrawlError(ErrorCode.PROXY_FAILED, `The proxy failed: ${detail}`, 'transient');
}

/** Converts any failure during a fetch into a TrawlError. */
export function toFetchError(error: unknown, ctx: FailureContext): TrawlError {
  if (error instanceof TrawlError) return error;
  if (ctx.timedOut) return timeoutError(ctx.timeoutMs);
  const err = (error ?? {}) as NodeJS.ErrnoException & { addressKind?: AddressKind; name?: string };
  const code = typeof err.code === 'string' ? err.code : '';
  const message = typeof err.message === 'string' ? err.message : '';

  if (code === 'ERR_TRAWL_BLOCKED_ADDRESS' && err.addressKind) return blockedAddressError(err.addressKind);

  if (code === 'ERR_TRAWL_PROXY') return proxyFailedError((err as { detail?: string }).detail ?? 'unknown');
  const tunnel = PROXY_TUNNEL_STATUS.exec(message);
  if (tunnel) return proxyFailedError(`it answered ${tunnel[1]} to CONNECT`);
  if (message.includes('Proxy Authentication Required')) return proxyFailedError('authentication required (407)');

  if (err.name === 'TimeoutError' || TIMEOUT_CODES.has(code)) return timeoutError(ctx.timeoutMs);
  if (err.name === 'AbortError' || code === 'UND_ERR_ABORTED' || code === 'ABORT_ERR') {
    return new TrawlError(ErrorCode.NETWORK_ERROR, 'The fetch was aborted', 'transient');
  }

  if (code === 'ENOTFOUND' || code === 'ENODATA' || code === 'EAI_NONAME' || code === 'EAI_NODATA') {
    return new TrawlError(ErrorCode.DNS_FAILED, 'The host name could not be resolved', 'permanent');
  }
  if (code === 'EAI_AGAIN' || code === 'EAI_FAIL' || code === 'ESERVFAIL' || code === 'ETIMEOUT') {
    return new TrawlError(ErrorCode.DNS_FAILED, 'DNS resolution failed temporarily', 'transient');
  }

  if (ctx.proxied && (CONNECTION_CODES.has(code) || code === 'UND_ERR_CONNECT_TIMEOUT')) {
    return proxyFailedError(`connection error (${code})`);
  }
  if (CONNECTION_CODES.has(code)) {
    return new TrawlError(ErrorCode.CONNECTION_FAILED, `The connection failed (${code})`, 'transient');
  }
  if (TLS_CODE.test(code)) {
    return new TrawlError(ErrorCode.CONNECTION_FAILED, `The TLS handshake failed (${code})`, 'permanent');
  }
  if (code.startsWith('HPE_') || code === 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH' || code === 'UND_ERR_HEADERS_OVERFLOW') {
    return new TrawlError(ErrorCode.NETWORK_ERROR, `The server sent a malformed HTTP response (${code})`, 'transient');
  }
  return new TrawlError(ErrorCode.NETWORK_ERROR, code ? `The fetch failed (${code})` : 'The fetch failed', 'transient');
}
