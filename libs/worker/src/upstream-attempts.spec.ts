/** The shared upstream retry loop: retry through the next proxy on blocks and transient failures, stop on final ones. */
import { describe, expect, it } from '@jest/globals';
import { ErrorCode, TrawlError } from '#contracts';
import type { FetchedPage, PageEngine } from './page-engine.js';
import { attemptUpstream, fetchUpstream, final, retryable } from './upstream-attempts.js';

const plan = (attempts: number, deadline = Date.now() + 60_000) => ({ attempts, deadline, unreachable: 'nobody answered' });

describe('attemptUpstream', () => {
  it('tries again after a retryable failure and returns the first success', async () => {
    const seen: number[] = [];
    const result = await attemptUpstream(plan(3), async (n) => {
      seen.push(n);
      return n < 2 ? retryable(ErrorCode.UPSTREAM_BLOCKED, 'captcha') : { ok: true, result: 'page' };
    });
    expect(result).toBe('page');
    expect(seen).toEqual([1, 2]);
  });

  it('stops at a final failure and returns it', async () => {
    let calls = 0;
    const result = await attemptUpstream(plan(5), async () => {
      calls++;
      return final(ErrorCode.UPSTREAM_FAILED, 'bad request');
    });
    expect(calls).toBe(1);
    expect(result).toEqual({ ok: false, error: { code: ErrorCode.UPSTREAM_FAILED, message: 'bad request', kind: 'transient' } });
  });

  it('returns the last failure when the attempts run out, blocked kept as blocked', async () => {
    const result = await attemptUpstream(plan(3), async (n) => retryable(ErrorCode.UPSTREAM_BLOCKED, `captcha ${n}`));
    expect(result).toEqual({ ok: false, error: { code: ErrorCode.UPSTREAM_BLOCKED, message: 'captcha 3', kind: 'blocked' } });
  });

  it('starts no attempt past the deadline', async () => {
    let calls = 0;
    const result = await attemptUpstream(plan(3, Date.now() - 1), async () => {
      calls++;
      return { ok: true, result: 'never' };
    });
    expect(calls).toBe(0);
    expect(result).toMatchObject({ ok: false, error: { code: ErrorCode.UPSTREAM_FAILED, message: 'nobody answered' } });
  });
});

describe('fetchUpstream', () => {
  const engineAnswering = (answer: () => Promise<FetchedPage>): PageEngine => ({ fetchPage: answer } as unknown as PageEngine);
  const request = { url: 'https://search.example/', timeoutMs: 1000, device: 'desktop' as const, acceptLanguage: 'en', proxy: null, target: 'upstream' as const };
  const page = (status: number): FetchedPage => ({ finalUrl: 'https://search.example/', status, html: '<p>x</p>' });

  it.each([
    [429, ErrorCode.UPSTREAM_BLOCKED],
    [403, ErrorCode.UPSTREAM_BLOCKED],
    [503, ErrorCode.UPSTREAM_FAILED],
  ] as const)('HTTP %i is a retryable %s', async (status, code) => {
    const outcome = await fetchUpstream(engineAnswering(async () => page(status)), request, 'The engine');
    expect(outcome).toMatchObject({ ok: false, retry: true, failure: { error: { code } } });
  });

  it('hands other statuses to the caller', async () => {
    expect(await fetchUpstream(engineAnswering(async () => page(404)), request, 'The engine')).toEqual({ ok: true, page: page(404) });
  });

  it('retries a transient fetch error and gives up on a permanent one', async () => {
    const transient = await fetchUpstream(engineAnswering(async () => { throw new TrawlError(ErrorCode.UPSTREAM_FAILED, 'reset', 'transient'); }), request, 'The engine');
    expect(transient).toMatchObject({ ok: false, retry: true, failure: { error: { message: `The engine could not be reached (${ErrorCode.UPSTREAM_FAILED})` } } });
    const permanent = await fetchUpstream(engineAnswering(async () => { throw new TrawlError(ErrorCode.INVALID_URL, 'refused', 'permanent'); }), request, 'The engine');
    expect(permanent).toMatchObject({ ok: false, retry: false });
  });
});
