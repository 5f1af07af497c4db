/**
 * The local lane: jobs a dispatcher hands to a worker of its own process, without the queue (a site crawl's pages in
 * `npm start`'s process). On real Redis: which jobs go past the queue and which through it, the queue's retry rules
 * kept, and a closing worker waiting for the lane's jobs.
 */
import { afterAll, afterEach, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { ErrorCode, JobName, QueueName, TrawlError, type CrawlPagePayload, type CrawlPageResult } from '#contracts';
import { deleteKeys } from '#test/support/harness.js';
import { TEST_REDIS_URL } from '#test/support/env.js';
import { JobDispatcher } from './job-dispatcher.js';
import { startJobWorker, type JobWorker } from './job-worker.js';
import type { JobAttempt } from './local-lane.js';
import { createRedis } from '#platform';

const prefix = `trawl-lane-${randomUUID().slice(0, 8)}`;
const redis = createRedis(TEST_REDIS_URL, 'lane-spec');
const cleanups: Array<() => Promise<unknown>> = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

afterAll(async () => {
  await deleteKeys(redis, `${prefix}:*`);
  redis.disconnect();
});

const page = (url: string): CrawlPagePayload => ({
  callId: randomUUID(),
  url,
  device: 'desktop',
  formats: { raw_html: false, enhanced_html: false, markdown: false, page_text: false },
  timeoutMs: 5_000,
});

function dispatcher(attempts = 1): JobDispatcher {
  const d = new JobDispatcher(redis, prefix, { attempts, backoffMs: 10 });
  cleanups.push(() => d.close());
  return d;
}

function worker(handle: (payload: CrawlPagePayload, job: JobAttempt) => Promise<CrawlPageResult>, options: { lane: boolean; concurrency?: number }): JobWorker {
  const w = startJobWorker(redis, prefix, QueueName.http, { [JobName.crawlPage]: handle }, { concurrency: options.concurrency ?? 4, lockMs: 5_000, lane: options.lane });
  cleanups.push(() => w.close());
  return w;
}

/** Job ids the queue has been given (BullMQ's `added` events). */
async function added(): Promise<string[]> {
  const events = await redis.xrange(`${prefix}:${QueueName.http}:events`, '-', '+');
  const fields = events.map(([, f]) => new Map(Array.from({ length: f.length / 2 }, (_, i) => [f[2 * i]!, f[2 * i + 1]!])));
  return fields.filter((e) => e.get('event') === 'added').map((e) => e.get('jobId')!);
}

const ok = async (payload: CrawlPagePayload) => ({ ok: true as const, url: payload.url, finalUrl: payload.url, status_code: 200 });

describe('the local lane', () => {
  it('runs a local job in this process without the queue, and others through the queue', async () => {
    const seen: number[] = [];
    worker(async (payload, job) => (seen.push(job.attemptsMade), ok(payload)), { lane: true });
    const d = dispatcher();
    const before = (await added()).length;
    const [local] = await d.runAll(QueueName.http, JobName.crawlPage, [page('https://a.example/1')], Date.now() + 5_000, { local: true });
    expect(local).toMatchObject({ ok: true, result: { ok: true, finalUrl: 'https://a.example/1' } });
    expect((await added()).length).toBe(before);
    // Not asked for the lane: the queue, as every synchronous call goes.
    const [queued] = await d.runAll(QueueName.http, JobName.crawlPage, [page('https://a.example/2')], Date.now() + 5_000);
    expect(queued).toMatchObject({ ok: true });
    expect((await added()).length).toBe(before + 1);
    expect(seen).toEqual([0, 0]);
  });

  it('goes through the queue when no worker of this process offers the lane, or when the lane is full', async () => {
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    worker(async (payload) => (payload.url.endsWith('/hold') ? held.then(() => ok(payload)) : ok(payload)), { lane: true, concurrency: 1 });
    const d = dispatcher();
    const before = (await added()).length;
    const holding = d.runAll(QueueName.http, JobName.crawlPage, [page('https://a.example/hold')], Date.now() + 5_000, { local: true });
    // The lane's one place is taken: this one goes to the queue, and its BullMQ worker runs it.
    const [second] = await d.runAll(QueueName.http, JobName.crawlPage, [page('https://a.example/next')], Date.now() + 5_000, { local: true });
    expect(second).toMatchObject({ ok: true, result: { finalUrl: 'https://a.example/next' } });
    expect((await added()).length).toBe(before + 1);
    release();
    expect((await holding)[0]).toMatchObject({ ok: true });
  });

  it('keeps the queue rules: a transient error is run again with its attempt count, a permanent one is not', async () => {
    const attempts: Record<string, number[]> = {};
    worker(async (payload, job) => {
      (attempts[payload.url] ??= []).push(job.attemptsMade);
      if (payload.url.endsWith('/flaky') && job.attemptsMade < 2) throw new TrawlError(ErrorCode.UPSTREAM_FAILED, 'reset', 'transient');
      if (payload.url.endsWith('/bad')) throw new TrawlError(ErrorCode.INVALID_URL, 'no', 'permanent');
      return ok(payload);
    }, { lane: true });
    const d = dispatcher(3);
    const [flaky, bad] = await d.runAll(QueueName.http, JobName.crawlPage, [page('https://a.example/flaky'), page('https://a.example/bad')], Date.now() + 5_000, { local: true });
    expect(flaky).toMatchObject({ ok: true });
    expect(bad.ok).toBe(false);
    expect(!bad.ok && bad.error.code).toBe(ErrorCode.INVALID_URL);
    expect(attempts).toEqual({ 'https://a.example/flaky': [0, 1, 2], 'https://a.example/bad': [0] });
  });

  it('answers TIMEOUT at the deadline, and a closing worker waits for the jobs its lane runs', async () => {
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    let finished = false;
    const w = worker(async (payload) => {
      await held;
      finished = true;
      return ok(payload);
    }, { lane: true });
    const d = dispatcher();
    const [late] = await d.runAll(QueueName.http, JobName.crawlPage, [page('https://a.example/slow')], Date.now() + 50, { local: true });
    expect(!late.ok && late.error.code).toBe(ErrorCode.TIMEOUT);
    const closing = w.close();
    let closed = false;
    void closing.then(() => (closed = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(closed).toBe(false);
    release();
    await closing;
    expect(finished).toBe(true);
    // Withdrawn: the next local job goes to the queue (and waits there, no worker left) until its deadline.
    const before = (await added()).length;
    const [after] = await d.runAll(QueueName.http, JobName.crawlPage, [page('https://a.example/after')], Date.now() + 100, { local: true });
    expect(!after.ok && after.error.code).toBe(ErrorCode.TIMEOUT);
    expect((await added()).length).toBe(before + 1);
  });
});
