import { describe, expect, it } from '@jest/globals';
import { fromPendingEntry, pendingEntry } from './crawl-data.js';

describe('pending entries', () => {
  const base = { crawlId: 'c1', hash: 'h1', depth: 2 };

  it('keep an admitted URL once (it is its own key) and give back the same data', () => {
    const data = { ...base, url: 'https://a.example/docs/getting-started', key: 'https://a.example/docs/getting-started', hops: 1 };
    const entry = pendingEntry(data);
    expect(entry).toBe('{"url":"https://a.example/docs/getting-started","depth":2,"hops":1}');
    expect(fromPendingEntry('c1', 'h1', entry)).toEqual(data);
  });

  it('keep a key that differs from the URL, and read entries written with both', () => {
    const data = { ...base, url: 'https://a.example/Docs/', key: 'https://a.example/docs/' };
    expect(fromPendingEntry('c1', 'h1', pendingEntry(data))).toEqual(data);
    const written = '{"url":"https://a.example/x","key":"https://a.example/x","depth":2}';
    expect(fromPendingEntry('c1', 'h1', written)).toEqual({ ...base, url: 'https://a.example/x', key: 'https://a.example/x' });
  });
});
