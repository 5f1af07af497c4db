import { describe, expect, it } from '@jest/globals';
import { mkdtempSync, utimesSync, existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ScreenshotLinks } from './screenshot-links.js';
import { LocalScreenshotStore } from './screenshot-store.js';

describe('ScreenshotLinks', () => {
  it('signs a key with an expiry; the link verifies until then, tampering never does', () => {
    let now = 1_000_000;
    const links = new ScreenshotLinks('k'.repeat(32), 60_000, () => now);
    const link = links.sign('a.png');
    const { searchParams } = new URL(link, 'http://x');
    const expires = searchParams.get('expires')!;
    const signature = searchParams.get('signature')!;
    expect(link.startsWith('/screenshots/a.png?')).toBe(true);
    expect(links.verify('a.png', expires, signature)).toBe('ok');
    expect(links.verify('b.png', expires, signature)).toBe('invalid');
    expect(links.verify('a.png', String(Number(expires) + 1000), signature)).toBe('invalid');
    expect(links.verify('a.png', expires, signature.replace(/^./, (c) => (c === '0' ? '1' : '0')))).toBe('invalid');
    expect(links.verify('a.png', undefined, signature)).toBe('invalid');
    expect(new ScreenshotLinks('z'.repeat(32), 60_000, () => now).verify('a.png', expires, signature)).toBe('invalid');
    now += 61_000;
    expect(links.verify('a.png', expires, signature)).toBe('expired');
  });
});

describe('LocalScreenshotStore', () => {
  it('stores PNGs under opaque keys, resolves only well-formed keys, deletes old files', async () => {
    const store = new LocalScreenshotStore(path.join(mkdtempSync(path.join(os.tmpdir(), 'trawl-shots-')), 'screenshots'));
    const fresh = await store.put(Buffer.from('png'));
    const old = await store.put(Buffer.from('png'));
    expect(fresh).toMatch(/^[0-9a-f-]{36}\.png$/);
    expect(store.pathOf('../../etc/passwd')).toBeNull();
    expect(store.pathOf('x.png')).toBeNull();
    const oldFile = store.pathOf(old)!;
    utimesSync(oldFile, new Date(Date.now() - 120_000), new Date(Date.now() - 120_000));
    expect(await store.deleteOlderThan(60_000)).toBe(1);
    expect(existsSync(oldFile)).toBe(false);
    expect(existsSync(store.pathOf(fresh)!)).toBe(true);
  });
});
