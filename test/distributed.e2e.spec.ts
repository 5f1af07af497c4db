/**
 * Trawl as it is deployed: every role its own process, run from the build exactly as the containers run them —
 * the migrate command, two gateways, two worker-http and one worker-render against one Postgres and one Redis.
 * Both gateways serve crawls (plain and rendered) through the shared queues, /health on each sees every worker,
 * the workers' container probe passes, a worker's METRICS_PORT reports its jobs, and a worker stopped with SIGTERM
 * exits cleanly and leaves /health.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { createTestDatabase, type TestDatabase } from './support/database.js';
import { REPO_ROOT, TEST_REDIS_URL } from './support/env.js';
import { ARTICLE, startFixtureServer, type FixtureServer } from './support/fixture-server.js';
import { pollUntil } from './support/poll.js';

const run = promisify(execFile);
const ADMIN_TOKEN = 'distributed-admin-token-0123456789';
interface App {
  child: ChildProcess;
  output: () => string;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

let database: TestDatabase;
let site: FixtureServer;
let env: Record<string, string>;
let dataDir: string;
const apps: App[] = [];
const gateways: string[] = [];
let workerMetricsPorts: number[];
let httpWorkers: App[] = [];

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as import('node:net').AddressInfo;
      server.close(() => resolve(port));
    });
  });

/** Starts `node dist/apps/<app>/src/main.js`; resolves with the first match of `ready` in its stdout. */
async function start(app: string, ready: RegExp, extra: Record<string, string> = {}): Promise<{ app: App; match: RegExpExecArray }> {
  const entry = `${REPO_ROOT}/dist/apps/${app}/src/main.js`;
  let output = '';
  const child = spawn(process.execPath, [entry], { cwd: REPO_ROOT, env: { ...process.env, ...env, ...extra }, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const handle: App = {
    child,
    output: () => output,
    stop: async (signal = 'SIGTERM') => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
  apps.push(handle);
  const match = await new Promise<RegExpExecArray>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const m = ready.exec(output);
      if (m) resolve(m);
    });
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    void exited.then((code) => reject(new Error(`${app} exited (${code}) before it was ready: ${output.slice(-2000)}`)));
  });
  return { app: handle, match };
}

const getJson = async (url: string, headers: Record<string, string> = {}) => {
  const response = await fetch(url, { headers });
  return { status: response.status, body: (await response.json()) as any };
};

beforeAll(async () => {
  for (const app of ['cli', 'gateway', 'worker-http', 'worker-render']) {
    if (!existsSync(`${REPO_ROOT}/dist/apps/${app}/src/main.js`)) throw new Error(`dist/apps/${app} is missing: run \`npm run build\` (npm test does it)`);
  }
  site = await startFixtureServer({ '/article': (_req, res) => void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(ARTICLE) });
  database = await createTestDatabase({ migrate: false });
  dataDir = mkdtempSync(path.join(tmpdir(), 'trawl-data-'));
  env = {
    NODE_ENV: 'production',
    DATABASE_URL: database.url,
    REDIS_URL: TEST_REDIS_URL,
    REDIS_PREFIX: `{trawl-test-${randomUUID().slice(0, 8)}}`,
    DATA_DIR: dataDir,
    HOST: '127.0.0.1',
    PORT: '0',
    LOG_LEVEL: 'error',
    ADMIN_TOKEN,
    ALLOW_PRIVATE_ADDRESSES: 'true',
    EXTRACTION_THREADS: '0',
  };
  // The migration step of compose and Kubernetes, as a process of its own.
  const migrated = await run(process.execPath, [`${REPO_ROOT}/dist/apps/cli/src/main.js`, 'migrate'], { env: { ...process.env, ...env } });
  expect(JSON.parse(migrated.stdout).applied.length).toBeGreaterThan(0);

  workerMetricsPorts = [await freePort(), await freePort()];
  const started = await Promise.all([
    start('gateway', /gateway listening on (http:\/\/\S+)"/),
    start('gateway', /gateway listening on (http:\/\/\S+)"/),
    start('worker-http', /consuming/, { METRICS_PORT: String(workerMetricsPorts[0]) }),
    start('worker-http', /consuming/, { METRICS_PORT: String(workerMetricsPorts[1]) }),
    start('worker-render', /consuming/),
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

  it('lets a worker stopped with SIGTERM shut down gracefully: it deregisters at once instead of timing out', async () => {
    const worker = httpWorkers[1];
    await worker.stop('SIGTERM');
    // Nest re-raises the signal once its shutdown hooks ran (worker.close(), deregistration): not a SIGKILL.
    expect(worker.child.signalCode ?? worker.child.exitCode).not.toBe('SIGKILL');
    // A killed worker would linger in /health for the 20 s heartbeat window; a graceful one leaves at once.
    await pollUntil(async () => (await getJson(`${gateways[0]}/health`)).body.info?.workers?.['worker-http'] === 1, 'the stopped worker to leave /health', 3_000);
  });
});
