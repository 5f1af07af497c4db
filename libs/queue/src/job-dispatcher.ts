/**
 * The producer side of the queue: enqueue typed jobs and await their results with a deadline.
 * A job's outcome is a value: its typed result, or the TrawlError that ended it (timeouts included).
 */
import { Queue, QueueEvents, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import { ErrorCode, QueueName, TrawlError, type JobName, type JobPayload, type JobResult } from '#contracts';
import { assertRedisUp, closeUnlessRedisDown, duplicateRedis } from './redis.js';

export type JobOutcome<N extends JobName> = { ok: true; result: JobResult<N> } | { ok: false; error: TrawlError };

export interface DispatchOptions {
  attempts: number;
  backoffMs: number;
}

/** How long a finished job's record may outlive its waiter (a gateway that died before reading it). */
export const COMPLETED_KEEP_MS = 300_000;
export const FAILED_KEEP_MS = 3_600_000;

export class JobDispatcher {
  private readonly queues = new Map<QueueName, { queue: Queue; events: QueueEvents; eventsConnection: Redis }>();

  constructor(
    private readonly connection: Redis,
    private readonly prefix: string,
    private readonly options: DispatchOptions,
  ) {}

  /** Enqueues one job per payload and waits for all of them until `deadline` (epoch ms). Order is preserved. */
  async runAll<N extends JobName>(queueName: QueueName, name: N, payloads: JobPayload<N>[], deadline: number): Promise<JobOutcome<N>[]> {
    assertRedisUp(this.connection);
    const { queue, events } = await this.open(queueName);
    const jobs = (await queue.addBulk(
      payloads.map((data) => ({
        name,
        data,
        opts: {
          attempts: this.options.attempts,
          backoff: { type: 'exponential', delay: this.options.backoffMs },
          // Kept briefly so a waiter can read the result; removed as soon as it is read (or by `clean`).
          removeOnComplete: { age: COMPLETED_KEEP_MS / 1000 },
          removeOnFail: { age: FAILED_KEEP_MS / 1000 },
        },
      })),
    )) as Job[];
    return Promise.all(jobs.map((job) => this.await<N>(job, events, deadline)));
  }

  private async await<N extends JobName>(job: Job, events: QueueEvents, deadline: number): Promise<JobOutcome<N>> {
    const ttl = Math.max(1, deadline - Date.now());
    try {
      const result = (await job.waitUntilFinished(events, ttl)) as JobResult<N>;
      job.remove().catch(() => undefined);
      return { ok: true, result };
    } catch (error) {
      const message = error instanceof Error ? error.message : '';
      if (message.includes('timed out before finishing')) {
        // Nobody will read it: take it off the queue if it has not started; a running job ends by its own budget.
        job.remove().catch(() => undefined);
        return { ok: false, error: new TrawlError(ErrorCode.TIMEOUT, 'The request deadline passed before this item finished', 'transient') };
      }
      job.remove().catch(() => undefined);
      return { ok: false, error: TrawlError.deserialize(message) };
    }
  }

  private async open(name: QueueName) {
    let entry = this.queues.get(name);
    if (!entry) {
      const queue = new Queue(name, { connection: this.connection, prefix: this.prefix });
      const eventsConnection = duplicateRedis(this.connection, `trawl-events-${name}`);
      const events = new QueueEvents(name, { connection: eventsConnection, prefix: this.prefix });
      // Every waiting job adds a listener to its queue (waitUntilFinished): thousands in flight are expected.
      queue.setMaxListeners(0);
      events.setMaxListeners(0);
      queue.on('error', () => undefined);
      events.on('error', () => undefined);
      entry = { queue, events, eventsConnection };
      this.queues.set(name, entry);
      await events.waitUntilReady();
    }
    return entry;
  }

  /**
   * Removes finished job records older than their keep time from every queue this dispatcher has used. BullMQ prunes
   * old records only when later jobs finish; this bounds their lifetime when none do (e.g. a gateway was killed and
   * nobody read its results). Run periodically by the gateway.
   */
  async clean(completedMs = COMPLETED_KEEP_MS, failedMs = FAILED_KEEP_MS, limit = 1000): Promise<number> {
    let removed = 0;
    for (const name of Object.values(QueueName)) {
      const { queue } = await this.open(name);
      removed += (await queue.clean(completedMs, limit, 'completed')).length;
      removed += (await queue.clean(failedMs, limit, 'failed')).length;
    }
    return removed;
  }

  async counts(name: QueueName): Promise<Record<string, number>> {
    const { queue } = await this.open(name);
    return queue.getJobCounts('waiting', 'active', 'delayed', 'failed', 'completed');
  }

  /** Closes every queue; during a Redis outage drops the connections instead of waiting for Redis to return. */
  async close(): Promise<void> {
    const entries = [...this.queues.values()];
    this.queues.clear();
    await closeUnlessRedisDown(
      this.connection,
      async () => {
        for (const { queue, events, eventsConnection } of entries) {
          await events.close();
          await queue.close();
          eventsConnection.disconnect();
        }
      },
      () => {
        for (const { events, eventsConnection } of entries) {
          events.disconnect().catch(() => undefined);
          eventsConnection.disconnect();
        }
      },
    );
  }
}
