/** Retry-After on a 429 (docs/api.md "Status codes"): seconds until the period ends, 3600 when that is unknown. */
import { describe, expect, it } from '@jest/globals';
import { ErrorCode } from '#contracts';
import { retryAfterSeconds } from './error.filter.js';

describe('retryAfterSeconds', () => {
  const now = Date.parse('2026-03-01T12:00:00Z');

  it('is 3600 for CREDITS_EXHAUSTED when the period end is unknown', () => {
    expect(retryAfterSeconds(ErrorCode.CREDITS_EXHAUSTED, undefined, now)).toBe(3600);
  });

  it('counts the seconds until the period ends, rounded up, at least 1', () => {
    expect(retryAfterSeconds(ErrorCode.CREDITS_EXHAUSTED, new Date(now + 90_500), now)).toBe(91);
    expect(retryAfterSeconds(ErrorCode.CREDITS_EXHAUSTED, new Date(now - 5_000), now)).toBe(1);
  });

  it('is 2 s for the concurrency limit and 60 s for rate-limited sign-ins, whatever the period', () => {
    expect(retryAfterSeconds(ErrorCode.CONCURRENCY_LIMIT, new Date(now + 86_400_000), now)).toBe(2);
    expect(retryAfterSeconds(ErrorCode.RATE_LIMITED, undefined, now)).toBe(60);
  });
});
