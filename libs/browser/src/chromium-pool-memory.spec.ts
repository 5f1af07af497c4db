// Renderer memory limits on a real Chromium: a page hoarding memory (JS objects in a timer or a tight loop,
// ArrayBuffers outside V8's heap) fails alone as TOO_LARGE while its neighbour renders; a browser past its limit is
// killed with its whole process tree and relaunched for the next job. Every hog stops by itself at HOG_CEILING_MB,
// so without the limits these tests fail (the page renders) instead of exhausting the machine.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ErrorCode } from '#contracts';
import { ChromiumPool, DEFAULT_CHROMIUM_ARGS } from './chromium-pool.js';
import { processTreeMemory } from './process-memory.js';
import { FixtureSite } from './testing/fixture-site.js';
import { pollUntil } from '#test/support/poll.js';
import { expectTrawlError as rejection } from '#test/support/trawl-error.js';
import { renderExecutable } from './render-executable.js';

// The binary worker-render launches (the headless shell when installed).
const CHROMIUM = renderExecutable(undefined, '/usr/bin/chromium');
const HOG_CEILING_MB = 1500;

/** A page that allocates `chunk` (a JS expression of about `chunkMb` MiB) every few ms until the ceiling. */
function hog(chunk: string, chunkMb: number, loop: 'timer' | 'tight'): string {
  const step = `if (hoard.length * ${chunkMb} < ${HOG_CEILING_MB}) hoard.push(${chunk});`;
  const run = loop === 'timer' ? `setInterval(() => { for (let i = 0; i < 4; i++) { ${step} } }, 10);` : `setTimeout(() => { while (hoard.length * ${chunkMb} < ${HOG_CEILING_MB}) { ${step} } }, 0);`;
  // A script that never arrives keeps the page from loading, so the render lasts until the watch acts: without it a
  // render could end (load, network quiet, capture) before the first sample on a busy machine.
  return `<!doctype html><html><body><p>hoarding</p><script>const hoard = []; ${run}</script><script src="/never.js"></script></body></html>`;
}

const JS_ARRAYS = 'new Array(1e6).fill(Math.random())'; // ~8 MiB of doubles on V8's heap
const BUFFERS = 'new Uint8Array(16 * 1024 * 1024).fill(7)'; // 16 MiB outside V8's heap (not capped by max-old-space-size)

describe('ChromiumPool memory limits, per page', () => {
  const site = new FixtureSite();
  let pool: ChromiumPool;
  let releaseSlow: () => void = () => undefined;

  beforeAll(async () => {
    await site.start();
    site
      .page('/ok', '<!doctype html><html><body><p>still serving</p></body></html>')
      .page('/hog-arrays', hog(JS_ARRAYS, 8, 'timer'))
      .page('/hog-tight', hog(JS_ARRAYS, 8, 'tight'))
      .page('/hog-buffers', hog(BUFFERS, 16, 'timer'))
      .hang('/never.js');
    site.route('/slow', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.write('<!doctype html><html><body><p>a slow neighbour</p>');
      releaseSlow = () => res.end('</body></html>');
    });
    pool = new ChromiumPool({
      executablePath: CHROMIUM, maxContexts: 2, pagesPerBrowser: 100, allowPrivateAddresses: true, maxPageMemoryMb: 300, maxBrowserMemoryMb: 0,
      // V8's own heap cap (by default the page limit) races the watch: at ~2 GB/s a renderer can die of it between two
      // samples, and such a crash is told from any other crash only by timing. Raised here, so the watch is what stops
      // every hog and the outcome does not depend on how busy the machine is.
      launchArgs: [...DEFAULT_CHROMIUM_ARGS, '--js-flags=--max-old-space-size=4096'],
    });
  });

  afterAll(async () => {
    await pool?.close();
    await site.close();
  });

  it.each(['/hog-arrays', '/hog-tight', '/hog-buffers'])('fails %s with TOO_LARGE (permanent) and keeps serving', async (path) => {
    const kills = pool.stats().memoryKills;
    const error = await rejection(pool.render({ url: site.url(path), timeoutMs: 20_000 }));
    expect(error.code).toBe(ErrorCode.TOO_LARGE);
    expect(error.kind).toBe('permanent');
    expect(error.message).toBe('The page used more than 300 MiB of memory');
    if (path === '/hog-buffers') expect(pool.stats().memoryKills).toBe(kills + 1); // V8's heap cap cannot stop buffers
    const next = await pool.render({ url: site.url('/ok'), timeoutMs: 10_000 });
    expect(next.html).toContain('still serving');
    expect(pool.stats().launches).toBe(1);
  });

  it('lets the neighbour of a killed page finish in the same browser', async () => {
    const neighbour = pool.render({ url: site.url('/slow'), timeoutMs: 20_000 });
    await site.waitForRequest('/slow');
    const error = await rejection(pool.render({ url: site.url('/hog-buffers'), timeoutMs: 20_000 }));
    expect(error.code).toBe(ErrorCode.TOO_LARGE);
    releaseSlow(); // the neighbour was mid-load all along
    expect((await neighbour).html).toContain('a slow neighbour');
    expect(pool.stats().launches).toBe(1);
    expect(pool.stats().crashes).toBe(4); // the four hog renderers, not the neighbour
  });
});

describe('ChromiumPool memory limits, per browser', () => {
  const site = new FixtureSite();

  beforeAll(async () => {
    await site.start();
    site.page('/ok', '<!doctype html><html><body><p>relaunched</p></body></html>').page('/hog-buffers', hog(BUFFERS, 16, 'timer')).hang('/never.js');
  });

  afterAll(async () => {
    await site.close();
  });

  it('kills a browser past its limit with all its processes, fails its job as RENDER_FAILED (transient), relaunches', async () => {
    const pool = new ChromiumPool({ executablePath: CHROMIUM, maxContexts: 2, pagesPerBrowser: 100, allowPrivateAddresses: true, maxPageMemoryMb: 0, maxBrowserMemoryMb: 600 });
    try {
      await pool.render({ url: site.url('/ok'), timeoutMs: 15_000 });
      const [pid] = pool.browserPids();
      const tree = processTreeMemory(pid).map((p) => p.pid);
      expect(tree.length).toBeGreaterThan(2);
      const error = await rejection(pool.render({ url: site.url('/hog-buffers'), timeoutMs: 20_000 }));
      expect(error.code).toBe(ErrorCode.RENDER_FAILED);
      expect(error.kind).toBe('transient');
      expect(error.message).toBe('Rendering failed: the browser went past its 600 MiB memory limit and was restarted');
      expect(pool.stats()).toMatchObject({ memoryKills: 1, crashes: 0 });
      // Killed once past 600 MiB; the stat is rounded to whole MiB, so a kill at 600.4 reads 600.
      expect(pool.stats().peakBrowserMb).toBeGreaterThanOrEqual(600);
      // Killed as a tree: no renderer of the old browser lives on holding its memory.
      await pollUntil(() => tree.every((p) => processTreeMemory(p).length === 0), 'the old browser tree to exit', 10_000);
      const next = await pool.render({ url: site.url('/ok'), timeoutMs: 15_000 });
      expect(next.html).toContain('relaunched');
      expect(pool.stats().launches).toBe(2);
    } finally {
      await pool.close();
    }
  });
});
