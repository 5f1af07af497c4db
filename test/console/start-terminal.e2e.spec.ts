/**
 * The first minute in a terminal: the built standalone process under a pseudo-terminal prints a short banner (where
 * the console, the API and the docs are; how to get a first key or a one-time sign-in link) and readable log lines,
 * no JSON and no route-by-route start-up chatter; piped, it prints JSON lines, still without the chatter.
 */
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { spawn, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { REPO_ROOT, TEST_REDIS_URL } from '../support/env.js';
import { pollUntil } from '../support/poll.js';

jest.setTimeout(90_000);

const HAS_SCRIPT = spawnSync('script', ['--version']).status === 0;
let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.drop();
});

/** Runs the built standalone main (under `script` for a terminal) until it listens; its whole output then. */
async function start(terminal: boolean): Promise<{ output: string; url: string }> {
  const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: database.url, REDIS_URL: TEST_REDIS_URL, REDIS_PREFIX: `trawl-test-${randomUUID().slice(0, 8)}`, PORT: '0', HOST: '127.0.0.1', LOG_FORMAT: 'auto' };
  delete env.LOG_LEVEL;
  const main = 'node dist/apps/standalone/src/main.js';
  const child = terminal
    ? spawn('script', ['-qfec', main, '/dev/null'], { cwd: REPO_ROOT, env, stdio: ['pipe', 'pipe', 'pipe'] })
    : spawn('node', ['dist/apps/standalone/src/main.js'], { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  try {
    const url = await pollUntil(() => /Trawl is listening on (http:\/\/[\d.:]+)/.exec(output)?.[1] ?? (child.exitCode !== null ? Promise.reject(new Error(output)) : null), 'the listening line', 60_000, 50);
    await pollUntil(() => output.includes('curl -H'), 'the last hint');
    const index = (await (await fetch(`${url}/`)).json()) as { console: string };
    expect(index.console).toBe('/console/');
    return { output, url };
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}

describe('npm start in a terminal and in a pipe', () => {
  (HAS_SCRIPT ? it : it.skip)('prints a banner and readable lines at a terminal', async () => {
    const { output, url } = await start(true);
    expect(output).toContain(`Console   ${url}/console/`);
    expect(output).toContain(`Docs      ${url}/docs`);
    expect(output).toMatch(/First key +npm run trawl -- accounts:create/);
    expect(output).toMatch(/Sign in +npm run trawl -- console:link --id <account id>/);
    expect(output).not.toContain('{"level"');
    expect(output).not.toMatch(/Mapped \{|dependencies initialized/);
    expect(output.split('\n').length).toBeLessThan(25);
  });

  it('prints JSON lines without the start-up chatter when piped', async () => {
    const { output } = await start(false);
    const lines = output.trim().split('\n');
    for (const line of lines) expect(() => JSON.parse(line)).not.toThrow();
    expect(output).not.toMatch(/Mapped \{|dependencies initialized/);
    expect(lines.some((l) => JSON.parse(l).msg.startsWith('Console: http'))).toBe(true);
    expect(lines.length).toBeLessThan(15);
  });
});
