/**
 * Zero-setup services for `npm start` and the CLI: when DATABASE_URL is unset, an embedded Postgres server with its
 * cluster in DATA_DIR (local-postgres.ts); when REDIS_URL is unset, a local `redis-server` child process with its
 * append-only file in DATA_DIR (queued work survives restarts). A second process (e.g. the CLI while `npm start`
 * runs) reuses the running services through DATA_DIR/services.json.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, Socket } from 'node:net';
import path from 'node:path';
import { startLocalPostgres } from './local-postgres.js';

export interface LocalServices {
  databaseUrl: string;
  /** Null only when the caller said it does not need Redis and none is running. */
  redisUrl: string | null;
  /** What was started here (and is stopped by stop()). */
  started: string[];
  stop(): Promise<void>;
}

interface ServicesFile {
  /** The process that started (and owns) the services. */
  pid: number;
  databaseUrl?: string;
  redisUrl?: string;
  /** The children, so an owner that died without stopping them does not leave them running forever. */
  redisPid?: number;
  postgresPid?: number;
}

/** How long a stopping service gets before it is killed. */
const STOP_GRACE_MS = 5_000;

export async function ensureLocalServices(
  options: { dataDir: string; databaseUrl?: string; redisUrl?: string; needRedis?: boolean },
  log: (message: string) => void,
): Promise<LocalServices> {
  const dataDir = path.resolve(options.dataDir);
  await mkdir(dataDir, { recursive: true });
  const stateFile = path.join(dataDir, 'services.json');
  let running = await readRunning(stateFile);
  if (running && !alive(running.pid)) {
    // Its owner died without stopping them (SIGKILL, a crash): stop the orphans rather than adopt what nobody stops.
    if (running.redisPid && alive(running.redisPid)) {
      log(`stopping the redis-server (pid ${running.redisPid}) left behind by a process that is gone`);
      await stopPid(running.redisPid);
    }
    if (running.postgresPid && alive(running.postgresPid)) {
      log(`stopping the embedded Postgres (pid ${running.postgresPid}) left behind by a process that is gone`);
      await stopPid(running.postgresPid, 'SIGINT');
    }
    await rm(stateFile, { force: true });
    running = null;
  }
  const stops: Array<() => Promise<void>> = [];
  const started: string[] = [];

  let databaseUrl = options.databaseUrl;
  if (!databaseUrl && running?.databaseUrl && (await reachable(running.databaseUrl))) databaseUrl = running.databaseUrl;
  let ownsState = false;
  let postgresPid: number | undefined;
  if (!databaseUrl) {
    if (existsSync(path.join(dataDir, 'postgres', 'PG_VERSION'))) {
      log(`${path.join(dataDir, 'postgres')} holds the embedded database of an earlier Trawl (PGlite), which is no longer used: its accounts are not carried over`);
    }
    const port = await freePort();
    log(`DATABASE_URL is not set: starting the embedded Postgres in ${path.join(dataDir, 'postgresql')} …`);
    const postgres = await startLocalPostgres(dataDir, port, log);
    databaseUrl = postgres.url;
    postgresPid = postgres.pid;
    started.push(`embedded Postgres on 127.0.0.1:${port}`);
    ownsState = true;
    stops.push(() => postgres.stop());
  }

  let redisUrl = options.redisUrl;
  let redisPid: number | undefined;
  if (!redisUrl && running?.redisUrl && (await reachable(running.redisUrl))) redisUrl = running.redisUrl;
  if (!redisUrl && options.needRedis !== false) {
    const binary = findRedisServer();
    if (!binary) {
      await Promise.all(stops.map((stop) => stop()));
      throw new Error(
        'REDIS_URL is not set and no redis-server is installed. Install Redis (Debian/Ubuntu: `sudo apt-get install redis-server`, ' +
          'macOS: `brew install redis`) or set REDIS_URL=redis://host:6379.',
      );
    }
    const port = await freePort();
    const dir = path.join(dataDir, 'redis');
    await mkdir(dir, { recursive: true });
    log(`REDIS_URL is not set: starting ${binary} on 127.0.0.1:${port} (data in ${dir}) …`);
    // Its own process group: a Ctrl-C in the terminal reaches Trawl, which stops Redis last, after the workers.
    const child = spawn(binary, ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--appendonly', 'yes', '--save', ''], {
      stdio: 'ignore',
      detached: true,
    });
    redisPid = child.pid;
    redisUrl = `redis://127.0.0.1:${port}`;
    await waitForPort(port, child);
    started.push(`redis-server on 127.0.0.1:${port}`);
    ownsState = true;
    stops.push(async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
      await exited;
      clearTimeout(timer);
    });
  }

  if (ownsState) await writeFile(stateFile, JSON.stringify({ pid: process.pid, databaseUrl, redisUrl, redisPid, postgresPid } satisfies ServicesFile));
  return {
    databaseUrl,
    redisUrl: redisUrl ?? null,
    started,
    stop: async () => {
      for (const stop of stops.reverse()) await stop().catch(() => undefined);
      if (ownsState) await rm(stateFile, { force: true });
    },
  };
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function stopPid(pid: number, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  try {
    process.kill(pid, signal);
  } catch {
    return;
  }
  const deadline = Date.now() + STOP_GRACE_MS;
  while (alive(pid) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  if (alive(pid)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone meanwhile
    }
  }
}

function findRedisServer(): string | null {
  for (const candidate of ['redis-server', '/usr/bin/redis-server', '/usr/local/bin/redis-server', '/opt/homebrew/bin/redis-server']) {
    const probe = spawnSync(candidate, ['--version'], { stdio: 'ignore' });
    if (probe.status === 0) return candidate;
  }
  return null;
}

async function readRunning(file: string): Promise<ServicesFile | null> {
  try {
    return JSON.parse(await readFile(file, 'utf8')) as ServicesFile;
  } catch {
    return null;
  }
}

async function reachable(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = new Socket();
    socket.setTimeout(500);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
    socket.connect(Number(port), hostname);
  });
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as import('node:net').AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

async function waitForPort(port: number, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`redis-server exited with code ${child.exitCode}`);
    if (await reachable(`redis://127.0.0.1:${port}`)) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('redis-server did not start within 10 s');
}
