/**
 * `/health` as documented (docs/api.md): 200 when Postgres, Redis and a worker-http are there, 503 when Postgres or
 * Redis is down or no worker-http is alive — on a gateway of its own, with a private Redis and a private Postgres
 * this test stops and starts, and a worker-http as its own process (from the build).
 */
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createTestDatabase, type TestDatabase } from './support/database.js';
import { key, startHarness, type Harness } from './support/harness.js';
import { pollUntil } from './support/poll.js';
import { startPrivatePostgres, type PrivatePostgres } from './support/private-postgres.js';
import { startPrivateRedis, type PrivateRedis } from './support/private-redis.js';
import { deploymentEnv } from './support/trawl-app.js';
import { spawnWorker, type WorkerProcess } from './support/worker-process.js';

jest.setTimeout(90_000);

let redis: PrivateRedis;
let postgres: PrivatePostgres;
let database: TestDatabase;
let gateway: Harness;
let worker: WorkerProcess | undefined;
let dataDir: string;

interface Health {
  status: number;
  details: { postgres: { status: string }; redis: { status: string }; workers: { status: string; 'worker-http'?: number } };
}

/** The 503 is the error envelope, its message the health report (docs/api.md); the 200 is the report itself. */
const health = async (): Promise<Health> => {
  const res = await Promise.race([
    gateway.get('/health'),
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error('/health did not answer within 5 s')), 5_000).unref()),
  ]);
  const report = res.status === 503 ? JSON.parse(res.body.error.message) : res.body;
  if (res.status === 503) expect(res.body.error.code).toBe('SERVICE_UNAVAILABLE');
  return { status: res.status, details: report.details };
};
const summary = (h: Health) => ({
  status: h.status,
  postgres: h.details.postgres.status,
  redis: h.details.redis.status,
  workers: h.details.workers.status,
});
/** Polls /health until its summary is `expected`; returns the last answer. */
async function healthBecomes(expected: ReturnType<typeof summary>, what: string, timeoutMs = 30_000): Promise<Health> {
  let last: Health | undefined;
  await pollUntil(async () => {
    last = await health();
    return JSON.stringify(summary(last)) === JSON.stringify(expected);
  }, what, timeoutMs, 100).catch((error: Error) => {
    throw new Error(`${error.message}; last: ${JSON.stringify(last && summary(last))}`);
  });
  return last!;
}

const HEALTHY = { status: 200, postgres: 'up', redis: 'up', workers: 'up' };

function startWorker(): WorkerProcess {
  return spawnWorker('worker-http', {
    ...deploymentEnv({ databaseUrl: database.url, redisUrl: redis.url, prefix: gateway.config.REDIS_PREFIX, dataDir, adminToken: 'unused-admin-token-0123456789' }),
    LOG_LEVEL: 'info',
  });
}

beforeAll(async () => {
  [redis, postgres] = await Promise.all([startPrivateRedis(), startPrivatePostgres()]);
  database = await createTestDatabase({ adminUrl: postgres.adminUrl });
  dataDir = mkdtempSync(path.join(tmpdir(), 'trawl-health-'));
  gateway = await startHarness({ REDIS_URL: redis.url }, { database, inProcessWorkers: false });
}, 120_000);

afterAll(async () => {
  await worker?.kill('SIGKILL');
  await gateway?.close().catch(() => undefined);
  await database?.drop().catch(() => undefined);
  await Promise.all([redis?.close(), postgres?.close()]);
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe('GET /health', () => {
  it('is 503 while no worker-http is alive, 200 once one is, 503 again when the last one stops', async () => {
    const none = await health();
    expect(summary(none)).toEqual({ status: 503, postgres: 'up', redis: 'up', workers: 'down' });
    expect(none.details.workers['worker-http']).toBe(0);
    worker = startWorker();
    await worker.ready;
    const up = await healthBecomes(HEALTHY, 'the worker-http heartbeat');
    expect(up.details.workers['worker-http']).toBe(1);
    await worker.kill('SIGTERM'); // deregisters at once (a killed one lingers for the 20 s heartbeat window)
    worker = undefined;
    await healthBecomes({ status: 503, postgres: 'up', redis: 'up', workers: 'down' }, 'the last worker-http to leave', 5_000);
  });

  it('is 503 while Redis is down, and 200 again once it is back', async () => {
    worker = startWorker();
    await worker.ready;
    await healthBecomes(HEALTHY, 'a healthy deployment');
    await redis.kill();
    // With Redis gone the worker registry cannot be read either: workers are reported down (unknown) too.
    await healthBecomes({ status: 503, postgres: 'up', redis: 'down', workers: 'down' }, 'Redis reported down');
        await redis.start(); // empty, as after a crash: the worker's next heartbeat registers it again
    await healthBecomes(HEALTHY, 'Redis and the worker back');
  });

  it('is 503 while Postgres is down, and 200 again once it is back; an API call meanwhile is a 500 SERVICE_UNAVAILABLE to retry', async () => {
    await healthBecomes(HEALTHY, 'a healthy deployment');
    const { apiKey } = await gateway.createAccount();
    await postgres.stop('immediate');
    await healthBecomes({ status: 503, postgres: 'down', redis: 'up', workers: 'up' }, 'Postgres reported down');
    // The contract's status for a failure on the server's side is 500; the code says it is an outage, Retry-After when to retry.
    const call = await gateway.get('/crawl?urls=http://127.0.0.1:1/', key(apiKey));
    expect({ status: call.status, code: call.body.error?.code, retryAfter: call.headers.get('retry-after') }).toEqual({ status: 500, code: 'SERVICE_UNAVAILABLE', retryAfter: '1' });
    await postgres.start();
    await healthBecomes(HEALTHY, 'Postgres back');
  });
});
