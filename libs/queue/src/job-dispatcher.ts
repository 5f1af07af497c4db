/**
 * The producer side of the queue: enqueue typed jobs and await their results with a deadline.
 * A job's outcome is a value: its typed result, or the TrawlError that ended it (timeouts included). Outcomes come
 * back through this gateway's own inbox (reply-channel.ts), not the queue's event stream.
 */
import { randomBytes } from 'node:crypto';
import { Queue, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import { ErrorCode, QueueName, TrawlError, type JobName, type JobPayload, type JobResult } from '#contracts';
import { assertRedisUp, closeUnlessRedisDown } from '#platform';
import { runInLane } from './local-lane.js';
import { ReplyInbox, type Reply } from './reply-channel.js';

export type JobOutcome<N extends JobName> = { ok: true; result: JobResult<N> } | { ok: false; error: TrawlError };

export interface DispatchOptions {
  attempts: number;
  backoffMs: number;
  /**
   * Take outcomes from workers of this process directly instead of through Redis (reply-channel.ts). Default true;
   * false is for tests of the Redis path.
   */
  localReplies?: boolean;
}

/** How long a failed job's record is kept for inspection (completed ones are removed at once: their reply is sent). */
export const FAILED_KEEP_MS = 3_600_000;
/** How long a finished job's record may outlive its waiter in `clean` (records from before replies, or added by hand). */
export const COMPLETED_KEEP_MS = 300_000;

export class JobDispatcher {
  private readonly queues = new Map<QueueName, Queue>();
  private readonly inbox: ReplyInbox;

  constructor(
    private readonly connection: Redis,
    private readonly prefix: string,
    private readonly options: DispatchOptions,
  ) {
    this.inbox = new ReplyInbox(connection, prefix, randomBytes(8).toString('hex'), options.localReplies ?? true);
  }

  /**
   * Enqueues one job per payload and waits for all of them until `deadline` (epoch ms). Order is preserved.
   * `local`: a worker of this process may run them without the queue while it has room (local-lane.ts) — for jobs
   * whose caller survives no process death anyway and keeps its own record of what is left (a crawl's frontier).
   */
  async runAll<N extends JobName>(queueName: QueueName, name: N, payloads: JobPayload<N>[], deadline: number, options: { local?: boolean } = {}): Promise<JobOutcome<N>[]> {
    if (options.local) {
      const retry = { attempts: this.options.attempts, backoffMs: this.options.backoffMs, deadline };
      const inLane = payloads.map((payload) => runInLane(this.prefix, queueName, name, payload, retry));
      if (inLane.some((job) => job !== null)) {
        const rest = payloads.filter((_, i) => inLane[i] === null);
        const queued = rest.length > 0 ? await this.runAll(queueName, name, rest, deadline) : [];
        let next = 0;
        return Promise.all(inLane.map((job) => (job ? this.awaitReply<N>(job, deadline) : queued[next++]!)));
      }
    }
    assertRedisUp(this.connection);
    const queue = this.open(queueName);
    const ids = payloads.map(() => this.inbox.nextJobId());
    // Waiting starts before the jobs exist: a fast worker may reply before addBulk returns.
    const waits = ids.map((id) => this.inbox.expect(id));
    const opts = (jobId: string) => ({
      jobId,
      attempts: this.options.attempts,
      backoff: { type: 'exponential' as const, delay: this.options.backoffMs },
      removeOnComplete: true,
      removeOnFail: { age: FAILED_KEEP_MS / 1000 },
    });
    let jobs: Job[];
    try {
      // One job (most calls) goes in as one script call: addBulk builds an ioredis pipeline, which copies every script
      // BullMQ defines onto it, for each call.
      jobs =
        payloads.length === 1
          ? [await queue.add(name, payloads[0]!, opts(ids[0]!))]
          : ((await queue.addBulk(payloads.map((data, i) => ({ name, data, opts: opts(ids[i]!) })))) as Job[]);
    } catch (error) {
      for (const wait of waits) wait.forget();
      throw error;
    }
    return Promise.all(jobs.map((job, i) => this.await<N>(job, waits[i]!, deadline)));
  }

  /** A job of the local lane: its reply, or TIMEOUT once `deadline` passed (the job ends by its own budget). */
  private async awaitReply<N extends JobName>(job: Promise<Reply>, deadline: number): Promise<JobOutcome<N>> {
    return this.outcome<N>(await replyBy(job, deadline));
  }

  private async await<N extends JobName>(job: Job, wait: { reply: Promise<Reply>; forget: () => void }, deadline: number): Promise<JobOutcome<N>> {
    const reply = await replyBy(wait.reply, deadline);
    if (reply === null) {
      wait.forget();
      // Nobody will read it: take it off the queue if it has not started; a running job ends by its own budget.
      job.remove().catch(() => undefined);
    }
    return this.outcome<N>(reply);
  }

  private outcome<N extends JobName>(reply: Reply | null): JobOutcome<N> {
    if (reply === null) return { ok: false, error: new TrawlError(ErrorCode.TIMEOUT, 'The request deadline passed before this item finished', 'transient') };
    if (reply.ok) return { ok: true, result: reply.result as JobResult<N> };
    return { ok: false, error: TrawlError.deserialize(reply.error) };
  }

  private open(name: QueueName): Queue {
    let queue = this.queues.get(name);
    if (!queue) {
      queue = new Queue(name, { connection: this.connection, prefix: this.prefix });
      queue.on('error', () => undefined);
      this.queues.set(name, queue);
    }
    return queue;
  }

  /**
   * Removes finished job records older than their keep time from every queue this dispatcher has used. BullMQ prunes
   * old records only when later jobs finish; this bounds their lifetime when none do (e.g. a gateway was killed and
   * nobody read its results). Run periodically by the gateway.
   */
  async clean(completedMs = COMPLETED_KEEP_MS, failedMs = FAILED_KEEP_MS, limit = 1000): Promise<number> {
    let removed = 0;
    for (const name of Object.values(QueueName)) {
      const queue = this.open(name);
      removed += (await queue.clean(completedMs, limit, 'completed')).length;
      removed += (await queue.clean(failedMs, limit, 'failed')).length;
    }
    return removed;
  }

  /** Jobs whose caller still waits for the reply (one whose deadline passed is no longer waited for). */
  get waiting(): number {
    return this.inbox.waiting;
  }

  async counts(name: QueueName): Promise<Record<string, number>> {
    return this.open(name).getJobCounts('waiting', 'active', 'delayed', 'failed', 'completed');
  }

  /** Closes every queue; during a Redis outage drops the connections instead of waiting for Redis to return. */
  async close(): Promise<void> {
    const queues = [...this.queues.values()];
    this.queues.clear();
    this.inbox.close();
    await closeUnlessRedisDown(
      this.connection,
      async () => {
        for (const queue of queues) await queue.close();
      },
      () => undefined,
    );
  }
}

/** The reply, or null once `deadline` (epoch ms) has passed without one. */
async function replyBy(reply: Promise<Reply>, deadline: number): Promise<Reply | null> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), Math.max(1, deadline - Date.now()));
  });
  try {
    return await Promise.race([reply, expired]);
  } finally {
    clearTimeout(timer);
  }
}
