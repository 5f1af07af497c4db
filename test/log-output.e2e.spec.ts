/**
 * What an operator reads on a process's stdout: the JSON lines of every logger, whole and in order, though they are
 * written in batches — including the lines of a process that crashes or exits right after logging them, and a line
 * logged while the process sits idle (it must not wait for the next 4 KiB).
 */
import { spawn } from 'node:child_process';
import { describe, expect, it } from '@jest/globals';
import { REPO_ROOT } from './support/env.js';
import { pollUntil } from './support/poll.js';

/** Runs `body` (ES module code with `createLogger` in scope) in a fresh Node process; collects its stdout. */
function runLogging(body: string): { lines: () => Record<string, unknown>[]; exited: Promise<number | null>; kill: () => void } {
  const code = `import { createLogger } from '${REPO_ROOT}/dist/libs/platform/src/logger.js';\n${body}`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', code], { stdio: ['ignore', 'pipe', 'ignore'] });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('close', (status) => resolve(status)));
  return {
    lines: () =>
      out
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as Record<string, unknown>),
    exited,
    kill: () => child.kill('SIGKILL'),
  };
}

describe('log lines on stdout', () => {
  it('keeps every line of every logger, in order, when the process exits right after logging', async () => {
    const run = runLogging(`
      const a = createLogger('info', 'a'), b = createLogger('info', 'b');
      for (let i = 0; i < 300; i++) (i % 2 ? b : a).info({ i }, 'line');
      process.exit(0);`);
    expect(await run.exited).toBe(0);
    expect(run.lines().map((l) => [l.name, l.i])).toEqual(Array.from({ length: 300 }, (_, i) => [i % 2 ? 'b' : 'a', i]));
  });

  it('keeps the lines logged just before an uncaught exception ends the process', async () => {
    const run = runLogging(`
      const log = createLogger('info', 'trawl');
      log.info('starting');
      log.error({ step: 2 }, 'about to fail');
      setImmediate(() => { throw new Error('boom'); });`);
    expect(await run.exited).not.toBe(0);
    expect(run.lines().map((l) => l.msg)).toEqual(['starting', 'about to fail']);
  });

  it('writes a lone line of an idle process without waiting for more lines to fill a batch', async () => {
    const run = runLogging(`
      createLogger('info', 'trawl').info('listening');
      setInterval(() => undefined, 1000);`);
    try {
      const lines = await pollUntil(() => (run.lines().length > 0 ? run.lines() : null), 'the lone line', 5_000);
      expect(lines.map((l) => l.msg)).toEqual(['listening']);
    } finally {
      run.kill();
      await run.exited;
    }
  });
});
