/**
 * Does the worker-thread pool pay off? Formats every Zyte page (markdown + text) with ExtractionPool at
 * threads 0 (inline), 1 and 2, and reports throughput and how long the main event loop was blocked
 * (monitorEventLoopDelay: p99 and max), which is what other jobs of the same crawl worker feel.
 *   npm run build && node dist/bench/extraction/pool.js
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { ExtractionPool } from '#extraction';
import { corpusRoot, loadZyte } from '#extraction/scoring/corpus.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const pages = loadZyte(corpusRoot(repoRoot));
if (!pages) {
  console.log('corpus absent');
  process.exit(0);
}
const formats = { raw_html: false, enhanced_html: true, markdown: true, page_text: true };

async function measure(threads: number, inFlight: number): Promise<void> {
  const pool = new ExtractionPool({ threads });
  // warm-up (JIT, wasm init in each worker)
  await Promise.all(pages!.slice(0, 10).map((p) => pool.format(p.html, { url: p.url, formats })));
  const h = monitorEventLoopDelay({ resolution: 1 });
  h.enable();
  const t = performance.now();
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < pages!.length) {
      const p = pages![next++];
      await pool.format(p.html, { url: p.url, formats });
      // what a worker serving other jobs does between pages: yield to the loop
      await new Promise((r) => setImmediate(r));
    }
  };
  await Promise.all(Array.from({ length: inFlight }, lane));
  const ms = performance.now() - t;
  h.disable();
  await pool.close();
  console.log(
    `  threads ${threads}, ${inFlight} in flight: ${(pages!.length / (ms / 1000)).toFixed(0)} pages/s, ` +
      `event-loop delay p50 ${(h.percentile(50) / 1e6).toFixed(1)} ms, p99 ${(h.percentile(99) / 1e6).toFixed(1)} ms, max ${(h.max / 1e6).toFixed(1)} ms`,
  );
}

console.log(`## ExtractionPool on ${pages.length} Zyte pages (enhanced_html + markdown + text)`);
for (const [threads, inFlight] of [[0, 1], [0, 4], [1, 4], [2, 4]] as const) await measure(threads, inFlight);
