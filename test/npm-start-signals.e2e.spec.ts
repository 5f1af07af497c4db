/**
 * `npm start` with the shipped defaults, as a user stops and restarts it at a terminal: Ctrl-C is a SIGINT to the
 * whole foreground process group (npm and Trawl, which npm forwards it to as well), so `npm start` runs in a process
 * group of its own here and the signal goes to the group. Covered: a page over 64 KiB formatted on the default
 * extraction thread (EXTRACTION_THREADS=1), an ordered shutdown on Ctrl-C within its 15 s bound, queued work surviving
 * the restart in the local Redis' append-only file, a second instance on a busy port exiting without touching the
 * first one's services, and a second Ctrl-C forcing the exit while the first shutdown waits.
 */
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { REPO_ROOT } from './support/env.js';
import { ARTICLE, html, startFixtureServer, type FixtureServer } from './support/fixture-server.js';
import { pollUntil } from './support/poll.js';

jest.setTimeout(180_000);

let dataDir: string;
let site: FixtureServer;
let running: Started | undefined;
let apiKey: string;
const held: Array<import('node:http').ServerResponse> = [];
/** The end of a page of ~100 KiB: formatted on the extraction thread (pages under 64 KiB are formatted inline). */
const LONG_END = 'The last paragraph of a very long article about trawling.';

interface Started {
  npm: ChildProcess;
  baseUrl: string;
  output: () => string;
  exited: Promise<number | NodeJS.Signals | null>;
}

function userEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of Object.keys(env)) if (/^(DATABASE_URL|REDIS_URL|TEST_|JEST_|EXTRACTION_THREADS|GOOGLE_TRANSPORT)/.test(name)) delete env[name];
  return { ...env, DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', ALLOW_PRIVATE_ADDRESSES: 'true' };
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

const services = (): { pid: number; redisUrl: string; redisPid: number; postgresPid: number } =>
  JSON.parse(readFileSync(path.join(dataDir, 'services.json'), 'utf8'));

/** `npm start` in a process group of its own, as a terminal runs a foreground job. */
async function npmStart(): Promise<Started> {
  let output = '';
  const npm = spawn('npm', ['start'], { cwd: REPO_ROOT, env: userEnv(), stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  const exited = new Promise<number | NodeJS.Signals | null>((resolve) => npm.once('exit', (code, signal) => resolve(signal ?? code)));
  const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-40_000));
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

/** Ctrl-C at the terminal: SIGINT to every process of the foreground group. */
const ctrlC = (started: Started) => process.kill(-started.npm.pid!, 'SIGINT');

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

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'trawl-npm-signals-'));
  chmodSync(dataDir, 0o755);
  const long = html(`<main><article><h1>A long article</h1>${'<p>Trawling is a method of fishing that involves pulling a net through the water behind boats, and this paragraph says so at length.</p>'.repeat(800)}<p>${LONG_END}</p></article></main>`);
  site = await startFixtureServer({
    '/article': (_q, res) => void res.writeHead(200, { 'content-type': 'text/html' }).end(ARTICLE),
    '/long': (_q, res) => void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(long),
    '/hold': (_q, res) => void held.push(res), // answered only when the test ends: keeps a call in flight
  });
  running = await npmStart();
  apiKey = (JSON.parse(await cli('accounts:create', '--name', 'Signals', '--plan', 'pro')) as { apiKey: string }).apiKey;
});

