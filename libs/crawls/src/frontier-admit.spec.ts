/** Admitting URLs on real Redis: the trap cap counts the URLs of a pattern several can share, and only those. */
import { afterAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { createRedis } from '#platform';
import { trapPattern, urlHash } from '#frontier';
import { deleteKeys } from '#test/support/harness.js';
import { TEST_REDIS_URL } from '#test/support/env.js';
import { FrontierStore } from './frontier-store.js';

const prefix = `trawl-admit-${randomUUID().slice(0, 8)}`;
const redis = createRedis(TEST_REDIS_URL, 'admit-spec');
const store = new FrontierStore(redis, prefix);

afterAll(async () => {
  await deleteKeys(redis, `${prefix}:*`);
  redis.disconnect();
});

const candidate = (url: string) => ({ hash: urlHash(url), host: new URL(url).host, shape: trapPattern(url), entry: url });

describe('FrontierStore.admit', () => {
  it('refuses URLs of one pattern past the cap, admits every URL that is its own pattern, and keeps no count of those', async () => {
    const id = randomUUID();
    await store.init(id, 1000, 4, 0);
    const days = ['2024/05/01', '2024/05/02', '2024/05/03', '2024/05/04'].map((d) => `http://a.test/calendar/${d}`);
    const slugs = ['getting-started', 'install', 'configure', 'upgrade'].map((s) => `http://a.test/docs/${s}`);
    expect(await store.admit(id, 1000, 2, [...days, ...slugs].map(candidate))).toEqual([
      'admitted', 'admitted', 'trap', 'trap',
      'admitted', 'admitted', 'admitted', 'admitted',
    ]);
    // The same pattern on another host has a count of its own.
    expect(await store.admit(id, 1000, 2, [candidate('http://b.test/calendar/2024/05/01')])).toEqual(['admitted']);
    const shapes = await redis.hgetall(`${prefix}:crawl:{${id}}:shapes`);
    expect(shapes).toEqual({ 'a.test/calendar/{n}/{n}/{n}': '2', 'b.test/calendar/{n}/{n}/{n}': '1' });
  });
});
