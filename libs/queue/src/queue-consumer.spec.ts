/**
 * A worker told to stop while Redis is down still stops: BullMQ's close, the heartbeat's last ZREM and the
 * dispatcher's close would otherwise wait in ioredis' offline queue until Redis returns, so a SIGTERM during an
 * outage never ended the process (issue #14, found by test/reliability/faults.e2e.spec.ts).
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { JobName, QueueName } from '#contracts';
import { pollUntil, within } from '#test/support/poll.js';
import { startPrivateRedis, type PrivateRedis } from '#test/support/private-redis.js';
import { JobDispatcher } from './job-dispatcher.js';
import { startQueueConsumer } from './queue-consumer.js';
import { closeUnlessRedisDown, createRedis } from '#platform';
import { WorkerRegistry } from './worker-registry.js';

const quiet = { log: { warn: () => undefined } };
const cleanups: Array<() => Promise<unknown> | unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('closing during a Redis outage', () => {
  it('stops a consumer with a job in hand, its heartbeat and a dispatcher without waiting for Redis to return', async () => {
    const server: PrivateRedis = await startPrivateRedis();
    cleanups.push(() => server.close());
    const prefix = `consumer-spec-${randomUUID().slice(0, 8)}`;
    const redis = createRedis(server.url, 'consumer-spec', quiet);
    // Once only: a second disconnect() arms ioredis' 2 s destroy timer on a socket that has closed already, which
    // kept Jest's worker from exiting.
    let disconnected = false;
    const disconnect = (): void => {
      if (!disconnected) redis.disconnect();
      disconnected = true;
    };
    cleanups.push(disconnect);
    let release: () => void = () => undefined;
    let inHand = false;
    const consumer = startQueueConsumer({
      redis,
      prefix,
      registry: new WorkerRegistry(redis, prefix),
      kind: 'worker-http',
      queue: QueueName.http,
      handlers: {
        // The job in hand cannot finish while Redis is down: its result has nowhere to go.
        [JobName.crawlPage]: (payload) =>
          new Promise((resolve) => {
            inHand = true;
            release = () => resolve({ ok: true, url: payload.url, finalUrl: payload.url, status_code: 200 });
          }),
      },
      concurrency: 1,
      lockMs: 5_000,
      onError: () => undefined,
    });
    cleanups.push(() => release());
    const dispatcher = new JobDispatcher(redis, prefix, { attempts: 1, backoffMs: 0 });
    const base = { callId: randomUUID(), device: 'desktop' as const, formats: { raw_html: false, enhanced_html: false, markdown: false, page_text: false }, timeoutMs: 1000 };
    const waiting = dispatcher.runAll(QueueName.http, JobName.crawlPage, [{ ...base, url: 'https://a.example/' }], Date.now() + 5_000);
    await pollUntil(() => inHand, 'the worker to take the job');

    await server.kill();
    await pollUntil(() => redis.status !== 'ready', 'the connection to notice the outage');
    // A new call is refused at once rather than held until Redis returns.
    await expect(within(2_000, dispatcher.runAll(QueueName.http, JobName.crawlPage, [{ ...base, url: 'https://b.example/' }], Date.now() + 60_000))).rejects.toMatchObject({
      code: 'SERVICE_UNAVAILABLE',
    });
    expect(await within(10_000, consumer.close().then(() => 'closed'))).toBe('closed');
    expect(await within(10_000, dispatcher.close().then(() => 'closed'))).toBe('closed');
    expect(await within(10_000, closeUnlessRedisDown(redis, () => redis.quit(), disconnect))).toBe('abandoned');
    // The call that was waiting for the job ends at its deadline, as a TIMEOUT: nothing is left pending.
    const [outcome] = await waiting;
    expect(outcome).toMatchObject({ ok: false, error: { code: 'TIMEOUT' } });
  }, 60_000);

  it('closes gracefully, waiting for the work, while Redis is up', async () => {
    const server = await startPrivateRedis();
    cleanups.push(() => server.close());
    const redis = createRedis(server.url, 'consumer-spec-up', quiet);
    cleanups.push(() => redis.status !== 'end' && redis.disconnect());
    await redis.ping();
    expect(await closeUnlessRedisDown(redis, () => redis.quit(), () => redis.disconnect())).toBe('closed');
    await pollUntil(() => redis.status === 'end', 'the connection to end');
  });
});
