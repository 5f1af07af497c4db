/**
 * Text recovery from documents with a known text: corpus page texts (the Zyte benchmark's article bodies, read with
 * the extraction scoring's loaders) are set as PDFs in one column and in two, and as DOCX (bench/documents/generate.ts),
 * then read back through formatDocument — the crawl's own path, inline. Reported per kind: word F1 of the page text
 * against the text that was set (bag of words, as the WCXB score), 4-gram shingle F1 (sensitive to reading order: two
 * columns read across would break it), and pages/s. Goal: word F1 ≥ 0.98 on the generated PDFs.
 *
 *   npm run build && npm run bench:documents [-- --pages 40]
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { formatDocument, type DocumentLimits } from '#extraction';
import { corpusRoot, loadZyte } from '../extraction/scoring/corpus.js';
import { shingleScore, wordScore } from '../extraction/scoring/metrics.js';
import { docxOf, drawable, pdfOf } from './generate.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const arg = process.argv.indexOf('--pages');
const count = arg >= 0 ? Number(process.argv[arg + 1]) : 40;

interface Tally {
  word: number;
  shingle: number;
  docs: number;
  pages: number;
  ms: number;
}

async function main(): Promise<void> {
  const corpus = loadZyte(corpusRoot(repoRoot));
  if (!corpus) throw new Error('The Zyte corpus is absent (../shared/corpus/extraction)');
  const formats = { raw_html: false, enhanced_html: false, markdown: false, page_text: true };
  const tallies = new Map<string, Tally>();
  const limits = (): DocumentLimits => ({ maxPages: 10_000, maxUnpackedBytes: 1 << 30, deadline: Date.now() + 60_000 });
  const worst: { kind: string; id: string; f1: number }[] = [];
  for (const page of corpus.slice(0, count)) {
    const paragraphs = await drawable(page.truth.split(/\n+/));
    if (paragraphs.length === 0) continue;
    const truth = paragraphs.join('\n');
    const title = `Page ${page.id}`;
    const kinds: [string, 'pdf' | 'docx', () => Promise<{ bytes: Uint8Array; pages: number }>][] = [
      ['pdf, one column', 'pdf', () => pdfOf(title, paragraphs, 1)],
      ['pdf, two columns', 'pdf', () => pdfOf(title, paragraphs, 2)],
      ['docx', 'docx', async () => ({ bytes: await docxOf(title, paragraphs), pages: 1 })],
    ];
    for (const [name, kind, make] of kinds) {
      const doc = await make();
      const started = performance.now();
      const formatted = await formatDocument({ kind, bytes: doc.bytes }, { url: `https://bench.example/${page.id}`, formats }, limits());
      const ms = performance.now() - started;
      const text = formatted.page_text ?? '';
      const word = wordScore(truth, text).f1;
      const tally = tallies.get(name) ?? { word: 0, shingle: 0, docs: 0, pages: 0, ms: 0 };
      tally.word += word;
      const shingles = shingleScore(truth, text);
      tally.shingle += shingles.precision + shingles.recall > 0 ? (2 * shingles.precision * shingles.recall) / (shingles.precision + shingles.recall) : 0;
      tally.docs++;
      tally.pages += doc.pages;
      tally.ms += ms;
      tallies.set(name, tally);
      worst.push({ kind: name, id: page.id, f1: word });
    }
  }
  console.log(`documents from ${count} corpus pages (Zyte article bodies)`);
  console.log('kind               docs  pages  word F1  shingle F1  pages/s');
  for (const [name, t] of tallies) {
    const perSecond = kindIsDocx(name) ? '—' : (t.pages / (t.ms / 1000)).toFixed(1);
    console.log(
      `${name.padEnd(18)} ${String(t.docs).padStart(4)} ${String(t.pages).padStart(6)}  ${(t.word / t.docs).toFixed(4)}   ${(t.shingle / t.docs).toFixed(4)}   ${perSecond.padStart(7)}` +
        (kindIsDocx(name) ? `  (${(t.docs / (t.ms / 1000)).toFixed(1)} docs/s)` : ''),
    );
  }
  const lowest = worst.sort((a, b) => a.f1 - b.f1).slice(0, 3);
  console.log(`lowest word F1: ${lowest.map((w) => `${w.kind} ${w.id} ${w.f1.toFixed(3)}`).join('; ')}`);
}

const kindIsDocx = (name: string): boolean => name === 'docx';

await main();
