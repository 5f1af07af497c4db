/**
 * A redis-server of the test's own — own port, own temp dir — so a test can kill and restart it without touching the
 * shared Redis. Without persistence (the default) a restart comes back empty, as a crashed Redis without AOF does;
 * with `aof`, every write is appended and fsynced before it is acknowledged (appendfsync always), so a SIGKILL and a
 * restart keep every acknowledged write, as a Redis deployed with AOF does.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from './free-port.js';
import { pollUntil } from './poll.js';

export interface PrivateRedis {
  url: string;
  port: number;
  /** The running server's pid (a new one after each restart). */
  pid(): number;
  /** SIGKILLs the server (as a crash would) and waits for it to exit. */
  kill(): Promise<void>;
  /** Starts the server again on the same port and waits until it answers PING. */
  start(): Promise<void>;
  /** Kills the server and removes its directory; safe to call twice and after a failed start. */
  close(): Promise<void>;
}

/** PING over a raw socket: no client library, so nothing to reconnect or close afterwards. */
function ping(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = new Socket();
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1_000, () => done(false));
    socket.once('error', () => done(false));
    socket.once('data', (data) => done(data.toString().startsWith('+PONG')));
    socket.connect(port, '127.0.0.1', () => socket.write('PING\r\n'));
  });
}

export async function startPrivateRedis(options: { port?: number; aof?: boolean } = {}): Promise<PrivateRedis> {
  const port = options.port ?? (await freePort());
  const dir = mkdtempSync(path.join(tmpdir(), 'trawl-redis-'));
  let child: ChildProcess | undefined;

  const exited = (c: ChildProcess) => (c.exitCode !== null || c.signalCode !== null ? Promise.resolve() : once(c, 'exit').then(() => undefined));
  const kill = async () => {
    if (!child) return;
    const c = child;
    child = undefined;
    if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    await exited(c);
  };
  const start = async () => {
    const persistence = options.aof ? ['--appendonly', 'yes', '--appendfsync', 'always'] : ['--appendonly', 'no'];
    const c = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', ...persistence, '--protected-mode', 'no'], {
      stdio: 'ignore',
    });
    child = c;
    let failed: Error | undefined;
    c.once('error', (error) => (failed = error));
    c.once('exit', (code) => (failed ??= new Error(`redis-server on ${port} exited (${code})`)));
    await pollUntil(async () => {
      if (failed) throw failed;
      return ping(port);
    }, `the private redis-server on ${port} to answer`, 15_000, 50);
  };
  const close = async () => {
    await kill();
    rmSync(dir, { recursive: true, force: true });
  };

  try {
    await start();
  } catch (error) {
    await close();
    throw error;
  }
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    pid: () => child?.pid ?? -1,
    kill,
    start,
    close,
  };
}
