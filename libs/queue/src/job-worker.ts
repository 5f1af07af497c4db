/**
 * The consumer side of the queue: a BullMQ Worker that dispatches by job name to typed handlers.
 * Handlers return expected outcomes as values and throw TrawlError for faults: transient and blocked errors are
 * retried with backoff, permanent ones end the job at once. A worker that dies mid-job loses its lock and the job
 * is taken back (stalled) and run again by another worker. A job's outcome goes to the inbox of the gateway that
 * waits for it (reply-channel.ts): its result, or the error of its last attempt.
 */
import { UnrecoverableError, Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import { ErrorCode, TrawlError, type JobName, type JobPayload, type JobResult, type QueueName } from '#contracts';
import { metrics } from '#metrics';
import { closeUnlessRedisDown, duplicateRedis } from '#platform';
import { openLane, outcomeOf, type JobAttempt } from './local-lane.js';
import { replyGateway, sendReply } from './reply-channel.js';

/** How many times a job may be taken back from a worker that stopped (died, lost its lock) before it is given up. */
const MAX_STALLED = 2;

export type JobHandlers = { [N in JobName]?: (payload: JobPayload<N>, job: JobAttempt) => Promise<JobResult<N>> };

export interface JobWorkerOptions {
  concurrency: number;
  lockMs: number;
  onError?: (error: unknown) => void;
  /** Also run jobs that a dispatcher of this process hands over directly (local-lane.ts). */
  lane?: boolean;
}

export interface JobWorker {
  readonly worker: Worker;
  /**
   * Stops taking jobs and waits for those in hand, as BullMQ's close does — unless Redis is down: their results
   * could not be written anyway (the jobs are taken back once their locks expire), so the worker drops its
   * connections and returns at once instead of waiting for Redis to come back.
   */
  close(): Promise<void>;
}

export function startJobWorker(connection: Redis, prefix: string, queue: QueueName, handlers: JobHandlers, options: JobWorkerOptions): JobWorker {
  const workerConnection = duplicateRedis(connection, `trawl-worker-${queue}`);
  const worker = new Worker(
    queue,
    async (job: Job) => {
      const handler = handlers[job.name as JobName] as ((payload: unknown, job: JobAttempt) => Promise<unknown>) | undefined;
      if (!handler) throw new UnrecoverableError(new TrawlError('INTERNAL', `No handler for job ${job.name}`).serialize());
      const labels = { queue, job: job.name };
      const endTimer = metrics.jobDuration.startTimer(labels);
      const replyTo = replyGateway(job.id) ? job.id! : null;
      let result: unknown;
      try {
        result = await handler(job.data, job);
        metrics.jobOutcomes.inc({ ...labels, outcome: outcomeOf(result) });
      } catch (error) {
        const trawlError = error instanceof TrawlError ? error : TrawlError.from(error);
        metrics.jobOutcomes.inc({ ...labels, outcome: trawlError.code });
        if (!(error instanceof TrawlError)) options.onError?.(error);
        const lastAttempt = !trawlError.retryable || job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
        if (replyTo && lastAttempt) await sendReply(connection, prefix, replyTo, { ok: false, error: trawlError.serialize() });
        if (!trawlError.retryable) throw new UnrecoverableError(trawlError.serialize());
        throw new Error(trawlError.serialize(), { cause: error });
      } finally {
        endTimer();
      }
      if (!replyTo) return result;
      await sendReply(connection, prefix, replyTo, { ok: true, result });
      // The result went to its gateway: BullMQ's record needs none (it would be written and streamed twice).
      return undefined;
    },
    {
      connection: workerConnection,
      prefix,
      concurrency: options.concurrency,
      lockDuration: options.lockMs,
      stalledInterval: Math.max(1000, Math.floor(options.lockMs / 2)),
      maxStalledCount: MAX_STALLED,
    },
  );
  worker.on('error', (error) => options.onError?.(error));
  const closeLane = options.lane
    ? openLane(prefix, { queue, handlers: handlers as Record<string, (payload: unknown, job: JobAttempt) => Promise<unknown>>, capacity: options.concurrency, onError: options.onError })
    : async () => undefined;
  // A job whose workers kept dying on it (more than maxStalledCount times) is failed by the next worker that takes it,
  // without running the handler: its gateway is told, instead of waiting until the call's deadline.
  worker.on('failed', (job, error) => {
    if (!job?.id || !replyGateway(job.id) || !job.deferredFailure || error.message !== job.deferredFailure) return;
    metrics.jobOutcomes.inc({ queue, job: job.name, outcome: ErrorCode.INTERNAL });
    const abandoned = new TrawlError(
      ErrorCode.INTERNAL,
      `The workers running this item stopped ${MAX_STALLED + 1} times before finishing it; it was given up (nothing charged)`,
      'permanent',
    );
    sendReply(connection, prefix, job.id, { ok: false, error: abandoned.serialize() }).catch((sendError: unknown) => options.onError?.(sendError));
  });
  // The Worker does not own a connection it was given: drop it once the worker has closed.
  worker.on('closed', () => workerConnection.disconnect());
  return {
    worker,
    close: async () => {
      await closeLane();
      // pause() stops taking jobs and waits for those in hand (what close() would wait for); then nothing is left
      // that needs Redis, and a forced close drops the blocking connection instead of sending it QUIT.
      await closeUnlessRedisDown(workerConnection, () => worker.pause());
      await worker.close(true);
    },
  };
}
