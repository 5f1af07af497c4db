/**
 * Where /headful-browser screenshots go: a `ScreenshotStore` takes a PNG and returns the key it is stored under.
 * The default keeps files under DATA_DIR/screenshots, served by the gateway behind expiring signed links
 * (screenshot-links.ts); a cleaner deletes files older than the link lifetime. Workers and gateways share the
 * directory (one process in `npm start`; a shared volume when they run apart).
 */
import { randomUUID } from 'node:crypto';
import { mkdir, readdir, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';

export interface ScreenshotStore {
  /** Stores a PNG; returns its key (`<uuid>.png`). */
  put(png: Buffer): Promise<string>;
}

export const SCREENSHOT_STORE = Symbol('SCREENSHOT_STORE');

const KEY = /^[0-9a-f-]{36}\.png$/;

export class LocalScreenshotStore implements ScreenshotStore {
  constructor(readonly dir: string) {}

  async put(png: Buffer): Promise<string> {
    await mkdir(this.dir, { recursive: true });
    const key = `${randomUUID()}.png`;
    await writeFile(path.join(this.dir, key), png, { mode: 0o600 });
    return key;
  }

  /** The file of a well-formed key (never a path outside the store), or null. */
  pathOf(key: string): string | null {
    return KEY.test(key) ? path.join(this.dir, key) : null;
  }

  /** Deletes stored screenshots older than `maxAgeMs`; returns how many. */
  async deleteOlderThan(maxAgeMs: number, now = Date.now()): Promise<number> {
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch {
      return 0;
    }
    let deleted = 0;
    for (const name of names) {
      if (!KEY.test(name)) continue;
      const file = path.join(this.dir, name);
      const info = await stat(file).catch(() => null);
      if (info && now - info.mtimeMs > maxAgeMs) {
        await rm(file, { force: true });
        deleted++;
      }
    }
    return deleted;
  }
}

export const screenshotDir = (dataDir: string) => path.resolve(dataDir, 'screenshots');
