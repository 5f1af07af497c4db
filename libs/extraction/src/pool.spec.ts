import { afterEach, describe, expect, it } from '@jest/globals';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { toolPresent } from '#test/support/requires.js';
import { compressionBombPdf, pdf } from '#test/support/documents.js';
import { ExtractionPool, LOOP_BUSY_OFF, LOOP_BUSY_ON } from './pool.js';

const formats = { raw_html: false, enhanced_html: false, markdown: true, page_text: true };
const html = `<html><body><article><h1>Pool</h1>${'<p>Some article text, with commas, long enough to be the main content of this page.</p>'.repeat(4)}</article></body></html>`;
// Workers cannot load TypeScript: the threaded path runs against the compiled build when it exists.
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const compiledWorker = path.join(repoRoot, 'dist/libs/extraction/src/pool-worker.js');

describe('ExtractionPool', () => {
  it('runs inline with threads: 0', async () => {
    const pool = new ExtractionPool({ threads: 0 });
    const page = await pool.format(html, { url: 'https://e.example/', formats });
    expect(page.markdown).toContain('# Pool');
    expect(page.page_text).toContain('Some article text');
    await pool.close();
    await expect(pool.format(html, { url: 'https://e.example/', formats })).rejects.toThrow('closed');
  });

  it('refuses to start threads without a compiled worker script', () => {
    expect(() => new ExtractionPool({ threads: 1, workerUrl: pathToFileURL('/nonexistent/pool-worker.js') })).toThrow('worker script not found');
  });

  const built = toolPresent(existsSync(compiledWorker), 'ExtractionPool on worker threads', `${compiledWorker} is absent (run npm run build)`);
  (built ? it : it.skip)('formats pages on worker threads, concurrently (compiled build)', async () => {
    const pool = new ExtractionPool({ threads: 2, workerUrl: pathToFileURL(compiledWorker), markdownConverter: 'turndown', inlineBelowChars: 0 });
    try {
      const pages = await Promise.all(Array.from({ length: 6 }, (_, i) => pool.format(html.replace('Pool', `Pool ${i}`), { url: 'https://e.example/', formats })));
      pages.forEach((p, i) => expect(p.markdown).toContain(`# Pool ${i}`));
    } finally {
      await pool.close();
    }
  });

  (built ? it : it.skip)('parses documents on a thread; one past its deadline costs that thread, and the next document and page still work (compiled build)', async () => {
    const pool = new ExtractionPool({ threads: 1, workerUrl: pathToFileURL(compiledWorker) });
    const options = { url: 'https://e.example/report.pdf', formats };
    try {
      const report = await pdf({ title: 'Thread Report', pages: [['Parsed off the event loop, on a thread.']] });
      // 50 ms: far less than the parser takes to reach the bomb's runs-of-text limit (TOO_LARGE, about 300 ms on this
      // machine), so the deadline ends it, whatever the machine's speed.
      const bomb = pool.formatDocument({ kind: 'pdf', bytes: compressionBombPdf(256 * 1024 * 1024) }, options, Date.now() + 50);
      // Sent behind the bomb: it waits in the same thread's port, and is given back to the new thread when that one is replaced.
      const after = pool.formatDocument({ kind: 'pdf', bytes: report }, options, Date.now() + 20_000);
      await expect(bomb).rejects.toMatchObject({ code: 'TIMEOUT' });
      expect((await after).markdown).toContain('Parsed off the event loop, on a thread.');
      expect((await after).metadata).toMatchObject({ title: 'Thread Report', pages: 1 });
      await expect(pool.formatDocument({ kind: 'pdf', bytes: Buffer.from('%PDF-1.7\nno\n') }, options, Date.now() + 5_000)).rejects.toMatchObject({ code: 'UNSUPPORTED_CONTENT' });
      expect((await pool.format(html, { url: 'https://e.example/', formats })).markdown).toContain('# Pool');
    } finally {
      await pool.close();
    }
  });

  describe('with a stand-in worker (a data: URL script that answers with what it was sent)', () => {
    // `slow:<ms>` keeps the thread busy that long, `die` ends it; every answer says it came from a thread.
    const worker = new URL(
      `data:text/javascript,${encodeURIComponent(`
        import { parentPort } from 'node:worker_threads';
        parentPort.on('message', ({ id, html }) => {
          if (html === 'die') process.exit(3);
          const slow = /^slow:(\\d+)/.exec(html);
          if (slow) { const until = Date.now() + Number(slow[1]); while (Date.now() < until); }
          parentPort.postMessage({ id, page: { markdown: 'thread:' + html } });
        });`)}`,
    );
    const small = html;
    const big = `${html}${' '.repeat(2_000)}`;
    const pools: ExtractionPool[] = [];
    const open = (options: Partial<ConstructorParameters<typeof ExtractionPool>[0]> = {}) => {
      const pool = new ExtractionPool({ threads: 1, workerUrl: worker, inlineBelowChars: 1_000, ...options });
      pools.push(pool);
      return pool;
    };
    const where = async (pool: ExtractionPool, page: string) => ((await pool.format(page, { url: 'https://e.example/', formats })).markdown?.startsWith('thread:') ? 'thread' : 'inline');
    afterEach(async () => {
      await Promise.all(pools.splice(0).map((pool) => pool.close()));
    });

    it('formats small pages inline while the event loop has time, on a thread while it is busy, with hysteresis', async () => {
      let utilization = 0.1;
      const pool = open({ loopUtilization: () => utilization });
      expect(await where(pool, small)).toBe('inline');
      expect(await where(pool, big)).toBe('thread');
      utilization = LOOP_BUSY_ON;
      expect(await where(pool, small)).toBe('thread');
      // Still busy until the loop falls below the lower mark.
      utilization = (LOOP_BUSY_ON + LOOP_BUSY_OFF) / 2;
      expect(await where(pool, small)).toBe('thread');
      utilization = LOOP_BUSY_OFF - 0.01;
      expect(await where(pool, small)).toBe('inline');
      utilization = (LOOP_BUSY_ON + LOOP_BUSY_OFF) / 2;
      expect(await where(pool, small)).toBe('inline');
    });

    it("times each page from its own start: two pages sent together each get the whole limit", async () => {
      // Each page takes 70 % of the limit: the second one would time out if its clock started when it was sent (the
      // 600 ms left of slack is for a loaded machine starting the thread).
      const pool = open({ taskTimeoutMs: 2000, inlineBelowChars: 0 });
      const pages = await Promise.all(['slow:1400', 'slow:1400'].map((page) => pool.format(page, { url: 'https://e.example/', formats })));
      expect(pages.map((p) => p.markdown)).toEqual(['thread:slow:1400', 'thread:slow:1400']);
      await expect(pool.format('slow:2600', { url: 'https://e.example/', formats })).rejects.toThrow('timed out after 2000 ms');
    });

    it('fails only the page a worker died on; the page sent behind it runs on the replacement', async () => {
      const pool = open({ inlineBelowChars: 0 });
      const [died, after] = await Promise.allSettled(['die', 'slow:1'].map((page) => pool.format(page, { url: 'https://e.example/', formats })));
      expect(died).toMatchObject({ status: 'rejected', reason: expect.objectContaining({ message: expect.stringContaining('exited with code 3') }) });
      expect(after).toEqual({ status: 'fulfilled', value: { markdown: 'thread:slow:1' } });
      expect(await where(pool, big)).toBe('thread');
    });
  });
});
