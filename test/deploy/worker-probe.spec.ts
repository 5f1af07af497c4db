/**
 * The container probe of a worker (compose healthcheck, Kubernetes probes): healthy exactly while the worker process
 * of that kind in this container sends its /health heartbeat to Redis. A fake /proc holds the "container's" processes.
 */
import { afterAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { WorkerRegistry } from '#queue';
import { probeWorker, workerPids } from '#queue/worker-probe.js';
import { pollUntil } from '../support/poll.js';
import { TEST_REDIS_URL } from '../support/env.js';

const procDir = mkdtempSync(path.join(tmpdir(), 'trawl-proc-'));
const fakeProcess = (pid: number, argv: string[]) => {
  mkdirSync(`${procDir}/${pid}`, { recursive: true });
  writeFileSync(`${procDir}/${pid}/cmdline`, `${argv.join('\0')}\0`);
};
const redis = new Redis(TEST_REDIS_URL);
const prefix = `{trawl-test-${randomUUID().slice(0, 8)}}`;

afterAll(async () => {
  await redis.quit();
  rmSync(procDir, { recursive: true, force: true });
});

describe('worker-probe', () => {
  it("finds the worker's process by its entry point", () => {
    fakeProcess(process.pid, ['node', 'dist/apps/worker-http/src/main.js']);
    fakeProcess(4242, ['node', 'dist/scripts/worker-probe.js', 'worker-http']);
    expect(workerPids('worker-http', procDir)).toEqual([process.pid]);
    expect(workerPids('worker-render', procDir)).toEqual([]);
  });

  it('is healthy while the heartbeat of this container’s worker is fresh, and not once it stops', async () => {
    const options = { redisUrl: TEST_REDIS_URL, prefix, procDir };
    expect(await probeWorker('worker-http', options)).toMatch(/has sent no heartbeat/);
    const stop = new WorkerRegistry(redis, prefix).announce('worker-http');
    await pollUntil(() => redis.zcard(`${prefix}:workers:worker-http`), 'the first heartbeat');
    expect(await probeWorker('worker-http', options)).toBeNull();
    // Another container's worker of the same kind does not make this one healthy.
    expect(await probeWorker('worker-http', { ...options, procDir: mkdtempSync(path.join(tmpdir(), 'trawl-proc-')) })).toMatch(/no worker-http process/);
    await stop();
    expect(await probeWorker('worker-http', options)).toMatch(/has sent no heartbeat/);
  });

  it('is unhealthy when Redis cannot be reached, and refuses an unknown kind', async () => {
    expect(await probeWorker('worker-http', { redisUrl: 'redis://127.0.0.1:1', prefix, procDir })).not.toBeNull();
    expect(await probeWorker('worker-nope', { redisUrl: TEST_REDIS_URL, prefix, procDir })).toMatch(/usage/);
  });
});
