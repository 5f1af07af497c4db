/** The deployment-wide pacer over real Redis: turns are spaced by the interval, and a turn past the deadline is refused. */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { TEST_REDIS_URL } from '#test/support/env.js';
import { RedisUpstreamPacer } from './upstream-pacer.js';

let redis: Redis;
let other: Redis;
const prefix = `trawl-test-pacer-${randomUUID().slice(0, 8)}`;

beforeAll(() => {
  redis = new Redis(TEST_REDIS_URL);
  other = new Redis(TEST_REDIS_URL);
});

afterAll(async () => {
  const keys = await redis.keys(`${prefix}:*`);
  if (keys.length > 0) await redis.del(...keys);
  redis.disconnect();
  other.disconnect();
});

describe('RedisUpstreamPacer', () => {
  it('spaces turns taken at once by two "processes": the last of four waits at least three intervals', async () => {
    const pacers = [new RedisUpstreamPacer(redis, prefix), new RedisUpstreamPacer(other, prefix)];
    const started = Date.now();
    const deadline = started + 10_000;
    const times = await Promise.all(
      Array.from({ length: 4 }, (_, i) => pacers[i % 2].waitTurn('spaced', 150, deadline).then((ok) => (expect(ok).toBe(true), Date.now()))),
    );
    // Slots are handed out one interval apart: the fourth cannot start before three intervals have passed, however
    // late a loaded machine runs the timers (wall-clock gaps between two callers are not a guarantee, slot times are).
    expect(Math.max(...times) - started).toBeGreaterThanOrEqual(3 * 150 - 1);
    const nextFree = Number(await redis.get(`${prefix}:pace:spaced`));
    expect(nextFree - started).toBeGreaterThanOrEqual(4 * 150);
  });

  it('refuses, without waiting or taking the slot, a turn that would come after the deadline', async () => {
    const pacer = new RedisUpstreamPacer(redis, prefix);
    expect(await pacer.waitTurn('busy', 60_000, Date.now() + 1_000)).toBe(true);
    const started = Date.now();
    expect(await pacer.waitTurn('busy', 60_000, Date.now() + 1_000)).toBe(false);
    expect(Date.now() - started).toBeLessThan(500);
    // The refused call did not push the next slot further out.
    const next = Number(await redis.get(`${prefix}:pace:busy`));
    expect(next - Date.now()).toBeLessThanOrEqual(60_000 + 25);
  });

  it('takes one turn on several keys: the request waits for the latest and each key counts its next turn from then', async () => {
    const pacer = new RedisUpstreamPacer(redis, prefix);
    const started = Date.now();
    // The crawl's own key is busy for 300 ms more; the host's key is free.
    expect(await pacer.waitTurns([{ key: 'own', intervalMs: 300 }], started + 10_000, 0)).toBe(true);
    expect(await pacer.waitTurns([{ key: 'host', intervalMs: 100 }, { key: 'own', intervalMs: 300 }], started + 10_000, 0)).toBe(true);
    expect(Date.now() - started).toBeGreaterThanOrEqual(300 - 1);
    const [host, own] = (await redis.mget(`${prefix}:pace:host`, `${prefix}:pace:own`)).map(Number);
    expect(own - host).toBe(200);
    expect(host - started).toBeGreaterThanOrEqual(400);
  });

  it('does not pace at all with a zero interval (a self-hosted Nominatim)', async () => {
    const pacer = new RedisUpstreamPacer(redis, prefix);
    for (let i = 0; i < 3; i++) expect(await pacer.waitTurn('free', 0, Date.now())).toBe(true);
    expect(await redis.exists(`${prefix}:pace:free`)).toBe(0);
  });
});
