/**
 * Queue gauges read from Redis at scrape time: jobs per state and the age of the oldest waiting job, per queue.
 * Reads BullMQ's keys directly (a few O(1) commands per queue) rather than opening Queue objects for each scrape.
 */
import { QueueKeys } from 'bullmq';
import type { Redis } from 'ioredis';
import type { QueueName } from '#contracts';
import type { TrawlMetrics } from '#metrics';

export function registerQueueMetrics(metrics: TrawlMetrics, redis: Redis, prefix: string, queues: readonly QueueName[]): void {
  metrics.gauge('trawl_queue_jobs', 'Jobs in each BullMQ queue by state', ['queue', 'state'], async (gauge) => {
    gauge.reset();
    for (const queue of queues) {
      const keys = new QueueKeys(prefix).getKeys(queue);
      const [waiting, active, delayed, prioritized, failed] = await Promise.all([
        redis.llen(keys.wait),
        redis.llen(keys.active),
        redis.zcard(keys.delayed),
        redis.zcard(keys.prioritized),
        redis.zcard(keys.failed),
      ]);
      gauge.set({ queue, state: 'waiting' }, waiting + prioritized);
      gauge.set({ queue, state: 'active' }, active);
      gauge.set({ queue, state: 'delayed' }, delayed);
      gauge.set({ queue, state: 'failed' }, failed);
    }
  });
  metrics.gauge('trawl_queue_oldest_waiting_seconds', 'Age of the oldest job waiting in each queue (0 when none waits)', ['queue'], async (gauge) => {
    gauge.reset();
    const now = Date.now();
    for (const queue of queues) {
      const keys = new QueueKeys(prefix).getKeys(queue);
      // BullMQ adds at the head of the wait list and takes from its tail: the tail is the oldest.
      const oldest = await redis.lindex(keys.wait, -1);
      const added = oldest ? Number(await redis.hget(`${keys['']}${oldest}`, 'timestamp')) : NaN;
      gauge.set({ queue }, Number.isFinite(added) ? Math.max(0, (now - added) / 1000) : 0);
    }
  });
}
