import { accessSync, constants } from 'node:fs';

/**
 * Debian's `chromium-headless-shell` package: the same Blink as `chromium`, without the desktop browser around it. The
 * binary itself, not `/usr/bin/chromium-headless-shell`: that wrapper script runs it as a child without `exec`, so a
 * signal to the process Playwright launched (a kill over the memory limit) would reach the shell script only.
 */
export const HEADLESS_SHELL_PATH = '/usr/lib/chromium/chromium-headless-shell';

function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * The Chromium binary headless rendering launches: `RENDER_CHROMIUM_PATH` when set; else the headless shell when it
 * is installed, since it renders the same pages for about 40 % less Chromium CPU per page (its browser process does
 * not run the desktop browser's services: bench/browser/render-factors.ts, variant X); else `CHROMIUM_PATH`, the
 * binary headed browsing needs anyway. Playwright's own headless default is the same shell.
 */
export function renderExecutable(configured: string | undefined, chromium: string, exists: (file: string) => boolean = isExecutable): string {
  if (configured) return configured;
  return exists(HEADLESS_SHELL_PATH) ? HEADLESS_SHELL_PATH : chromium;
}
