/**
 * The local redis-server of `npm start`: in its own process group, stopped by its owner, and — when the owner died
 * without stopping it — stopped by the next start instead of being adopted and left running forever.
 */
import { describe, expect, it } from '@jest/globals';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pollUntil } from '#test/support/poll.js';
import { ensureLocalServices } from './local-services.js';

const hasRedis = spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status === 0;
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

(hasRedis ? describe : describe.skip)('local services', () => {
  it('starts redis-server in its own process group and stops it', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'trawl-services-'));
    const services = await ensureLocalServices({ dataDir, databaseUrl: 'postgresql://unused@127.0.0.1:1/x' }, () => undefined);
    const state = JSON.parse(await readFile(path.join(dataDir, 'services.json'), 'utf8'));
    expect(alive(state.redisPid)).toBe(true);
    const pgid = Number(spawnSync('ps', ['-o', 'pgid=', '-p', String(state.redisPid)]).stdout.toString().trim());
    expect(pgid).toBe(state.redisPid); // its own group: a terminal's Ctrl-C does not reach it
    await services.stop();
    expect(alive(state.redisPid)).toBe(false);
    await rm(dataDir, { recursive: true, force: true });
  });

  it('stops the redis-server of an owner that was killed, instead of adopting it', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'trawl-services-'));
    // An owner process that starts the services, then dies by SIGKILL (no chance to stop them).
    const owner = spawn(process.execPath, ['--input-type=module', '-e', `
      const { ensureLocalServices } = await import(${JSON.stringify(path.resolve('dist/libs/platform/src/local-services.js'))});
      await ensureLocalServices({ dataDir: ${JSON.stringify(dataDir)}, databaseUrl: 'postgresql://unused@127.0.0.1:1/x' }, () => {});
      console.log('ready');
      setInterval(() => {}, 1000);
    `], { stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise<void>((resolve) => owner.stdout.once('data', () => resolve()));
    const orphan = JSON.parse(await readFile(path.join(dataDir, 'services.json'), 'utf8'));
    owner.kill('SIGKILL');
    await new Promise((resolve) => owner.once('exit', resolve));
    expect(alive(orphan.redisPid)).toBe(true);

    const messages: string[] = [];
    const services = await ensureLocalServices({ dataDir, databaseUrl: 'postgresql://unused@127.0.0.1:1/x' }, (m) => messages.push(m));
    await pollUntil(() => !alive(orphan.redisPid), 'the orphaned redis-server to stop');
    expect(messages.join('\n')).toContain(`left behind by a process that is gone`);
    expect(services.redisUrl).not.toBe(orphan.redisUrl);
    await services.stop();
    await rm(dataDir, { recursive: true, force: true });
  });
});
