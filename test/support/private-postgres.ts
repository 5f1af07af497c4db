/**
 * A Postgres server of the test's own (initdb in a temp dir, its own port), so a test can stop and restart it
 * without touching the shared one. Postgres refuses to run as root: when the test runs as root, the cluster belongs
 * to the `postgres` user and every server process runs as that user (spawn's uid/gid, no su/runuser wrapper, so the
 * postmaster is our direct child and a kill reaches it).
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { chownSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { freePort } from './free-port.js';
import { pollUntil } from './poll.js';

const run = promisify(execFile);

export interface PrivatePostgres {
  /** Superuser URL of the `postgres` database (trust authentication). */
  adminUrl: string;
  port: number;
  /** The postmaster's pid (a new one after each restart). */
  pid(): number;
  /**
   * Stops the server: `fast` disconnects every client and shuts down cleanly, `immediate` is a crash (recovery
   * replays the WAL at the next start).
   */
  stop(mode?: 'fast' | 'immediate'): Promise<void>;
  /** Starts the server again on the same port and data directory and waits until it accepts queries. */
  start(): Promise<void>;
  /** Stops the server and removes the cluster; safe to call twice and after a failed start. */
  close(): Promise<void>;
}

/** The directory of the Postgres binaries: PG_BIN, else the newest /usr/lib/postgresql/<n>/bin. */
function binDir(): string {
  const fromEnv = process.env.PG_BIN;
  if (fromEnv) return fromEnv;
  for (const version of [17, 16, 15, 14]) {
    const dir = `/usr/lib/postgresql/${version}/bin`;
    if (existsSync(`${dir}/initdb`)) return dir;
  }
  throw new Error('No Postgres server binaries (initdb) found: install postgresql or set PG_BIN');
}

/** uid/gid to run the server as: ours, or the `postgres` user's when we are root. */
function serverUser(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((l) => l.startsWith('postgres:'));
  if (!line) throw new Error('Running as root and there is no `postgres` user to run a private Postgres as');
  const [, , uid, gid] = line.split(':');
  return { uid: Number(uid), gid: Number(gid) };
}

async function accepts(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

export async function startPrivatePostgres(options: { port?: number } = {}): Promise<PrivatePostgres> {
  const bin = binDir();
  const user = serverUser();
  const port = options.port ?? (await freePort());
  const dir = mkdtempSync(path.join(tmpdir(), 'trawl-pg-'));
  const data = path.join(dir, 'data');
  if (user) chownSync(dir, user.uid, user.gid);
  const adminUrl = `postgresql://postgres@127.0.0.1:${port}/postgres`;
  let child: ChildProcess | undefined;
  let log = '';

  const stop = async (mode: 'fast' | 'immediate' = 'fast') => {
    if (!child) return;
    const c = child;
    child = undefined;
    if (c.exitCode === null && c.signalCode === null) {
      const exited = once(c, 'exit');
      c.kill(mode === 'fast' ? 'SIGINT' : 'SIGQUIT');
      await exited;
    }
  };
  const start = async () => {
    log = '';
    // Durability settings off: this cluster lives for one test file; a restart here is a process restart, not an OS crash.
    const c = spawn(
      `${bin}/postgres`,
      ['-D', data, '-p', String(port), '-k', dir, '-c', 'listen_addresses=127.0.0.1', '-c', 'fsync=off', '-c', 'full_page_writes=off', '-c', 'max_connections=200'],
      { stdio: ['ignore', 'pipe', 'pipe'], ...(user ?? {}) },
    );
    child = c;
    c.stdout!.on('data', (chunk: Buffer) => (log = (log + chunk.toString()).slice(-4000)));
    c.stderr!.on('data', (chunk: Buffer) => (log = (log + chunk.toString()).slice(-4000)));
    let failed: Error | undefined;
    c.once('error', (error) => (failed = error));
    c.once('exit', (code) => (failed ??= new Error(`postgres on ${port} exited (${code}): ${log}`)));
    await pollUntil(async () => {
      if (failed) throw failed;
      return accepts(adminUrl);
    }, `the private Postgres on ${port} to accept queries`, 30_000, 100);
  };
  const close = async () => {
    await stop('immediate');
    rmSync(dir, { recursive: true, force: true });
  };

  try {
    await run(`${bin}/initdb`, ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync', '--no-instructions'], { ...(user ?? {}) });
    await start();
  } catch (error) {
    await close();
    throw error;
  }
  return { adminUrl, port, pid: () => child?.pid ?? -1, stop, start, close };
}
