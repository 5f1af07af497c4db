/** The page cache's key: one per page and content-changing option set, none for a job with its own headers. */
import { describe, expect, it } from '@jest/globals';
import { EngineId, type CrawlPagePayload } from '#contracts';
import { canonicalJson, pageCacheKey } from './page-cache-key.js';

const job = (over: Partial<CrawlPagePayload> = {}): CrawlPagePayload => ({
  callId: 'call-1',
  accountId: 'acc-1',
  url: 'https://example.com/a?b=2&a=1',
  device: 'desktop',
  formats: { raw_html: false, enhanced_html: true, markdown: true, page_text: false },
  timeoutMs: 30_000,
  ...over,
});

describe('pageCacheKey', () => {
  it('is the same for another call, account, timeout or spelling of the URL', () => {
    const key = pageCacheKey(job(), EngineId.http);
    expect(key).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(pageCacheKey(job({ callId: 'call-2', accountId: 'acc-2', timeoutMs: 5_000 }), EngineId.http)).toBe(key);
    expect(pageCacheKey(job({ url: 'https://EXAMPLE.com:443/a?a=1&utm_source=x&b=2#top' }), EngineId.http)).toBe(key);
    // An option given as false asks for the same page as one not given.
    expect(pageCacheKey(job({ screenshot: false, geolocation: undefined }), EngineId.http)).toBe(key);
  });

  it('differs by engine and by every option that changes the content', () => {
    const key = pageCacheKey(job(), EngineId.http);
    const others = [
      pageCacheKey(job(), EngineId.chromium),
      pageCacheKey(job({ url: 'https://example.com/a?a=1&b=3' }), EngineId.http),
      pageCacheKey(job({ formats: { raw_html: false, enhanced_html: true, markdown: true, page_text: true } }), EngineId.http),
      pageCacheKey(job({ device: 'mobile' }), EngineId.http),
      pageCacheKey(job({ geolocation: 'de' }), EngineId.http),
      pageCacheKey(job({ screenshot: true }), EngineId.http),
      pageCacheKey(job({ scope: { exclude: ['nav'] } }), EngineId.http),
      pageCacheKey(job({ chunks: { query: 'nets', perPage: 5 } }), EngineId.http),
      pageCacheKey(job({ chunks: { query: 'nets', perPage: 6 } }), EngineId.http),
      pageCacheKey(job({ waitForMs: 500 }), EngineId.http),
    ];
    expect(new Set([key, ...others]).size).toBe(others.length + 1);
  });

  it('is none for a job that sends its own headers (cookies included): never cached', () => {
    expect(pageCacheKey(job({ headers: { cookie: 'session=1' } }), EngineId.http)).toBeNull();
    expect(pageCacheKey(job({ headers: {} }), EngineId.http)).toBe(pageCacheKey(job(), EngineId.http));
  });

  it('writes equal option sets alike whatever their key order', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { y: 2, x: true }], c: null } })).toBe('{"a":{"d":[1,{"x":true,"y":2}]},"b":1}');
  });
});
