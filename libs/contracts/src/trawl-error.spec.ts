import { describe, expect, it } from '@jest/globals';
import { ErrorCode, TrawlError, acceptLanguage, isCountryCode } from './index.js';

describe('TrawlError', () => {
  it('survives serialization across the queue with code, message and kind', () => {
    const original = new TrawlError(ErrorCode.TIMEOUT, 'Timed out after 5000 ms', 'transient');
    const copy = TrawlError.deserialize(original.serialize());
    expect(copy).toBeInstanceOf(TrawlError);
    expect(copy.toJSON()).toEqual({ code: 'TIMEOUT', message: 'Timed out after 5000 ms', kind: 'transient' });
    expect(copy.retryable).toBe(true);
  });

  it('turns an unknown failure into a generic INTERNAL error without leaking its text', () => {
    const copy = TrawlError.from(new Error('password=hunter2 at db'));
    expect(copy.code).toBe('INTERNAL');
    expect(copy.message).not.toContain('hunter2');
    expect(TrawlError.deserialize('trawl-error:{bad json').code).toBe('INTERNAL');
  });
});

describe('country and language helpers', () => {
  it('knows ISO 3166-1 alpha-2 codes in either case', () => {
    expect(isCountryCode('de')).toBe(true);
    expect(isCountryCode('GB')).toBe(true);
    expect(isCountryCode('xx')).toBe(false);
    expect(isCountryCode('uk')).toBe(false);
  });
  it('builds an Accept-Language header', () => {
    expect(acceptLanguage('de', 'de')).toBe('de-DE,de;q=0.9,en;q=0.8');
    expect(acceptLanguage('en')).toBe('en');
  });
});
