/**
 * The virtual X display the headful worker's Chromium draws on: an Xvfb the worker starts and supervises itself
 * (restarted when it dies; Chromium on the dead display dies with it and the pool relaunches it on the new one), or
 * a display the operator gives in DISPLAY. Xvfb picks a free display number itself (`-displayfd`), so several
 * workers on one machine never collide.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { ErrorCode, TrawlError } from '#contracts';

export interface XvfbOptions {
  xvfbPath: string;
  /** Use this display instead of starting Xvfb. */
  display?: string;
  /** `WxHxDepth` of screen 0. */
  screen?: string;
  startTimeoutMs?: number;
  /** Wait before restarting a display that died (doubles while it keeps dying at once, up to 10 s). */
  restartDelayMs?: number;
  onEvent?: (event: { kind: 'started' | 'exited' | 'failed'; display?: string; detail?: string }) => void;
}

export class XvfbDisplay {
  private child: ChildProcess | null = null;
  private current: Promise<string> | null = null;
  private closed = false;
  private restartTimer: NodeJS.Timeout | undefined;
  private delayMs: number;
  /** How many times a display was started (restarts included). */
  starts = 0;

  constructor(private readonly opts: XvfbOptions) {
    this.delayMs = opts.restartDelayMs ?? 250;
  }

  /** The display to launch Chromium on (`:N`), starting Xvfb when none runs. Throws HEADFUL_UNAVAILABLE when it cannot start. */
  display(): Promise<string> {
    if (this.opts.display) return Promise.resolve(this.opts.display);
    if (this.closed) return Promise.reject(unavailable('the virtual display is shut down'));
    if (!this.current) {
      const starting = this.start();
      this.current = starting;
      starting.catch(() => {
        if (this.current === starting) this.current = null;
      });
    }
    return this.current;
  }

  /** The Xvfb process id (tests kill it to prove the restart). */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.restartTimer);
    const child = this.child;
    this.child = null;
    if (child && child.exitCode === null && child.signalCode === null) {
      await new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 2_000).unref();
      });
    }
  }

  private start(): Promise<string> {
    this.starts++;
    const screen = this.opts.screen ?? '1920x1080x24';
    return new Promise<string>((resolve, reject) => {
      let child: ChildProcess;
      try {
        // fd 3 receives the display number Xvfb chose.
        child = spawn(this.opts.xvfbPath, ['-displayfd', '3', '-screen', '0', screen, '-nolisten', 'tcp', '-noreset'], {
          stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
        });
      } catch (error) {
        reject(unavailable(`Xvfb could not be started (${(error as Error).message})`));
        return;
      }
      this.child = child;
      let announced = '';
      let stderr = '';
      let settled = false;
      const timer = setTimeout(() => fail('it did not report a display in time'), this.opts.startTimeoutMs ?? 10_000);
      const fail = (detail: string) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        child.kill('SIGKILL');
        this.opts.onEvent?.({ kind: 'failed', detail });
        reject(unavailable(`Xvfb could not start: ${detail}`));
      };
      child.stderr!.on('data', (chunk: Buffer) => {
        stderr = (stderr + chunk.toString()).slice(-500);
      });
      (child.stdio[3] as NodeJS.ReadableStream).on('data', (chunk: Buffer) => {
        announced += chunk.toString();
        const match = /^(\d+)\n/.exec(announced);
        if (match && !settled) {
          settled = true;
          clearTimeout(timer);
          const display = `:${match[1]}`;
          this.delayMs = this.opts.restartDelayMs ?? 250;
          this.opts.onEvent?.({ kind: 'started', display });
          resolve(display);
        }
      });
      child.once('error', (error) => fail(error.message));
      child.once('exit', (code, signal) => {
        if (!settled) {
          fail(`it exited (${signal ?? code}): ${stderr.trim().split('\n').pop() ?? ''}`);
          return;
        }
        if (this.child === child) this.child = null;
        this.current = null;
        if (this.closed) return;
        this.opts.onEvent?.({ kind: 'exited', detail: String(signal ?? code) });
        // Supervised: bring a display back before the next launch needs it.
        this.restartTimer = setTimeout(() => {
          if (!this.closed && !this.current) void this.display().catch(() => undefined);
        }, this.delayMs);
        this.restartTimer.unref();
        this.delayMs = Math.min(this.delayMs * 2, 10_000);
      });
    });
  }
}

function unavailable(detail: string): TrawlError {
  return new TrawlError(ErrorCode.HEADFUL_UNAVAILABLE, `The headful browser is unavailable: ${detail}`, 'permanent');
}
