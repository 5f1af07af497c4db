/**
 * A worker container's health, as its probe sees it (scripts/worker-probe.ts): the worker process of a kind running
 * in this container has sent its /health heartbeat to Redis recently. The heartbeat runs on the worker's event loop,
 * so a hung loop or a lost Redis connection fails the probe.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { Redis } from 'ioredis';
import { WORKER_SEEN_WINDOW_MS } from './worker-registry.js';

const KINDS = ['worker-http', 'worker-render', 'worker-headful'];

/** Pids of this container's processes whose command line runs the worker's entry point. */
export function workerPids(kind: string, procDir = '/proc'): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync(procDir)) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = readFileSync(`${procDir}/${entry}/cmdline`, 'utf8');
      if (cmdline.includes(`apps/${kind}/src/main.js`)) pids.push(Number(entry));
    } catch {
      // the process ended while we looked
    }
  }
  return pids;
}

/** Null when the worker is alive, else what is wrong. */
export async function probeWorker(kind: string, options: { redisUrl?: string; prefix: string; procDir?: string }): Promise<string | null> {
  if (!KINDS.includes(kind)) return `usage: worker-probe ${KINDS.join('|')}`;
  const pids = workerPids(kind, options.procDir);
  if (pids.length === 0) return `no ${kind} process in this container`;
  if (!options.redisUrl) return 'REDIS_URL is not set';
  const redis = new Redis(options.redisUrl, { lazyConnect: true, connectTimeout: 2_000, maxRetriesPerRequest: 0, enableOfflineQueue: false, retryStrategy: () => null });
  redis.on('error', () => undefined);
  try {
    const unreachable = await redis.connect().then(
      () => null,
      (error: unknown) => `Redis is unreachable: ${error instanceof Error ? error.message : String(error)}`,
    );
    if (unreachable) return unreachable;
    const since = Date.now() - WORKER_SEEN_WINDOW_MS;
    const members = await redis.zrangebyscore(`${options.prefix}:workers:${kind}`, since, '+inf');
    const alive = members.some((member) => pids.some((pid) => member.startsWith(`${kind}:${pid}:`)));
    return alive ? null : `${kind} (pid ${pids.join(', ')}) has sent no heartbeat for ${WORKER_SEEN_WINDOW_MS / 1000} s`;
  } finally {
    redis.disconnect();
  }
}
