import { describe, expect, it } from '@jest/globals';
import { ErrorCode, TrawlError } from '#contracts';
import { toFetchError } from './fetch-errors.js';

const direct = { proxied: false, timedOut: false, timeoutMs: 1000 };
const proxied = { ...direct, proxied: true };
const errno = (code: string, message = code) => Object.assign(new Error(message), { code });

describe('toFetchError', () => {
  it.each([
    [errno('ECONNREFUSED'), direct, ErrorCode.CONNECTION_FAILED, 'transient'],
    [errno('ECONNRESET'), direct, ErrorCode.CONNECTION_FAILED, 'transient'],
    [errno('UND_ERR_SOCKET'), direct, ErrorCode.CONNECTION_FAILED, 'transient'],
    [errno('ECONNREFUSED'), proxied, ErrorCode.PROXY_FAILED, 'transient'],
    [errno('ERR_TRAWL_PROXY'), proxied, ErrorCode.PROXY_FAILED, 'transient'],
    [errno('UND_ERR_ABORTED', 'Proxy response (502) !== 200 when HTTP Tunneling'), proxied, ErrorCode.PROXY_FAILED, 'transient'],
    [errno('ENOTFOUND'), direct, ErrorCode.DNS_FAILED, 'permanent'],
    [errno('EAI_AGAIN'), direct, ErrorCode.DNS_FAILED, 'transient'],
    [errno('UND_ERR_HEADERS_TIMEOUT'), direct, ErrorCode.TIMEOUT, 'transient'],
    [errno('UND_ERR_CONNECT_TIMEOUT'), direct, ErrorCode.TIMEOUT, 'transient'],
    [errno('ECONNRESET'), { ...direct, timedOut: true }, ErrorCode.TIMEOUT, 'transient'], // our deadline caused it
    [errno('CERT_HAS_EXPIRED'), direct, ErrorCode.CONNECTION_FAILED, 'permanent'],
    [errno('ERR_SSL_WRONG_VERSION_NUMBER'), direct, ErrorCode.CONNECTION_FAILED, 'permanent'],
    [errno('HPE_INVALID_CONSTANT'), direct, ErrorCode.NETWORK_ERROR, 'transient'],
    [Object.assign(errno('ERR_TRAWL_BLOCKED_ADDRESS'), { addressKind: 'private' }), direct, ErrorCode.BLOCKED_ADDRESS, 'permanent'],
    [new Error('something odd'), direct, ErrorCode.NETWORK_ERROR, 'transient'],
    ['not even an error', direct, ErrorCode.NETWORK_ERROR, 'transient'],
  ])('%p → %s', (error, ctx, code, kind) => {
    const mapped = toFetchError(error, ctx);
    expect(mapped).toBeInstanceOf(TrawlError);
    expect(mapped.code).toBe(code);
    expect(mapped.kind).toBe(kind);
  });

  it('passes TrawlErrors through unchanged', () => {
    const original = new TrawlError(ErrorCode.TOO_LARGE, 'too big');
    expect(toFetchError(original, { ...direct, timedOut: true })).toBe(original);
  });
});
