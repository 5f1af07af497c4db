/**
 * Trawl as it is deployed: every role its own process, run from the build exactly as the containers run them —
 * the migrate command, two gateways, two worker-http and one worker-render against one Postgres and one Redis.
 * Both gateways serve crawls (plain and rendered) through the shared queues, /health on each sees every worker,
 * the workers' container probe passes, a worker's METRICS_PORT reports its jobs, and a worker stopped with SIGTERM
 * exits cleanly and leaves /health. A key revoked through one gateway's admin API, or by the CLI, is refused by every
 * gateway at once although each caches keys for 10 minutes.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { createTestDatabase, type TestDatabase } from './support/database.js';
import { REPO_ROOT, TEST_REDIS_URL } from './support/env.js';
import { ARTICLE, startFixtureServer, type FixtureServer } from './support/fixture-server.js';
import { freePort } from './support/free-port.js';
import { pollUntil } from './support/poll.js';
import { assertBuilt, deploymentEnv, READY, startTrawlApp, type TrawlApp, type TrawlAppName } from './support/trawl-app.js';

const run = promisify(execFile);
const ADMIN_TOKEN = 'distributed-admin-token-0123456789';

let database: TestDatabase;
let site: FixtureServer;
let env: Record<string, string>;
let dataDir: string;
const apps: TrawlApp[] = [];
const gateways: string[] = [];
let workerMetricsPorts: number[];
let httpWorkers: TrawlApp[] = [];

const start = (app: TrawlAppName, ready: RegExp, extra: Record<string, string> = {}) => startTrawlApp(app, ready, { ...env, ...extra }, (a) => apps.push(a));

const getJson = async (url: string, headers: Record<string, string> = {}) => {
  const response = await fetch(url, { headers });
  return { status: response.status, body: (await response.json()) as any };
};

beforeAll(async () => {
  assertBuilt('cli', 'gateway', 'worker-http', 'worker-render');
  site = await startFixtureServer({ '/article': (_req, res) => void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(ARTICLE) });
  database = await createTestDatabase({ migrate: false });
  dataDir = mkdtempSync(path.join(tmpdir(), 'trawl-data-'));
  env = deploymentEnv({
    databaseUrl: database.url,
    redisUrl: TEST_REDIS_URL,
    prefix: `{trawl-test-${randomUUID().slice(0, 8)}}`,
    dataDir,
    adminToken: ADMIN_TOKEN,
  });
  // The migration step of compose and Kubernetes, as a process of its own.
  const migrated = await run(process.execPath, [`${REPO_ROOT}/dist/apps/cli/src/main.js`, 'migrate'], { env: { ...process.env, ...env } });
  expect(JSON.parse(migrated.stdout).applied.length).toBeGreaterThan(0);

  workerMetricsPorts = [await freePort(), await freePort()];
  const started = await Promise.all([
    start('gateway', READY.gateway, { AUTH_CACHE_MS: '600000' }),
    start('gateway', READY.gateway, { AUTH_CACHE_MS: '600000' }),
    start('worker-http', READY.worker, { METRICS_PORT: String(workerMetricsPorts[0]) }),
    start('worker-http', READY.worker, { METRICS_PORT: String(workerMetricsPorts[1]) }),
    start('worker-render', READY.worker),
  ]);
  gateways.push(started[0].match[1], started[1].match[1]);
  httpWorkers = [started[2].app, started[3].app];
}, 60_000);

afterAll(async () => {
  await Promise.all(apps.map((a) => a.stop('SIGKILL')));
  await site?.close();
  await database?.drop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe('gateways and workers as separate processes', () => {
  it('sees every worker from every gateway', async () => {
    for (const gateway of gateways) {
      const health = await pollUntil(async () => {
        const h = await getJson(`${gateway}/health`);
        return h.body.info?.workers?.['worker-http'] === 2 && h.body.info?.workers?.['worker-render'] === 1 ? h : null;
      }, 'both gateways to see 2 worker-http and 1 worker-render');
      expect(health.status).toBe(200);
    }
  });

  it('serves plain and rendered crawls through either gateway, on one ledger', async () => {
    const created = await fetch(`${gateways[0]}/admin/accounts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'distributed', plan: 'free' }),
    });
    expect(created.status).toBe(201);
    const { apiKey, accountId } = (await created.json()) as { apiKey: string; accountId: string };
    const url = encodeURIComponent(`${site.url}/article`);
    const plain = await getJson(`${gateways[0]}/crawl?urls=${url}`, { 'x-api-key': apiKey });
    const rendered = await getJson(`${gateways[1]}/crawl?urls=${url}&render_js=true`, { 'x-api-key': apiKey });
    expect([plain.status, plain.body.credits, plain.body.results[0].status_code]).toEqual([200, 1, 200]);
    expect([rendered.status, rendered.body.credits, rendered.body.results[0].status_code]).toEqual([200, 10, 200]);
    const report = await getJson(`${gateways[1]}/admin/accounts/${accountId}`, { authorization: `Bearer ${ADMIN_TOKEN}` });
    expect(report.body.account.balance).toBe(10_000 - 11);
  });

  it('passes the workers’ container probe and reports job metrics on a worker’s METRICS_PORT', async () => {
    for (const kind of ['worker-http', 'worker-render']) {
      await run(process.execPath, [`${REPO_ROOT}/dist/scripts/worker-probe.js`, kind], { env: { ...process.env, ...env } });
    }
    await expect(run(process.execPath, [`${REPO_ROOT}/dist/scripts/worker-probe.js`, 'worker-headful'], { env: { ...process.env, ...env } })).rejects.toThrow(
      /no worker-headful process/,
    );
    // The plain crawl ran on one of the two worker-http: together they report it.
    let jobs = 0;
    for (const port of workerMetricsPorts) {
      const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
      expect(text).toContain('# TYPE trawl_job_duration_seconds histogram');
      jobs += Number(/^trawl_job_outcomes_total\{queue="trawl-http",job="crawl.page",outcome="ok"\} (\d+)$/m.exec(text)?.[1] ?? 0);
    }
    expect(jobs).toBe(1);
  });

  it('refuses a revoked key on every gateway at once (10 min auth cache), revoked through one gateway or by the CLI', async () => {
    const cli = async (...args: string[]) =>
      JSON.parse((await run(process.execPath, [`${REPO_ROOT}/dist/apps/cli/src/main.js`, ...args], { env: { ...process.env, ...env } })).stdout) as any;
    const crawl = `/crawl?urls=${encodeURIComponent(`${site.url}/article`)}`;
    const statuses = async (apiKey: string) => Promise.all(gateways.map(async (g) => (await getJson(`${g}${crawl}`, { 'x-api-key': apiKey })).status));
    /** Invalidations travel by Redis pub/sub: seen within 2 s, where the cache alone would take 10 minutes. */
    const seenEverywhere = (apiKey: string, expected: number[], what: string) =>
      pollUntil(async () => JSON.stringify(await statuses(apiKey)) === JSON.stringify(expected), what, 2_000);
    const created = await cli('accounts:create', '--name', 'replicas', '--plan', 'free');
    expect(await statuses(created.apiKey)).toEqual([200, 200]); // now cached by both
    const regenerated = await fetch(`${gateways[0]}/admin/accounts/${created.accountId}/keys/regenerate`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(regenerated.status).toBe(201);
    const { apiKey: fresh } = (await regenerated.json()) as { apiKey: string };
    await seenEverywhere(created.apiKey, [401, 401], 'the old key refused by both gateways');
    expect(await statuses(fresh)).toEqual([200, 200]);
    expect(await cli('accounts:key:revoke', '--id', created.accountId)).toEqual({ revoked: 1 });
    await seenEverywhere(fresh, [401, 401], 'the key revoked by the CLI refused by both gateways');
  });

  it('lets a worker stopped with SIGTERM shut down gracefully: it deregisters at once instead of timing out', async () => {
    const worker = httpWorkers[1];
    // Nest re-raises the signal once its shutdown hooks ran (worker.close(), deregistration): the process ends by that
    // SIGTERM — not by an error exit of a failed hook, nor by the SIGKILL of a hung one.
    expect(await worker.stop('SIGTERM')).toBe('SIGTERM');
    // A killed worker would linger in /health for the 20 s heartbeat window; a graceful one leaves at once.
    await pollUntil(async () => (await getJson(`${gateways[0]}/health`)).body.info?.workers?.['worker-http'] === 1, 'the stopped worker to leave /health', 3_000);
  });
});
