/**
 * Container probe for a worker process (compose healthcheck, Kubernetes liveness/readiness): exit 0 when the
 * worker of the given kind running in this container has sent its /health heartbeat to Redis recently. The
 * heartbeat runs on the worker's event loop, so a hung loop or a lost Redis connection fails the probe.
 *
 *   node dist/scripts/worker-probe.js worker-http|worker-render|worker-headful
 */
import { readdirSync, readFileSync } from 'node:fs';
import { Redis } from 'ioredis';
import { loadConfig } from '#config';
import { WORKER_SEEN_WINDOW_MS } from '#queue/worker-registry.js';

const KINDS = ['worker-http', 'worker-render', 'worker-headful'];

/** Pids of this container's processes whose command line runs the worker's entry point. */
export function workerPids(kind: string, procDir = '/proc'): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync(procDir)) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      const cmdline = readFileSync(`${procDir}/${entry}/cmdline`, 'utf8');
      if (cmdline.includes(`apps/${kind}/src/main.js`)) pids.push(Number(entry));
    } catch {
      // the process ended while we looked
    }
  }
  return pids;
}

async function probe(kind: string): Promise<string | null> {
  if (!KINDS.includes(kind)) return `usage: worker-probe ${KINDS.join('|')}`;
  const pids = workerPids(kind);
  if (pids.length === 0) return `no ${kind} process in this container`;
  const config = loadConfig();
  if (!config.REDIS_URL) return 'REDIS_URL is not set';
  const redis = new Redis(config.REDIS_URL, { lazyConnect: true, connectTimeout: 2_000, maxRetriesPerRequest: 0, enableOfflineQueue: false });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    const since = Date.now() - WORKER_SEEN_WINDOW_MS;
    const members = await redis.zrangebyscore(`${config.REDIS_PREFIX}:workers:${kind}`, since, '+inf');
    const alive = members.some((member) => pids.some((pid) => member.startsWith(`${kind}:${pid}:`)));
    return alive ? null : `${kind} (pid ${pids.join(', ')}) has sent no heartbeat for ${WORKER_SEEN_WINDOW_MS / 1000} s`;
  } finally {
    redis.disconnect();
  }
}

if (process.argv[1]?.endsWith('worker-probe.js')) {
  probe(process.argv[2] ?? '').then(
    (problem) => {
      if (problem) process.stderr.write(`${problem}\n`);
      process.exit(problem ? 1 : 0);
    },
    (error: unknown) => {
      process.stderr.write(`worker-probe: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exit(1);
    },
  );
}
