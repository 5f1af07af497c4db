/** Job outcomes reach the gateway that waits for them through its inbox: once, after the job's last attempt. */
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { JobName, QueueName, TrawlError, type JobResult } from '#contracts';
import { deleteKeys } from '#test/support/harness.js';
import { TEST_REDIS_URL } from '#test/support/env.js';
import { pollUntil } from '#test/support/poll.js';
import { JobDispatcher } from './job-dispatcher.js';
import { startJobWorker, type JobWorker } from './job-worker.js';
import { createRedis } from '#platform';
import { INBOX_TTL_MS, inboxKey, replyGateway, sendReply } from './reply-channel.js';

const prefix = `trawl-test-${randomUUID().slice(0, 8)}`;
const redis = createRedis(TEST_REDIS_URL, 'reply-spec');
const base = { callId: randomUUID(), device: 'desktop' as const, formats: { raw_html: false, enhanced_html: false, markdown: false, page_text: false }, timeoutMs: 1000 };
const page = (url: string): JobResult<typeof JobName.crawlPage> => ({ ok: true, url, finalUrl: url, status_code: 200 });
let dispatcher: JobDispatcher;
let worker: JobWorker | undefined;
/** Attempts each URL's handler has seen. */
const attempts = new Map<string, number>();

afterEach(async () => {
  await worker?.close();
  worker = undefined;
  attempts.clear();
});

afterAll(async () => {
  await deleteKeys(redis, `${prefix}:*`);
  redis.disconnect();
});

function startWorker(handle: (url: string, attempt: number) => Promise<JobResult<typeof JobName.crawlPage>>): void {
  worker = startJobWorker(redis, prefix, QueueName.http, {
    [JobName.crawlPage]: async (payload) => {
      const attempt = (attempts.get(payload.url) ?? 0) + 1;
      attempts.set(payload.url, attempt);
      return handle(payload.url, attempt);
    },
  }, { concurrency: 4, lockMs: 5_000 });
}

/** Replies sitting in gateway inboxes on Redis, not yet read. */
async function inboxDepth(): Promise<number> {
  let depth = 0;
  for (const inbox of await redis.keys(`${prefix}:inbox:*`)) depth += await redis.llen(inbox);
  return depth;
}

const run = (urls: string[], deadlineMs = 10_000) =>
  dispatcher.runAll(QueueName.http, JobName.crawlPage, urls.map((url) => ({ ...base, url })), Date.now() + deadlineMs);

