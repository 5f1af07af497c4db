import { describe, expect, it } from '@jest/globals';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ExtractionPool } from './pool.js';

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

  (existsSync(compiledWorker) ? it : it.skip)('formats pages on worker threads, concurrently (compiled build)', async () => {
    const pool = new ExtractionPool({ threads: 2, workerUrl: pathToFileURL(compiledWorker), markdownConverter: 'turndown', inlineBelowChars: 0 });
    try {
      const pages = await Promise.all(Array.from({ length: 6 }, (_, i) => pool.format(html.replace('Pool', `Pool ${i}`), { url: 'https://e.example/', formats })));
      pages.forEach((p, i) => expect(p.markdown).toContain(`# Pool ${i}`));
    } finally {
      await pool.close();
    }
  });
});
