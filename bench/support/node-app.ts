/** A Trawl app from the build (`dist/apps/<app>/src/main.js`) as a child process, ready once its stdout says so. */
import { spawn, type ChildProcess } from 'node:child_process';

export interface NodeApp {
  pid: number;
  /**
   * The first match of the readiness pattern in the app's stdout (e.g. the URL it listens on); rejects when the app
   * exits first or is not ready within the timeout. The caller stops the app then.
   */
  ready: Promise<RegExpExecArray>;
  /** SIGTERM, then SIGKILL after 10 s. Idempotent; also for an app not ready yet. */
  stop(): Promise<void>;
}

/**
 * Spawns `node [nodeArgs] entry` with `env` added to this process's (stderr passed through) and returns at once, so
 * the caller can stop it even while it starts.
 */
export function spawnNodeApp(entry: string, env: Record<string, string>, readyPattern: RegExp, nodeArgs: string[] = [], timeoutMs = 60_000): NodeApp {
  const child = spawn(process.execPath, [...nodeArgs, entry], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  const ready = new Promise<RegExpExecArray>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${entry} did not become ready within ${timeoutMs / 1000} s: ${output.slice(-1000)}`)), timeoutMs);
    const onData = (chunk: Buffer): void => {
      output = (output + chunk.toString()).slice(-4000);
      const m = readyPattern.exec(output);
      if (m) {
        clearTimeout(timer);
        child.stdout!.off('data', onData);
        child.stdout!.resume();
        resolve(m);
      }
    };
    child.stdout!.on('data', onData);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`${entry} exited (${code ?? signal}) before it was ready: ${output.slice(-1000)}`));
    });
  });
  ready.catch(() => undefined); // handled by whoever awaits it; an app stopped while starting is no error
  let stopped: Promise<void> | undefined;
  return { pid: child.pid!, ready, stop: () => (stopped ??= stopChild(child)) };
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}
