/**
 * Container probe for a worker process (compose healthcheck, Kubernetes startup/liveness/readiness): exit 0 when the
 * worker of the given kind in this container has sent its /health heartbeat to Redis recently (#queue probeWorker).
 *
 *   node dist/scripts/worker-probe.js worker-http|worker-render|worker-headful
 */
import { loadConfig } from '#config';
import { probeWorker } from '#queue/worker-probe.js';

const config = loadConfig();
probeWorker(process.argv[2] ?? '', { redisUrl: config.REDIS_URL, prefix: config.REDIS_PREFIX }).then(
  (problem) => {
    if (problem) process.stderr.write(`${problem}\n`);
    process.exit(problem ? 1 : 0);
  },
  (error: unknown) => {
    process.stderr.write(`worker-probe: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