afterAll(async () => {
  for (const res of held) res.destroy();
  if (running && running.npm.exitCode === null && running.npm.signalCode === null) {
    process.kill(-running.npm.pid!, 'SIGTERM');
    await running.exited;
  }
  await site?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe('npm start, stopped and restarted at a terminal', () => {
  it('formats a page over 64 KiB on the default extraction thread', async () => {
    expect(readFileSync(`${REPO_ROOT}/dist/libs/extraction/src/pool-worker.js`).length).toBeGreaterThan(0);
    const res = await fetch(`${running!.baseUrl}/crawl?urls=${encodeURIComponent(`${site.url}/long`)}&page_text=true`, { headers: { 'x-api-key': apiKey } });
    const body = (await res.json()) as { credits: number; results: Array<{ markdown?: string; page_text?: string; error?: string }> };
    expect(res.status).toBe(200);
    expect(body.results[0].error).toBeUndefined();
    expect(body.results[0].markdown).toContain(LONG_END);
    expect(body.results[0].page_text).toContain(LONG_END);
    expect(body.credits).toBe(1);
  });

  it('refuses a second instance on the busy port with a clear exit, leaving the first one and its services running', async () => {
    const port = new URL(running!.baseUrl).port;
    const second = spawn(process.execPath, [`${REPO_ROOT}/dist/apps/standalone/src/main.js`], { cwd: REPO_ROOT, env: { ...userEnv(), PORT: port }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    second.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    second.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => second.once('exit', resolve));
    expect(code).toBe(1);
    expect(output).toContain(`Port ${port} on 127.0.0.1 is already in use: set PORT to a free port`);
    const { pid, postgresPid, redisPid } = services();
    expect([alive(pid), alive(postgresPid), alive(redisPid)]).toEqual([true, true, true]);
    const res = await fetch(`${running!.baseUrl}/crawl?urls=${encodeURIComponent(`${site.url}/article`)}`, { headers: { 'x-api-key': apiKey } });
    expect(res.status).toBe(200);
  });

  it('shuts down in order on Ctrl-C within 15 s, and queued work survives the restart in the append-only file', async () => {
    // A job waiting in the local Redis (delayed an hour: nothing takes it meanwhile).
    const before = services();
    const connection = new Redis(before.redisUrl, { maxRetriesPerRequest: null });
    const queue = new Queue('trawl-http', { connection, prefix: 'trawl' });
    await queue.add('crawl.page', { url: `${site.url}/article` }, { jobId: 'survives-restart', delay: 3_600_000 });
    await queue.close();
    connection.disconnect();

    const started = Date.now();
    ctrlC(running!);
    const exit = await running!.exited;
    await pollUntil(() => !alive(before.pid) && !alive(before.postgresPid) && !alive(before.redisPid), 'Trawl, Postgres and Redis to stop', 15_000, 100);
    expect(Date.now() - started).toBeLessThan(15_000);
    // One Ctrl-C is one ordered shutdown, though Trawl receives it from the terminal and from npm.
    expect(running!.output()).toContain('SIGINT: shutting down');
    expect(running!.output()).not.toContain('exiting now');
    expect(exit).toBe(0);

    running = await npmStart();
    const after = services();
    const reconnected = new Redis(after.redisUrl, { maxRetriesPerRequest: null });
    const reopened = new Queue('trawl-http', { connection: reconnected, prefix: 'trawl' });
    try {
      const job = await reopened.getJob('survives-restart');
      expect(job?.data).toEqual({ url: `${site.url}/article` });
      await job?.remove();
    } finally {
      await reopened.close();
      reconnected.disconnect();
    }
  });

  it('exits at once on a second Ctrl-C while the first shutdown waits for a call in flight, stopping its services', async () => {
    const { pid, postgresPid, redisPid } = services();
    const inFlight = fetch(`${running!.baseUrl}/crawl?urls=${encodeURIComponent(`${site.url}/hold`)}`, { headers: { 'x-api-key': apiKey } }).catch(() => null);
    await pollUntil(() => held.length > 0, 'the call to reach the held page');
    ctrlC(running!);
    await pollUntil(() => running!.output().includes('SIGINT: shutting down'), 'the first Ctrl-C');
    // The shutdown now waits for the call in flight; a person presses Ctrl-C again.
    await new Promise((resolve) => setTimeout(resolve, 1_000).unref());
    expect(running!.npm.exitCode ?? running!.npm.signalCode).toBeNull();
    const second = Date.now();
    ctrlC(running!);
    await running!.exited;
    await pollUntil(() => !alive(pid) && !alive(postgresPid) && !alive(redisPid), 'Trawl, Postgres and Redis to stop', 10_000, 100);
    expect(Date.now() - second).toBeLessThan(10_000);
    expect(running!.output()).toContain('SIGINT again: exiting now');
    await inFlight;
  });
});
