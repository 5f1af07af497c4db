/**
 * worker-headful as its own process (the compiled app, as deployed): it starts its own Xvfb, serves the gateway's
 * /headful-browser jobs, and on SIGTERM closes Chromium and the display it started (nothing left behind).
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { ARTICLE, startFixtureServer, type FixtureServer } from './support/fixture-server.js';
import { key, startHarness, type Harness } from './support/harness.js';
import { pollUntil } from './support/poll.js';
import { startRecordingProxy, type RecordingProxy } from './support/recording-proxy.js';
import { spawnWorker, type WorkerProcess } from './support/worker-process.js';

let trawl: Harness;
let site: FixtureServer;
let proxy: RecordingProxy;
let worker: WorkerProcess;

/** Pids of the processes whose parent is `pid`. */
function childrenOf(pid: number): number[] {
  const out = execFileSync('ps', ['-o', 'pid=', '--ppid', String(pid)], { encoding: 'utf8' }).trim();
  return out ? out.split(/\s+/).map(Number) : [];
}

beforeAll(async () => {
  site = await startFixtureServer({ '/a': (_q, res) => void res.writeHead(200, { 'content-type': 'text/html' }).end(ARTICLE) });
  proxy = await startRecordingProxy();
  const residential = { RESIDENTIAL_PROXIES: `us=${proxy.url}` };
  trawl = await startHarness(residential, { inProcessWorkers: false });
  const c = trawl.config;
  worker = spawnWorker('worker-headful', {
    ...residential,
    REDIS_URL: c.REDIS_URL!,
    REDIS_PREFIX: c.REDIS_PREFIX,
    ALLOW_PRIVATE_ADDRESSES: 'true',
    EXTRACTION_THREADS: '0',
    DATA_DIR: c.DATA_DIR,
    LOG_LEVEL: 'warn',
    DISPLAY: '',
  });
  await worker.ready;
});

afterAll(async () => {
  await worker?.kill('SIGKILL');
  await trawl?.close();
  await site?.close();
  await proxy?.close();
});

describe('worker-headful process', () => {
  it('serves /headful-browser, then shuts down its browser and Xvfb on SIGTERM', async () => {
    const account = await trawl.createAccount();
    const res = await trawl.get(`/headful-browser?urls=${encodeURIComponent(`${site.url}/a`)}`, key(account.apiKey));
    expect(res.status).toBe(200);
    expect(res.body.data[0].markdown).toContain('Deep sea trawling');
    expect(res.body.credits_used).toBe(50);
    expect(proxy.carried.length).toBeGreaterThan(0);
    const pid = worker.child.pid!;
    const children = childrenOf(pid);
    expect(children.length).toBeGreaterThanOrEqual(2); // Xvfb and Chromium
    await worker.kill('SIGTERM');
    expect(worker.child.exitCode ?? worker.child.signalCode).not.toBeNull();
    await pollUntil(() => children.every((child) => !isAlive(child)), "the worker's Xvfb and Chromium to exit", 10_000);
  });
});

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
