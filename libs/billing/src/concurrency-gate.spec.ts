/**
 * The concurrency gate during a Redis outage: a new call is refused at once with SERVICE_UNAVAILABLE and a
 * finished call's lease is let go without waiting — ioredis would otherwise hold both commands, and the calls with
 * them, until Redis returned (issue #14, test/reliability/faults.e2e.spec.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ErrorCode } from '#contracts';
import { createRedis } from '#platform';
import { pollUntil, within } from '#test/support/poll.js';
import { startPrivateRedis, type PrivateRedis } from '#test/support/private-redis.js';
import { ConcurrencyGate } from './concurrency-gate.js';

let server: PrivateRedis;

beforeAll(async () => {
  server = await startPrivateRedis();
});

afterAll(async () => {
  await server?.close();
});

describe('ConcurrencyGate while Redis is down', () => {
  it('refuses new calls at once with SERVICE_UNAVAILABLE, lets go of leases without waiting, and admits again once Redis is back', async () => {
    const redis = createRedis(server.url, 'gate-spec', { log: { warn: () => undefined } });
    try {
      const gate = new ConcurrencyGate(redis, 'gate-spec', 5_000);
      const lease = await gate.acquire('acc-1', 2);
      expect(lease).not.toBeNull();

      await server.kill();
      await pollUntil(() => redis.status !== 'ready', 'the connection to notice the outage');
      expect(await within(2_000, lease!.release().then(() => 'released'))).toBe('released');
      const refused = await within(2_000, gate.acquire('acc-1', 2).catch((error: unknown) => error));
      expect(refused).toMatchObject({ code: ErrorCode.SERVICE_UNAVAILABLE });

      await server.start();
      await pollUntil(() => redis.status === 'ready', 'the connection to come back', 20_000);
      const again = await gate.acquire('acc-1', 2);
      expect(again).not.toBeNull();
      await again!.release();
    } finally {
      redis.disconnect();
    }
  }, 60_000);
});
