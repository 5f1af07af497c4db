/**
 * How fast tokens are counted and pages chunked and ranked, on corpus pages' Markdown (our own extraction), and what
 * 10 MB inputs cost (ordinary, one line, one table, one code fence, heading soup) with and without the input cap.
 * Token counting is timed against cl100k_base (same library) in interleaved rounds, so machine noise hits both.
 *   npm run build && npm run bench:chunks-speed -- [--pages=300] [--rounds=5] [--no-stress]
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { countTokens as countCl100k } from 'gpt-tokenizer/encoding/cl100k_base';
import { countTokens as countO200kRaw } from 'gpt-tokenizer/encoding/o200k_base';
import { chunkMarkdown, countTokens, scanBlocks, selectChunks } from '#chunks';
import { formatPage, type OutputFormats } from '#extraction';
import { corpusRoot, loadWcxb } from '../extraction/scoring/corpus.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const args = process.argv.slice(2);
const arg = (name: string, fallback: string) => args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
const pageCount = Number(arg('pages', '300'));
const rounds = Number(arg('rounds', '5'));

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function timeMs(fn: () => unknown): number {
  const t0 = performance.now();
  fn();
  return performance.now() - t0;
}

function main() {
  const formats = { markdown: true } as OutputFormats;
  const pages = (loadWcxb(corpusRoot(repoRoot)) ?? []).slice(0, pageCount).map((p) => formatPage(p.html, { url: p.url, formats }).markdown ?? '');
  const kb = pages.reduce((sum, md) => sum + Buffer.byteLength(md), 0) / 1024;
  console.log(`${pages.length} pages, ${(kb / 1024).toFixed(1)} MB of Markdown (median page ${(median(pages.map((p) => p.length)) / 1024).toFixed(1)} KB)`);

  const cases: Record<string, () => unknown> = {
    'count tokens, o200k_base (ours)': () => pages.forEach((md) => countTokens(md)),
    'count tokens, o200k_base, library call alone (baseline: no long-run scan)': () => pages.forEach((md) => countO200kRaw(md, { disallowedSpecial: new Set() })),
    'count tokens, cl100k_base (baseline: the other encoding)': () => pages.forEach((md) => countCl100k(md, { disallowedSpecial: new Set() })),
    'scan blocks': () => pages.forEach((md) => scanBlocks(md)),
    'chunk (256 tokens)': () => pages.forEach((md) => chunkMarkdown(md)),
    'chunk + rank + select (10 pages a call)': () => {
      for (let i = 0; i < pages.length; i += 10) selectChunks(pages.slice(i, i + 10).map((markdown, j) => ({ id: String(j), markdown })), 'price shipping returns warranty', { perPage: 3, tokenBudget: 4000 });
    },
  };
  Object.values(cases).forEach((fn) => fn()); // warm up JIT and the tokenizer's merge cache
  const times = new Map(Object.keys(cases).map((name) => [name, [] as number[]]));
  for (let r = 0; r < rounds; r++) for (const [name, fn] of Object.entries(cases)) times.get(name)!.push(timeMs(fn));
  console.log('\n| step | µs/KB (median of rounds) | ms/page |');
  console.log('|---|---|---|');
  for (const [name, ts] of times) console.log(`| ${name} | ${((1000 * median(ts)) / kb).toFixed(0)} | ${(median(ts) / pages.length).toFixed(2)} |`);

  if (args.includes('--no-stress')) return;
  const ten = 10 * 1024 * 1024;
  let ordinary = '';
  for (let i = 0; ordinary.length < ten; i++) ordinary += `${pages[i % pages.length]}\n\n`;
  const inputs: Record<string, string> = {
    'ordinary pages': ordinary.slice(0, ten),
    'one line of words': 'word '.repeat(ten / 5),
    'one table': `| a | b |\n|---|---|\n${'| cell | value |\n'.repeat(ten / 16)}`,
    'one code fence': `\`\`\`\n${'let x = 1;\n'.repeat(ten / 11)}\`\`\``,
    'heading soup': '# h\n## [a](b\n'.repeat(ten / 13),
    'pipes and dashes': '|-'.repeat(ten / 2),
  };
  console.log('\n| 10 MB input | cap | ms | chunks | heap growth MB |');
  console.log('|---|---|---|---|---|');
  for (const [name, md] of Object.entries(inputs)) {
    for (const maxChars of [undefined, 10_000_000]) {
      const heap = process.memoryUsage().heapUsed;
      let n = 0;
      const ms = timeMs(() => (n = chunkMarkdown(md, { maxChars }).length));
      console.log(`| ${name} | ${maxChars ? '10 MB' : 'default (1 MB)'} | ${ms.toFixed(0)} | ${n} | ${((process.memoryUsage().heapUsed - heap) / 1e6).toFixed(0)} |`);
    }
  }
}

main();
