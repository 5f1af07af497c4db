// Chromium/Playwright failures → Trawl error codes and retry classes.
import { describe, expect, it } from '@jest/globals';
import { ErrorCode } from '#contracts';
import { toRenderError, type RenderFailureContext } from './render-errors.js';

const quiet: RenderFailureContext = { pageCrashed: false, browserGone: false, proxied: false };
const navError = (net: string): Error => new Error(`page.goto: net::${net} at http://example.test/\nCall log: …`);

describe('toRenderError', () => {
  it.each([
    ['ERR_CONNECTION_REFUSED', ErrorCode.CONNECTION_FAILED, 'transient'],
    ['ERR_NAME_NOT_RESOLVED', ErrorCode.DNS_FAILED, 'permanent'],
    ['ERR_PROXY_CONNECTION_FAILED', ErrorCode.PROXY_FAILED, 'transient'],
    ['ERR_TUNNEL_CONNECTION_FAILED', ErrorCode.PROXY_FAILED, 'transient'],
    ['ERR_TOO_MANY_REDIRECTS', ErrorCode.TOO_MANY_REDIRECTS, 'permanent'],
    ['ERR_TIMED_OUT', ErrorCode.TIMEOUT, 'transient'],
    ['ERR_SSL_PROTOCOL_ERROR', ErrorCode.CONNECTION_FAILED, 'permanent'],
    ['ERR_ABORTED', ErrorCode.UNSUPPORTED_CONTENT, 'permanent'],
    ['ERR_SOMETHING_NEW', ErrorCode.NETWORK_ERROR, 'transient'],
  ])('maps net::%s to %s (%s)', (net, code, kind) => {
    const error = toRenderError(navError(net), quiet);
    expect(error.code).toBe(code);
    expect(error.kind).toBe(kind);
  });

  it('reports a crashed page or a vanished browser as a transient RENDER_FAILED, whatever the message says', () => {
    expect(toRenderError(navError('ERR_ABORTED'), { ...quiet, pageCrashed: true }).code).toBe(ErrorCode.RENDER_FAILED);
    const closed = toRenderError(new Error('page.content: Target page, context or browser has been closed'), quiet);
    expect(closed.code).toBe(ErrorCode.RENDER_FAILED);
    expect(closed.kind).toBe('transient');
  });

  it("prefers the guard proxy's own account of a failed tunnel", () => {
    const blocked = toRenderError(navError('ERR_TUNNEL_CONNECTION_FAILED'), { ...quiet, guardFailure: { kind: 'blocked', addressKind: 'metadata', detail: 'metadata' } });
    expect(blocked.code).toBe(ErrorCode.BLOCKED_ADDRESS);
    expect(blocked.message).toContain('metadata');
    const refused = toRenderError(navError('ERR_TUNNEL_CONNECTION_FAILED'), { ...quiet, guardFailure: { kind: 'connect', detail: 'ECONNREFUSED' } });
    expect(refused.code).toBe(ErrorCode.CONNECTION_FAILED);
  });

  it('maps a Playwright timeout to a transient TIMEOUT', () => {
    const timeout = Object.assign(new Error('page.goto: Timeout 100ms exceeded.'), { name: 'TimeoutError' });
    expect(toRenderError(timeout, quiet)).toMatchObject({ code: ErrorCode.TIMEOUT, kind: 'transient' });
  });
});
