/** Runs a worker app as a real child process (from the compiled build), for crash and restart tests. */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { REPO_ROOT } from './env.js';

export interface WorkerProcess {
  child: ChildProcess;
  ready: Promise<void>;
  kill(signal?: NodeJS.Signals): Promise<void>;
}

export function spawnWorker(app: 'worker-http' | 'worker-render' | 'worker-headful', env: Record<string, string>): WorkerProcess {
  const entry = `${REPO_ROOT}/dist/apps/${app}/src/main.js`;
  if (!existsSync(entry)) throw new Error(`${entry} is missing: run \`npm run build\` (npm test does it)`);
  const child = spawn(process.execPath, [entry], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('consuming')) resolve();
    });
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => reject(new Error(`${app} exited early (${code}): ${output.slice(-2000)}`)));
  });
  ready.catch(() => undefined);
  return {
    child,
    ready,
    kill: (signal = 'SIGTERM') =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill(signal);
      }),
  };
}