// A worker in the gateway's own process hands outcomes over directly; one in another process (simulated here by a
// dispatcher that does not take them directly) goes through the gateway's Redis list. Same rules either way.
describe.each([
  ['through the gateway\'s Redis list', false],
  ['in-process, to a gateway of the same process', true],
])('the reply channel (%s)', (_name, localReplies) => {
  /** Replies pushed onto Redis lists so far. */
  let pushes = 0;
  const monitor = createRedis(TEST_REDIS_URL, 'reply-spec-monitor');
  /** MONITOR runs on a connection of its own, closed with the others. */
  let feed: Awaited<ReturnType<typeof monitor.monitor>> | undefined;

  beforeAll(async () => {
    dispatcher = new JobDispatcher(redis, prefix, { attempts: 2, backoffMs: 10, localReplies });
    feed = await monitor.monitor();
    feed.on('monitor', (_time: string, args: string[]) => {
      if (args.some((arg) => arg.startsWith(`${prefix}:inbox:`)) && /^eval(sha)?$/i.test(args[0] ?? '')) pushes++;
    });
  });

  afterAll(async () => {
    await dispatcher.close();
    feed?.disconnect();
    monitor.disconnect();
  });

  it('delivers each result to its waiter, in the order asked, and leaves no job record behind', async () => {
    startWorker(async (url) => page(url));
    const urls = Array.from({ length: 20 }, (_, i) => `https://a.example/${i}`);
    const before = pushes;
    const outcomes = await run(urls);
    expect(outcomes.map((o) => (o.ok ? o.result.url : o.error.code))).toEqual(urls);
    // The reply goes out just before BullMQ marks the job done; then its record is removed, not kept as completed.
    await pollUntil(async () => (await dispatcher.counts(QueueName.http)).active === 0, 'the jobs to be marked done');
    expect(await dispatcher.counts(QueueName.http)).toMatchObject({ completed: 0, active: 0, waiting: 0 });
    // A result for a gateway of this process is never written to Redis.
    if (localReplies) expect(pushes - before).toBe(0);
    else await pollUntil(async () => pushes - before >= urls.length, 'every reply to be seen on its way through Redis');
  });

  it('replies once, after the retry, when a transient failure is followed by success', async () => {
    startWorker(async (url, attempt) => {
      if (attempt === 1) throw new TrawlError('UPSTREAM_FAILED', 'flaky', 'transient');
      return page(url);
    });
    const [outcome] = await run(['https://b.example/flaky']);
    expect(outcome).toMatchObject({ ok: true, result: { url: 'https://b.example/flaky' } });
    expect(attempts.get('https://b.example/flaky')).toBe(2);
  });

  it('replies with the error of the last attempt, and at once for a permanent one', async () => {
    startWorker(async (url) => {
      if (url.endsWith('/permanent')) throw new TrawlError('INVALID_URL', 'no such page', 'permanent');
      throw new TrawlError('UPSTREAM_FAILED', 'still down', 'transient');
    });
    const [permanent, transient] = await run(['https://c.example/permanent', 'https://c.example/transient']);
    expect(permanent).toMatchObject({ ok: false, error: { code: 'INVALID_URL', message: 'no such page' } });
    expect(attempts.get('https://c.example/permanent')).toBe(1);
    expect(transient).toMatchObject({ ok: false, error: { code: 'UPSTREAM_FAILED', message: 'still down' } });
    expect(attempts.get('https://c.example/transient')).toBe(2);
  });

  it('ends a waiter at its deadline with TIMEOUT and drops the late reply', async () => {
    let release = (): void => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    startWorker(async (url) => {
      await released;
      return page(url);
    });
    const before = pushes;
    const [outcome] = await run(['https://d.example/slow'], 300);
    expect(outcome).toMatchObject({ ok: false, error: { code: 'TIMEOUT' } });
    expect(dispatcher.waiting).toBe(0); // nobody waits for it any more
    release();
    // The late reply is sent, arrives and is dropped: no waiter is resolved or left behind, nothing stays in the inbox.
    await pollUntil(async () => (await dispatcher.counts(QueueName.http)).active === 0, 'the late job to finish');
    if (!localReplies) {
      await pollUntil(async () => pushes > before, 'the late reply on its way through Redis');
      await pollUntil(async () => (await inboxDepth()) === 0, 'the inbox to be read');
    }
    expect(dispatcher.waiting).toBe(0);
    // The next call still gets its own.
    const [next] = await run(['https://d.example/next']);
    expect(next).toMatchObject({ ok: true, result: { url: 'https://d.example/next' } });
  });

  it('tells the gateway at once when its job is given up because the workers running it kept stopping', async () => {
    const url = 'https://f.example/kills-its-worker';
    const outcome = run([url], 60_000);
    // Three "worker processes" die while on the job: a forced close stops renewing its lock, as a killed process
    // would. Each time the next worker takes the job back once its lock has expired.
    for (let death = 1; death <= 3; death++) {
      let taken = (): void => undefined;
      const onJob = new Promise<void>((resolve) => (taken = resolve));
      const dying = startJobWorker(redis, prefix, QueueName.http, {
        [JobName.crawlPage]: async () => {
          attempts.set(url, (attempts.get(url) ?? 0) + 1);
          taken();
          return new Promise<never>(() => undefined);
        },
      }, { concurrency: 1, lockMs: 1_000 });
      await onJob;
      await dying.worker.close(true);
    }
    // The next worker fails the job without running it, and the waiting call learns it long before its deadline.
    startWorker(async (u) => page(u));
    const started = Date.now();
    const [result] = await outcome;
    expect(result).toMatchObject({ ok: false, error: { code: 'INTERNAL', message: expect.stringContaining('given up') } });
    expect(attempts.get(url)).toBe(3);
    expect(Date.now() - started).toBeLessThan(30_000);
  }, 60_000);

  it('gives the inbox of a gateway that died a TTL, so its replies do not stay for good', async () => {
    const dead = 'deadbeefdeadbeef';
    await sendReply(redis, prefix, `r.${dead}.1`, { ok: true, result: page('https://e.example/') });
    const ttl = await redis.pttl(inboxKey(prefix, dead));
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(INBOX_TTL_MS);
    // Jobs added by anything else (no gateway in the id) expect no reply.
    expect(replyGateway('42')).toBeNull();
    await sendReply(redis, prefix, '42', { ok: true, result: null });
    expect(await redis.keys(`${prefix}:inbox:*`)).toEqual([inboxKey(prefix, dead)]);
  });
});
