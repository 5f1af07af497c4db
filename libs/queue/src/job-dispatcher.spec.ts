/** Finished job records have a bounded lifetime even when nobody reads them (their gateway died). */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { Queue } from 'bullmq';
import { JobName, QueueName, TrawlError } from '#contracts';
import { deleteKeys } from '#test/support/harness.js';
import { TEST_REDIS_URL } from '#test/support/env.js';
import { pollUntil } from '#test/support/poll.js';
import { JobDispatcher } from './job-dispatcher.js';
import { startJobWorker } from './job-worker.js';
import { createRedis } from '#platform';

const prefix = `trawl-test-${randomUUID().slice(0, 8)}`;
const redis = createRedis(TEST_REDIS_URL, 'dispatcher-spec');
let dispatcher: JobDispatcher;

beforeAll(() => {
  dispatcher = new JobDispatcher(redis, prefix, { attempts: 1, backoffMs: 0 });
});

afterAll(async () => {
  await dispatcher.close();
  await deleteKeys(redis, `${prefix}:*`);
  redis.disconnect();
});

describe('JobDispatcher.clean', () => {
  it('removes completed and failed job records that no waiter read', async () => {
    const worker = startJobWorker(redis, prefix, QueueName.http, {
      [JobName.crawlPage]: async (payload) => {
        if (payload.url.endsWith('/fail')) throw new TrawlError('INVALID_URL', 'no', 'permanent');
        return { ok: true, url: payload.url, finalUrl: payload.url, status_code: 200 };
      },
    }, { concurrency: 2, lockMs: 5_000 });
    // Jobs added as an abandoned gateway would have: finished, never read.
    const queue = new Queue(QueueName.http, { connection: redis, prefix });
    const base = { callId: randomUUID(), device: 'desktop' as const, formats: { raw_html: false, enhanced_html: false, markdown: false, page_text: false }, timeoutMs: 1000 };
    await queue.add(JobName.crawlPage, { ...base, url: 'https://a.example/ok' });
    await queue.add(JobName.crawlPage, { ...base, url: 'https://a.example/fail' });
    await pollUntil(async () => {
      const counts = await queue.getJobCounts('completed', 'failed');
      return counts.completed === 1 && counts.failed === 1;
    }, 'both jobs to finish');
    expect(await dispatcher.clean(0, 0)).toBe(2);
    expect(await queue.getJobCounts('completed', 'failed')).toEqual({ completed: 0, failed: 0 });
    const jobKeys = (await redis.keys(`${prefix}:${QueueName.http}:*`)).filter((k) => /:\d+$/.test(k));
    expect(jobKeys).toEqual([]);
    await worker.close();
    await queue.close();
  });
});
