import { describe, expect, it } from '@jest/globals';
import { callDetailOf } from './call-detail.js';

describe('callDetailOf', () => {
  it('keeps each URL with its status or error, and nothing else', () => {
    const detail = callDetailOf([
      { url: 'https://a.example/', status_code: 200, markdown: '# big', raw_html: '<html>' } as never,
      { url: 'https://b.example/', error: 'TIMEOUT: took too long' },
    ]);
    expect(detail).toEqual({ urls: [{ url: 'https://a.example/', status_code: 200 }, { url: 'https://b.example/', error: 'TIMEOUT: took too long' }] });
  });

  it('is bounded: 100 URLs, long URLs and errors cut, the rest counted', () => {
    const many = Array.from({ length: 250 }, (_, i) => ({ url: `https://a.example/${'x'.repeat(1000)}${i}`, error: 'E'.repeat(1000) }));
    const detail = callDetailOf(many);
    expect(detail.urls).toHaveLength(100);
    expect(detail.more).toBe(150);
    expect(detail.urls[0].url).toHaveLength(500);
    expect(detail.urls[0].error).toHaveLength(300);
    expect(JSON.stringify(detail).length).toBeLessThan(100 * 900);
  });
});
