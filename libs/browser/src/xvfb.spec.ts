/** The supervised Xvfb: a display of its own choosing, restarted when it dies, a clear error when it cannot start. */
import { describe, expect, it } from '@jest/globals';
import { existsSync } from 'node:fs';
import { ErrorCode, TrawlError } from '#contracts';
import { XvfbDisplay } from './xvfb.js';

const XVFB = '/usr/bin/Xvfb';

async function until(check: () => boolean, what: string, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('XvfbDisplay', () => {
  it('starts a display, restarts it after it is killed, and stops it on close', async () => {
    const xvfb = new XvfbDisplay({ xvfbPath: XVFB, restartDelayMs: 50 });
    try {
      const display = await xvfb.display();
      expect(display).toMatch(/^:\d+$/);
      expect(await xvfb.display()).toBe(display);
      expect(existsSync(`/tmp/.X11-unix/X${display.slice(1)}`)).toBe(true);
      const pid = xvfb.pid!;
      process.kill(pid, 'SIGKILL');
      await until(() => xvfb.starts === 2 && xvfb.pid !== undefined && xvfb.pid !== pid, 'a restart');
      expect(await xvfb.display()).toMatch(/^:\d+$/);
    } finally {
      await xvfb.close();
    }
    expect(xvfb.pid).toBeUndefined();
    await expect(xvfb.display()).rejects.toThrow(/shut down/);
  });

  it('uses the given DISPLAY without starting anything', async () => {
    const xvfb = new XvfbDisplay({ xvfbPath: '/nonexistent/Xvfb', display: ':42' });
    expect(await xvfb.display()).toBe(':42');
    expect(xvfb.starts).toBe(0);
  });

  it('a display that cannot start is HEADFUL_UNAVAILABLE', async () => {
    const xvfb = new XvfbDisplay({ xvfbPath: '/nonexistent/Xvfb' });
    const error = await xvfb.display().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TrawlError);
    expect((error as TrawlError).code).toBe(ErrorCode.HEADFUL_UNAVAILABLE);
    await xvfb.close();
  });
});
