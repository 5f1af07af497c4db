/**
 * `npm start` exactly as a new user runs it: no DATABASE_URL, no REDIS_URL (so the embedded Postgres and a local
 * redis-server in DATA_DIR), the CLI sharing the running instance's database for the first key, metered calls from
 * 20 concurrent clients before and after the database pool's idle connections closed (30 s: a new connection then
 * opens, which is where an emulated, single-session database failed), every ledger checked; `/headful-browser` with
 * only `urls` answering out of the box (its worker hosted by default, its headed Chromium and Xvfb started by the first
 * request); then the SIGTERM a process manager sends to `npm start` stops Trawl, its browsers and its services, and a
 * restart finds the account as it was.
 */
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { REPO_ROOT } from './support/env.js';
import { ARTICLE, startFixtureServer, type FixtureServer } from './support/fixture-server.js';
import { pollUntil } from './support/poll.js';
import { ledgerViolations, openReservations } from './reliability/support/trawl-invariants.js';

jest.setTimeout(240_000);

const CLIENTS = 20;
const CALLS_PER_CLIENT = 5;
/** The test's own connections, told apart from Trawl's in pg_stat_activity. */
const OBSERVER = 'npm-start-e2e';
/** The pro plan's monthly credits (its concurrency limit, 50, is above the clients' number). */
const ALLOWANCE = 1_000_000;

interface Started {
  npm: ChildProcess;
  baseUrl: string;
  output: () => string;
  exited: Promise<number | NodeJS.Signals | null>;
}

let dataDir: string;
let site: FixtureServer;
let running: Started | undefined;
let apiKey: string;
let db: pg.Pool;

/** The environment of a new user's shell: none of the test suite's service URLs, a data directory of its own. */
function userEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of Object.keys(env)) if (/^(DATABASE_URL|REDIS_URL|TEST_|JEST_)/.test(name)) delete env[name];
  // Loopback crawling for the fixture site; a short reconciler period so the run sees many of its passes.
  return { ...env, DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', ALLOW_PRIVATE_ADDRESSES: 'true', RECONCILE_INTERVAL_MS: '1000' };
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function npmStart(): Promise<Started> {
  let output = '';
  const npm = spawn('npm', ['start'], { cwd: REPO_ROOT, env: userEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<number | NodeJS.Signals | null>((resolve) => npm.once('exit', (code, signal) => resolve(signal ?? code)));
  const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-20_000));
  npm.stdout!.on('data', keep);
  npm.stderr!.on('data', keep);
  const baseUrl = await pollUntil(
    async () => {
      if (npm.exitCode !== null) throw new Error(`npm start exited (${npm.exitCode}): ${output.slice(-2000)}`);
      return /Trawl is listening on (http:\/\/\S+) \(/.exec(output)?.[1] ?? null;
    },
    'npm start to listen',
    120_000,
    100,
  );
  return { npm, baseUrl, output: () => output, exited };
}

async function cli(...args: string[]): Promise<string> {
  const child = spawn('npm', ['run', '--silent', 'trawl', '--', ...args], { cwd: REPO_ROOT, env: userEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`npm run trawl -- ${args.join(' ')} exited ${code}: ${stderr.slice(-2000)}`);
  return stdout;
}

const services = (): { pid: number; databaseUrl: string; redisPid: number; postgresPid: number } =>
  JSON.parse(readFileSync(path.join(dataDir, 'services.json'), 'utf8'));

/** `CLIENTS` closed-loop clients, `CALLS_PER_CLIENT` metered /crawl calls each; the answers that were not a 1-credit page. */
async function burst(baseUrl: string): Promise<string[]> {
  const wrong: string[] = [];
  const url = encodeURIComponent(`${site.url}/article`);
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      for (let i = 0; i < CALLS_PER_CLIENT; i++) {
        const res = await fetch(`${baseUrl}/crawl?urls=${url}`, { headers: { 'x-api-key': apiKey } });
        const body = (await res.json()) as { credits?: number; successful_pages?: number };
        if (res.status !== 200 || body.credits !== 1 || body.successful_pages !== 1) wrong.push(`${res.status} ${JSON.stringify(body).slice(0, 300)}`);
      }
    }),
  );
  return wrong;
}

/** The test's view of the embedded database; a Postgres that shuts down (the SIGTERM test) must not crash the test. */
function observe(): pg.Pool {
  const pool = new pg.Pool({ connectionString: services().databaseUrl, max: 2, application_name: OBSERVER });
  pool.on('error', () => undefined);
  return pool;
}

/** Alive and not a zombie waiting to be reaped. */
const live = (pid: number) => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
};

/** The processes Trawl started itself (Xvfb, Chromium and its helpers), by pid: its descendants by name. */
function browserProcesses(root: number): number[] {
  const children = new Map<number, number[]>();
  const names = new Map<number, string>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const close = stat.lastIndexOf(')');
      const ppid = Number(stat.slice(close + 2).split(' ')[1]);
      names.set(Number(entry), stat.slice(stat.indexOf('(') + 1, close));
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // gone meanwhile
    }
  }
  const found: number[] = [];
  const walk = (pid: number) => {
    for (const child of children.get(pid) ?? []) {
      if (/^(Xvfb|chrom)/i.test(names.get(child) ?? '')) found.push(child);
      walk(child);
    }
  };
  walk(root);
  return found;
}

