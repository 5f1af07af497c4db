/** A Redis outage is logged as rate-limited JSON by every connection a process holds, never as "Unhandled error event". */
import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { logTo } from './logger.js';
import { pollUntil } from '#test/support/poll.js';
import { createRedis, duplicateRedis } from './redis.js';

async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const port = (server.address() as { port: number }).port;
  server.close();
  return port;
}

/** A private redis-server without persistence, so the test can stop it. */
async function startRedis(port: number): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  const url = `redis://127.0.0.1:${port}`;
  const probe = createRedis(url, 'probe', { log: { warn: () => undefined } });
  await pollUntil(async () => (await probe.ping().catch(() => null)) === 'PONG', 'the private redis-server answers');
  probe.disconnect();
  return { url, child };
}

const cleanups: Array<() => Promise<unknown> | unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  jest.restoreAllMocks();
});

describe('Redis connection errors', () => {
  jest.setTimeout(40_000);
  it('are logged once per interval per connection, including the duplicates a job worker and a dispatcher make', async () => {
    const port = await freePort();
    const { url, child } = await startRedis(port);
    cleanups.push(() => child.exitCode === null && child.kill('SIGKILL'));
    const consoleErrors: string[] = [];
    jest.spyOn(console, 'error').mockImplementation((...args: unknown[]) => void consoleErrors.push(args.map(String).join(' ')));
    const lines: Array<{ level: number; msg: string; connection: string; suppressed: number; err: { message: string } }> = [];
    logTo({ write: (line: string) => void lines.push(JSON.parse(line)) });
    cleanups.push(() => logTo(undefined));

    // The shared connection and two duplicates, as a job worker and a dispatcher's QueueEvents make them.
    const redis = createRedis(url, 'spec-main');
    const worker = duplicateRedis(redis, 'trawl-worker-http');
    const events = duplicateRedis(redis, 'trawl-events-http');
    await Promise.all([redis, worker, events].map((connection) => connection.ping()));
    cleanups.push(() => redis.disconnect(), () => worker.disconnect(), () => events.disconnect());

    child.kill('SIGKILL');
    await once(child, 'exit');
    const connections = await pollUntil(() => {
      const names = new Set(lines.map((line) => line.connection));
      return names.size === 3 ? names : null;
    }, 'every connection logs the outage');
    expect([...connections].sort()).toEqual(['spec-main', 'trawl-events-http', 'trawl-worker-http']);
    // ioredis retries every few hundred ms; within the 30 s window each connection logs only its first error.
    for (const name of connections) expect(lines.filter((line) => line.connection === name)).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 40, msg: 'redis connection error', suppressed: 0, err: { message: expect.any(String) } });
    expect(consoleErrors.filter((line) => line.includes('Unhandled error event'))).toEqual([]);

    // Redis back on the same port: the connections recover and close cleanly.
    const restarted = await startRedis(port);
    cleanups.unshift(() => restarted.child.exitCode === null && restarted.child.kill('SIGKILL')); // stopped last
    for (const connection of [redis, worker, events]) {
      await pollUntil(async () => (await connection.ping().catch(() => null)) === 'PONG', 'every connection reconnects');
    }
  });
});
