/** Admitting URLs on real Redis: the seen-set, and the trap cap that counts the URLs of a pattern several can share. */
import { afterAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { createRedis } from '#platform';
import { trapPattern, urlHash } from '#frontier';
import { deleteKeys } from '#test/support/harness.js';
import { TEST_REDIS_URL } from '#test/support/env.js';
import { FrontierStore, frontierSizes } from './frontier-store.js';

const prefix = `trawl-admit-${randomUUID().slice(0, 8)}`;
const redis = createRedis(TEST_REDIS_URL, 'admit-spec');
const store = new FrontierStore(redis, prefix, { shapeCap: 2, pendingMax: 10_000 });

afterAll(async () => {
  await deleteKeys(redis, `${prefix}:*`);
  redis.disconnect();
});

const candidate = (url: string) => ({ hash: urlHash(url), host: new URL(url).host, shape: trapPattern(url), entry: url });

describe('FrontierStore.admit', () => {
  it('refuses URLs of one pattern past the cap, per host, admits every URL that is its own pattern, and counts none of those', async () => {
    const id = await started(1000);
    const slugs = ['getting-started', 'install', 'configure', 'upgrade'].map((s) => `http://a.test/docs/${s}`);
    expect((await store.admit(id, 1000, 2, slugs.map(candidate))).outcomes).toEqual(['admitted', 'admitted', 'admitted', 'admitted']);
    // URLs that are their own pattern leave the shape sketch untouched (not even allocated).
    expect(await redis.exists(`${prefix}:crawl:{${id}}:shapes`)).toBe(0);
    const days = ['2024/05/01', '2024/05/02', '2024/05/03', '2024/05/04'].map((d) => `http://a.test/calendar/${d}`);
    expect((await store.admit(id, 1000, 2, days.map(candidate))).outcomes).toEqual(['admitted', 'admitted', 'trap', 'trap']);
    // The same pattern on another host has a count of its own.
    expect((await store.admit(id, 1000, 2, [candidate('http://b.test/calendar/2024/05/01')])).outcomes).toEqual(['admitted']);
  });

  it('admits each of 20,000 distinct URLs once, whatever the order they come in, and none twice', async () => {
    const id = await started(10_000);
    const urls = Array.from({ length: 20_000 }, (_, i) => `http://c.test/item-${i.toString(36)}`);
    let admitted = 0;
    for (let i = 0; i < urls.length; i += 500) {
      const { outcomes } = await store.admit(id, 1_000_000, 0, urls.slice(i, i + 500).map((u) => ({ ...candidate(u), shape: '' })));
      admitted += outcomes.filter((o) => o === 'admitted').length;
    }
    // The Bloom filter is sized for 30,100 URLs at 10⁻⁶: a false "seen" among 20,000 would be a defect, not luck.
    expect(admitted).toBe(20_000);
    const again = await store.admit(id, 1_000_000, 0, urls.slice(0, 500).map((u) => ({ ...candidate(u), shape: '' })));
    expect(again.outcomes.every((o) => o === 'seen')).toBe(true);
    expect(await store.markSeen(id, urlHash('http://c.test/item-0'))).toBe(false);
    expect(await store.markSeen(id, urlHash('http://c.test/elsewhere'))).toBe(true);
    expect(await store.markSeen(id, urlHash('http://c.test/elsewhere'))).toBe(false);
  });

  it('holds the seen-set in memory fixed by the crawl limit, whatever it has seen', async () => {
    const id = await started(10_000);
    await store.admit(id, 1_000_000, 0, [candidate('http://d.test/one')]);
    const first = await store.seenBytes(id);
    for (let i = 0; i < 5_000; i += 500) {
      await store.admit(id, 1_000_000, 0, Array.from({ length: 500 }, (_, j) => ({ ...candidate(`http://d.test/p/${i + j}`), shape: '' })));
    }
    expect(await store.seenBytes(id)).toBe(first);
    // ~3.6 bytes for each of the 30,100 URLs a crawl of 10,000 pages may admit.
    expect(first).toBeGreaterThanOrEqual(frontierSizes(10_000, 2).m / 8);
    expect(first).toBeLessThan((frontierSizes(10_000, 2).m / 8) * 1.1);
  });
});

describe('a crawl an older version started', () => {
  it('is given this version\'s seen-set and trap counts at its first admission, and its old ones go', async () => {
    const id = randomUUID();
    const key = (name: string) => `${prefix}:crawl:{${id}}:${name}`;
    // As the version before the Bloom filter left it: sharded sets of hashes, trap counts in a hash.
    await redis.hset(key('meta'), 'limit', 100, 'admitted', 1, 'cap', 4, 'gap', 0, 'shards', 2, 'touched', Date.now());
    await redis.sadd(key('seen:0'), '12345');
    await redis.sadd(key('seen:1'), '67890');
    await redis.hset(key('shapes'), 'a.test/calendar/{n}/{n}/{n}', 1);
    const days = ['2024/05/01', '2024/05/02', '2024/05/03'].map((d) => `http://a.test/calendar/${d}`);
    expect((await store.admit(id, 1000, 2, days.map(candidate))).outcomes).toEqual(['admitted', 'admitted', 'trap']);
    expect(await store.markSeen(id, urlHash(days[0]!))).toBe(false);
    expect(await redis.exists(key('seen:0'), key('seen:1'))).toBe(0);
    expect(await redis.type(key('shapes'))).toBe('string');
    expect(await redis.hget(key('meta'), 'shards')).toBeNull();
    await store.clear(id);
    expect(await redis.exists(key('seen'), key('shapes'), key('pending'))).toBe(0);
  });
});

async function started(limit: number): Promise<string> {
  const id = randomUUID();
  await store.init(id, limit, 4, 0);
  return id;
}
