/** Job counts of every Trawl queue, for the operator's health page (BullMQ handles, closed at shutdown). */
import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { QueueName } from '#contracts';

export interface QueueCounts {
  name: string;
  waiting: number;
  active: number;
  delayed: number;
  failed: number;
  completed: number;
}

export class QueueStats {
  private queues?: Queue[];

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  async counts(): Promise<QueueCounts[]> {
    this.queues ??= Object.values(QueueName).map((name) => {
      const queue = new Queue(name, { connection: this.redis, prefix: this.prefix });
      queue.on('error', () => undefined);
      return queue;
    });
    return Promise.all(
      this.queues.map(async (queue) => {
        const c = await queue.getJobCounts('waiting', 'active', 'delayed', 'failed', 'completed');
        return { name: queue.name, waiting: c.waiting ?? 0, active: c.active ?? 0, delayed: c.delayed ?? 0, failed: c.failed ?? 0, completed: c.completed ?? 0 };
      }),
    );
  }

  async close(): Promise<void> {
    await Promise.all((this.queues ?? []).map((q) => q.close().catch(() => undefined)));
  }
}
