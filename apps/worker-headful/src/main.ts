/**
 * worker-headful: registers the `trawl-headful` queue and announces itself to /health. The headed-browser crawl
 * (/headful-browser: Chromium under Xvfb behind a residential proxy pool) is not built yet; a job that reaches this
 * queue fails at once with a clear INTERNAL error rather than waiting forever.
 */
import 'reflect-metadata';
import { loadConfig } from '#config';
import { QueueName } from '#contracts';
import { createRedis, startJobWorker, WorkerRegistry } from '#queue';

const config = loadConfig();
if (!config.REDIS_URL) throw new Error('REDIS_URL is required for worker-headful');
const redis = createRedis(config.REDIS_URL, 'trawl-headful');
const worker = startJobWorker(redis, config.REDIS_PREFIX, QueueName.headful, {}, {
  concurrency: config.WORKER_HEADFUL_CONCURRENCY,
  lockMs: config.WORKER_LOCK_MS,
});
const stopAnnouncing = new WorkerRegistry(redis, config.REDIS_PREFIX).announce('worker-headful');
console.log(JSON.stringify({ level: 'info', msg: 'worker-headful consuming trawl-headful', pid: process.pid }));
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void stopAnnouncing()
      .then(() => worker.close())
      .finally(() => {
        redis.disconnect();
        process.exit(0);
      });
  });
}
