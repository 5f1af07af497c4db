/** A worker process's consumption of one queue: the BullMQ worker plus its /health heartbeat, started and stopped together. */
import type { Redis } from 'ioredis';
import type { QueueName } from '#contracts';
import { startJobWorker, type JobHandlers } from './job-worker.js';
import type { WorkerRegistry } from './worker-registry.js';

export interface QueueConsumer {
  close(): Promise<void>;
}

export function startQueueConsumer(options: {
  redis: Redis;
  prefix: string;
  registry: WorkerRegistry;
  /** The worker kind reported by /health, e.g. `worker-http`. */
  kind: string;
  queue: QueueName;
  handlers: JobHandlers;
  concurrency: number;
  lockMs: number;
  /** Also take jobs handed over by a dispatcher of this process (local-lane.ts). */
  lane?: boolean;
  onError: (error: unknown) => void;
}): QueueConsumer {
  const worker = startJobWorker(options.redis, options.prefix, options.queue, options.handlers, {
    concurrency: options.concurrency,
    lockMs: options.lockMs,
    onError: options.onError,
    lane: options.lane,
  });
  const stopAnnouncing = options.registry.announce(options.kind);
  return {
    close: async () => {
      await stopAnnouncing();
      await worker.close();
    },
  };
}