const balance = async () => (await db.query<{ balance: number }>('SELECT balance::int AS balance FROM accounts')).rows[0].balance;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'trawl-npm-start-'));
  // As DATA_DIR normally is: enterable by the user the embedded Postgres runs as when Trawl runs as root.
  chmodSync(dataDir, 0o755);
  site = await startFixtureServer({ '/article': (_q, res) => void res.writeHead(200, { 'content-type': 'text/html' }).end(ARTICLE) });
  running = await npmStart();
  const created = JSON.parse(await cli('accounts:create', '--name', 'First team', '--plan', 'pro')) as { apiKey: string; balance: number };
  expect(created.balance).toBe(ALLOWANCE);
  apiKey = created.apiKey;
  db = observe();
});

afterAll(async () => {
  await db?.end();
  if (running && running.npm.exitCode === null) {
    running.npm.kill('SIGTERM');
    await running.exited;
  }
  await site?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('npm start on the embedded default', () => {
  it('keeps every metered call right and every ledger exact across the pool replacing its idle connections', async () => {
    const { baseUrl } = running!;
    expect(await burst(baseUrl)).toEqual([]);

    // The connections that served the burst: wait (on the database's own view) until the pool closed its idle ones.
    const backends = async () =>
      (await db.query<{ pid: number }>(`SELECT pid FROM pg_stat_activity WHERE backend_type = 'client backend' AND application_name <> $1`, [OBSERVER])).rows.map((r) => r.pid);
    const served = await backends();
    expect(served.length).toBeGreaterThan(1);
    await pollUntil(async () => {
      const now = new Set(await backends());
      return served.filter((pid) => now.has(pid)).length <= 2;
    }, 'the pool to close its idle connections', 120_000, 500);

    // New connections open for this burst, and every reconciler pass since has run beside it.
    expect(await burst(baseUrl)).toEqual([]);
    expect(await balance()).toBe(ALLOWANCE - 2 * CLIENTS * CALLS_PER_CLIENT);
    await pollUntil(async () => (await openReservations(db)) === 0, 'every reservation to be settled');
    const violations = await ledgerViolations(db);
    expect(violations).toEqual({ ledgerNotBalance: [], negativeBalance: [], notOncePerRequest: [], badlyClosed: [], chargesNotBalance: [], logNotCharged: [] });
  });

  it('answers /headful-browser with only urls out of the box: its worker is hosted, Chromium and Xvfb start on the first request', async () => {
    const { baseUrl } = running!;
    // Idle, the headful worker has started nothing.
    expect(browserProcesses(services().pid)).toEqual([]);
    const res = await fetch(`${baseUrl}/headful-browser?urls=${encodeURIComponent(`${site.url}/article`)}`, { headers: { 'x-api-key': apiKey } });
    const body = (await res.json()) as { data: unknown[]; credits_used: number };
    expect(res.status).toBe(200);
    expect(body.data).toEqual([expect.objectContaining({ url: `${site.url}/article`, blocked: false, egress: { via: 'direct' }, markdown: expect.stringContaining('Deep sea trawling') })]);
    expect(body.credits_used).toBe(50);
    expect(await balance()).toBe(ALLOWANCE - 2 * CLIENTS * CALLS_PER_CLIENT - 50);
    expect(browserProcesses(services().pid).length).toBeGreaterThanOrEqual(2); // Xvfb and the headed Chromium
  });

  it('stops Trawl, its browsers and its local services on the SIGTERM a process manager sends to `npm start`, and a restart keeps the data', async () => {
    const before = services();
    expect([alive(before.pid), alive(before.postgresPid), alive(before.redisPid)]).toEqual([true, true, true]);
    const browsers = browserProcesses(before.pid);
    running!.npm.kill('SIGTERM');
    await running!.exited;
    // Trawl shuts down in order within its 15 s bound, its embedded Postgres and redis-server last.
    await pollUntil(() => !alive(before.pid) && !alive(before.postgresPid) && !alive(before.redisPid), 'Trawl, Postgres and Redis to stop', 30_000, 100);
    // Nothing it started outlives it: the headed Chromium and the Xvfb display went with it.
    await pollUntil(() => browsers.every((pid) => !live(pid)), 'Chromium and Xvfb to stop', 10_000, 100);
    expect(running!.output()).toContain('SIGTERM: shutting down');

    running = await npmStart();
    await db.end();
    db = observe();
    const res = await fetch(`${running.baseUrl}/crawl?urls=${encodeURIComponent(`${site.url}/article`)}`, { headers: { 'x-api-key': apiKey } });
    expect(res.status).toBe(200);
    expect(await balance()).toBe(ALLOWANCE - 2 * CLIENTS * CALLS_PER_CLIENT - 50 - 1);
  });

  it('refuses a configuration it cannot serve before any local service starts, naming the variable', async () => {
    const empty = mkdtempSync(path.join(os.tmpdir(), 'trawl-bad-config-'));
    try {
      for (const [name, value] of [['PROXIES', 'http://user:hunter2@proxy.example:8000'], ['SERP_ENGINE', 'bing']]) {
        const child = spawn('npm', ['start'], { cwd: REPO_ROOT, env: { ...userEnv(), DATA_DIR: empty, [name]: value }, stdio: ['ignore', 'pipe', 'pipe'] });
        let output = '';
        child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
        child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
        const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
        expect(code).not.toBe(0);
        expect(output).toContain(`${name}:`);
        expect(output).not.toContain('hunter2');
        // Nothing was started: no Postgres cluster, no Redis data, no services file.
        expect(readdirSync(empty)).toEqual([]);
      }
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
