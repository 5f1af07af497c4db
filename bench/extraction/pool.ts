/**
 * Does the worker-thread pool pay off? Formats every Zyte page (markdown + text) with ExtractionPool at
 * threads 0 (inline), 1 and 2, and reports throughput and how long the main event loop was blocked
 * (monitorEventLoopDelay: p99 and max), which is what other jobs of the same crawl worker feel.
 * `--small`: instead, what a page costs on a thread against inline for the small page of `bench:crawl` (1.6 KB),
 * 32 at a time on one thread — the hop's price (wall time per page, and the process's CPU per page).
 *   npm run build && node dist/bench/extraction/pool.js [--small]
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { ExtractionPool } from '#extraction';
import { corpusRoot, loadZyte } from './scoring/corpus.js';
import { SMALL_PAGE } from '../support/small-page.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

if (process.argv.includes('--small')) {
  const options = { url: 'http://127.0.0.1/page', formats: { raw_html: false, enhanced_html: true, markdown: true, page_text: false } };
  const count = 20_000;
  console.log(`## The small page (${SMALL_PAGE.length} characters), ${count} times, 32 at a time`);
  // Inline: the loop reported idle, so the small page never leaves it. On the thread: every page goes there.
  for (const [label, inlineBelowChars] of [['inline', Infinity], ['on 1 thread', 0]] as const) {
    const pool = new ExtractionPool({ threads: 1, inlineBelowChars, loopUtilization: () => 0 });
    const run = async (n: number): Promise<void> => {
      let started = 0;
      const lane = async (): Promise<void> => {
        while (started++ < n) await pool.format(SMALL_PAGE, options);
      };
      await Promise.all(Array.from({ length: 32 }, lane));
    };
    await run(3_000); // warm-up
    const cpu = process.cpuUsage();
    const t = performance.now();
    await run(count);
    const wallUs = ((performance.now() - t) * 1000) / count;
    const used = process.cpuUsage(cpu);
    await pool.close();
    console.log(`  ${label}: ${wallUs.toFixed(0)} µs a page, CPU ${((used.user + used.system) / count).toFixed(0)} µs a page (system ${(used.system / count).toFixed(0)})`);
  }
  process.exit(0);
}

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
