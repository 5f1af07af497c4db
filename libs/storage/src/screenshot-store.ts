/**
 * Where page captures go — /headful-browser and rendered screenshots (PNG), and the PDF prints of Firecrawl's `pdf`
 * action: a `ScreenshotStore` takes the bytes and returns the key they are stored under (`<uuid>.png` / `.pdf`).
 * The default keeps files under DATA_DIR/screenshots, served by the gateway behind expiring signed links
 * (screenshot-links.ts); a cleaner deletes files older than the link lifetime. Workers and gateways share the
 * directory (one process in `npm start`; a shared volume when they run apart).
 */
import { randomUUID } from 'node:crypto';
import { mkdir, readdir, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** What a store keeps: a PNG screenshot or a PDF print, by the extension of its key. */
export type CaptureKind = 'png' | 'pdf';

export const CAPTURE_TYPES: Readonly<Record<CaptureKind, string>> = { png: 'image/png', pdf: 'application/pdf' };

/** The media type of a stored capture, by its key's extension. */
export function captureType(key: string): string {
  return key.endsWith('.pdf') ? CAPTURE_TYPES.pdf : CAPTURE_TYPES.png;
}

export interface ScreenshotStore {
  /** Stores a capture (a PNG unless told otherwise); returns its key (`<uuid>.png`, `<uuid>.pdf`). */
  put(bytes: Buffer, kind?: CaptureKind): Promise<string>;
}

export const SCREENSHOT_STORE = Symbol('SCREENSHOT_STORE');

const KEY = /^[0-9a-f-]{36}\.(png|pdf)$/;

export class LocalScreenshotStore implements ScreenshotStore {
  constructor(readonly dir: string) {}

  async put(bytes: Buffer, kind: CaptureKind = 'png'): Promise<string> {
    await mkdir(this.dir, { recursive: true });
    const key = `${randomUUID()}.${kind}`;
    await writeFile(path.join(this.dir, key), bytes, { mode: 0o600 });
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
