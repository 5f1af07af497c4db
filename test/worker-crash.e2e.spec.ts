/**
 * A worker that dies mid-job (SIGKILL) loses its job lock; the job is taken back and finished by another worker,
 * and the request still completes, charged once. Queued work survives a worker restart.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { ServerResponse } from 'node:http';
import { ARTICLE, startFixtureServer, type FixtureServer } from './support/fixture-server.js';
import { key, startHarness, type Harness } from './support/harness.js';
import { pollUntil } from './support/poll.js';
import { spawnWorker, type WorkerProcess } from './support/worker-process.js';

let trawl: Harness;
let site: FixtureServer;
const workers: WorkerProcess[] = [];
let firstArrival: ServerResponse | null = null;

beforeAll(async () => {
  site = await startFixtureServer({
    // The first fetch hangs (its worker will be killed); later fetches answer.
    '/flaky': (_q, res) => {
      if (!firstArrival) {
        firstArrival = res;
        return;
      }
      res.writeHead(200, { 'content-type': 'text/html' }).end(ARTICLE);
    },
    '/a': (_q, res) => void res.writeHead(200, { 'content-type': 'text/html' }).end(ARTICLE),
  });
  trawl = await startHarness({ WORKER_LOCK_MS: '2000', CRAWL_TIMEOUT_MS: '30000', REQUEST_DEADLINE_MS: '60000' }, { inProcessWorkers: false });
});

afterAll(async () => {
  firstArrival?.destroy();
  await Promise.all(workers.map((w) => w.kill('SIGKILL')));
  await trawl?.close();
  await site?.close();
});

function startWorker(): WorkerProcess {
  const c = trawl.config;
  const worker = spawnWorker('worker-http', {
    REDIS_URL: c.REDIS_URL!,
    REDIS_PREFIX: c.REDIS_PREFIX,
    ALLOW_PRIVATE_ADDRESSES: 'true',
    WORKER_LOCK_MS: '2000',
    LOG_LEVEL: 'error',
  });
  workers.push(worker);
  return worker;
}

describe('worker death', () => {
  it('retries the job of a SIGKILLed worker on another worker; the request completes and is charged once', async () => {
    const doomed = startWorker();
    await doomed.ready;
    const account = await trawl.createAccount();
    const request = trawl.get(`/crawl?urls=${encodeURIComponent(`${site.url}/flaky`)}`, key(account.apiKey));
    await pollUntil(() => firstArrival, 'the first worker to start fetching');
    await doomed.kill('SIGKILL');
    const rescuer = startWorker();
    await rescuer.ready;
    const res = await request;
    expect(res.status).toBe(200);
    expect(res.body.results[0]).toMatchObject({ status_code: 200 });
    expect(res.body.results[0].markdown).toContain('pulling a fishing net');
    expect(res.body.credits).toBe(1);
    const { account: after } = await trawl.admin.report(account.accountId);
    expect(after.balance).toBe(10_000 - 1);
    expect(await trawl.ledger.ledgerSum(account.accountId)).toBe(after.balance);
    const { rows } = await trawl.db.pool.query(`SELECT count(*)::int AS open FROM reservations WHERE status = 'open'`);
    expect(rows[0].open).toBe(0);
  });

  it('keeps queued work while no worker runs, and finishes it when one starts', async () => {
    await Promise.all(workers.map((w) => w.kill('SIGTERM')));
    const account = await trawl.createAccount();
    const request = trawl.get(`/crawl?urls=${encodeURIComponent(`${site.url}/a`)}`, key(account.apiKey));
    await pollUntil(async () => (await trawl.redis.keys(`${trawl.config.REDIS_PREFIX}:trawl-http:wait`)).length > 0, 'the job to be queued');
    startWorker();
    const res = await request;
    expect(res.status).toBe(200);
    expect(res.body.successful_pages).toBe(1);
  });
});
