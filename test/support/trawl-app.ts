/**
 * Trawl's apps as real processes, run from the build exactly as the containers run them (`node
 * dist/apps/<app>/src/main.js`): started, awaited until their readiness line, killed or stopped gracefully.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { REPO_ROOT } from './env.js';
import { OFFLINE_UPSTREAMS } from './offline.js';

export type TrawlAppName = 'gateway' | 'worker-http' | 'worker-render' | 'worker-headful' | 'standalone' | 'cli';

export interface TrawlApp {
  name: TrawlAppName;
  child: ChildProcess;
  pid: number;
  /** Everything the process printed (stdout and stderr), for failure messages. */
  output(): string;
  alive(): boolean;
  /** Sends `signal` (unless it already exited) and resolves with its exit code or signal once it exited. */
  stop(signal?: NodeJS.Signals): Promise<number | NodeJS.Signals | null>;
  /** Peak resident set (VmHWM, KiB) while it runs; null once it exited. */
  peakRssKiB(): number | null;
}

/** Readiness lines: the gateway prints its address, a worker that it consumes its queue. */
export const READY = {
  gateway: /gateway listening on (http:\/\/\S+)"/,
  worker: /consuming/,
  standalone: /Trawl is listening on (http:\/\/\S+) \(/,
} as const;

/** The environment every app of a deployed test Trawl shares: its database, Redis and prefix, loopback crawling on. */
export function deploymentEnv(d: { databaseUrl: string; redisUrl: string; prefix: string; dataDir: string; adminToken: string }): Record<string, string> {
  return {
    NODE_ENV: 'production',
    DATABASE_URL: d.databaseUrl,
    REDIS_URL: d.redisUrl,
    REDIS_PREFIX: d.prefix,
    DATA_DIR: d.dataDir,
    HOST: '127.0.0.1',
    PORT: '0',
    LOG_LEVEL: 'error',
    ADMIN_TOKEN: d.adminToken,
    ALLOW_PRIVATE_ADDRESSES: 'true',
    EXTRACTION_THREADS: '0',
    ...OFFLINE_UPSTREAMS,
  };
}

export function assertBuilt(...apps: TrawlAppName[]): void {
  for (const app of apps) {
    if (!existsSync(`${REPO_ROOT}/dist/apps/${app}/src/main.js`)) throw new Error(`dist/apps/${app} is missing: run \`npm run build\` (npm test does it)`);
  }
}

/** VmHWM of a live process, in KiB (null when it is gone). */
export function peakRssKiB(pid: number): number | null {
  try {
    const match = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) : null;
  } catch {
    return null;
  }
}

/** Starts an app; resolves with it and the first match of `ready` in its stdout, rejects if it exits before. */
export async function startTrawlApp(
  name: TrawlAppName,
  ready: RegExp,
  env: Record<string, string>,
  onStart?: (app: TrawlApp) => void,
): Promise<{ app: TrawlApp; match: RegExpExecArray }> {
  assertBuilt(name);
  let output = '';
  const child = spawn(process.execPath, [`${REPO_ROOT}/dist/apps/${name}/src/main.js`], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<number | NodeJS.Signals | null>((resolve) => child.once('exit', (code, signal) => resolve(signal ?? code)));
  const alive = () => child.exitCode === null && child.signalCode === null;
  const app: TrawlApp = {
    name,
    child,
    pid: child.pid ?? -1,
    output: () => output,
    alive,
    stop: async (signal = 'SIGTERM') => {
      if (alive()) child.kill(signal);
      return exited;
    },
    peakRssKiB: () => (alive() ? peakRssKiB(child.pid ?? -1) : null),
  };
  onStart?.(app);
  // Keep only the tail: a long run under load must not grow the test's memory with logs.
  const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-20_000));
  let isReady = false;
  const match = await new Promise<RegExpExecArray>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      keep(chunk);
      const m = isReady ? null : ready.exec(output);
      if (m) {
        isReady = true;
        resolve(m);
      }
    });
    child.stderr!.on('data', keep);
    void exited.then((code) => reject(new Error(`${name} exited (${code}) before it was ready: ${output.slice(-2000)}`)));
  });
  return { app, match };
}
