/**
 * The local lane: a job run by a worker of the dispatching process itself, without the queue. A site crawl's page
 * does not need the queue's durability — the crawl's frontier holds its URL under a lease, and a process that dies
 * takes both the dispatcher and the worker with it, so the lease expiring puts the URL back for any process — and
 * the queue costs each page three Lua scripts, its events and a lock in Redis. A dispatcher asks for the lane per
 * call (`runAll(…, { local: true })`); when this process has no worker for the queue, or its lane is full, the job
 * goes through the queue as any other.
 *
 * The lane runs the worker's own handlers with the queue's rules: a retryable error is run again with exponential
 * backoff up to the job's attempts, a permanent one ends it; the job's duration and outcome are counted as the
 * worker counts them.
 */
import { TrawlError, type JobName, type QueueName } from '#contracts';
import { metrics } from '#metrics';
import type { Reply } from './reply-channel.js';

/** What a handler learns of its job: how many earlier attempts failed (0 on the first run). */
export interface JobAttempt {
  attemptsMade: number;
}

export type JobHandler = (payload: unknown, job: JobAttempt) => Promise<unknown>;

export interface LocalWorker {
  queue: QueueName;
  handlers: Partial<Record<JobName, JobHandler>>;
  /** Jobs the lane runs at once (the worker's concurrency: the lane adds at most as many again). */
  capacity: number;
  onError?: (error: unknown) => void;
}

interface Lane extends LocalWorker {
  running: Set<Promise<Reply>>;
}

const lanes = new Map<string, Lane>();
const laneKey = (prefix: string, queue: QueueName): string => `${prefix}\n${queue}`;

/**
 * A worker of this process offers its queue's lane; the returned function withdraws it (the worker is closing) and
 * resolves once the jobs the lane is running have ended, as a closing worker waits for the jobs in its hands.
 */
export function openLane(prefix: string, worker: LocalWorker): () => Promise<void> {
  const key = laneKey(prefix, worker.queue);
  const lane: Lane = { ...worker, running: new Set() };
  lanes.set(key, lane);
  return async () => {
    if (lanes.get(key) === lane) lanes.delete(key);
    await Promise.allSettled([...lane.running]);
  };
}

/**
 * Runs a job in this process when a worker here takes `name` and has room; null when it must go through the queue.
 * `attempts` and `backoffMs` are the queue's job options; `deadline` (epoch ms) bounds the backoff, not a running
 * attempt (the handler keeps its own budget).
 */
export function runInLane(prefix: string, queue: QueueName, name: JobName, payload: unknown, retry: { attempts: number; backoffMs: number; deadline: number }): Promise<Reply> | null {
  const lane = lanes.get(laneKey(prefix, queue));
  const handler = lane?.handlers[name];
  if (!lane || !handler || lane.running.size >= lane.capacity) return null;
  const job = run(lane, handler, queue, name, payload, retry).finally(() => lane.running.delete(job));
  lane.running.add(job);
  return job;
}

async function run(lane: Lane, handler: JobHandler, queue: QueueName, name: JobName, payload: unknown, retry: { attempts: number; backoffMs: number; deadline: number }): Promise<Reply> {
  const labels = { queue, job: name };
  for (let attemptsMade = 0; ; attemptsMade++) {
    const endTimer = metrics.jobDuration.startTimer(labels);
    let failure: TrawlError;
    try {
      const result = await handler(payload, { attemptsMade });
      metrics.jobOutcomes.inc({ ...labels, outcome: outcomeOf(result) });
      return { ok: true, result };
    } catch (error) {
      failure = error instanceof TrawlError ? error : TrawlError.from(error);
      metrics.jobOutcomes.inc({ ...labels, outcome: failure.code });
      if (!(error instanceof TrawlError)) lane.onError?.(error);
    } finally {
      endTimer();
    }
    const delay = retry.backoffMs * 2 ** attemptsMade;
    if (!failure.retryable || attemptsMade + 1 >= retry.attempts || Date.now() + delay >= retry.deadline) return { ok: false, error: failure.serialize() };
    await new Promise((resolve) => setTimeout(resolve, delay));
  }
}

/** A handler's expected failures are values (`{ ok: false, error }`): counted by their code too. */
export function outcomeOf(result: unknown): string {
  if (result && typeof result === 'object' && 'ok' in result && result.ok === false && 'error' in result) {
    const code = (result.error as { code?: unknown } | undefined)?.code;
    if (typeof code === 'string') return code;
  }
  return 'ok';
}
