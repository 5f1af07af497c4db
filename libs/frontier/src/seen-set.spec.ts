import { describe, expect, it } from '@jest/globals';
import { urlHash } from './seen-set.js';

describe('urlHash', () => {
  it('is a stable 64-bit hash, 11 base64url characters', () => {
    const h = urlHash('https://example.com/a');
    expect(h).toMatch(/^[A-Za-z0-9_-]{11}$/);
    expect(Buffer.from(h, 'base64url')).toHaveLength(8);
    expect(urlHash('https://example.com/a')).toBe(h);
    expect(urlHash('https://example.com/b')).not.toBe(h);
  });

  it('does not collide over 100k realistic keys', () => {
    const hashes = new Set(Array.from({ length: 100_000 }, (_, i) => urlHash(`https://shop.example.com/category-${i % 97}/item-${i}?color=${i % 7}`)));
    expect(hashes.size).toBe(100_000);
  });
});
