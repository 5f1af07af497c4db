/**
 * Does ranking find the passage that answers a question? recall@k (k = 1, 3, 5) and MRR of the answer chunk under
 * BM25 variants, against the baseline "the first k chunks of the page". The question set is generated from the
 * corpus pages (qa-set.ts says how); pages are turned into Markdown by our own extraction, then chunked.
 *   npm run build && npm run bench:chunks -- [--datasets=wcxb,zyte] [--limit=N] [--per-page=2] [--sizes=128,256,512]
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chunkMarkdown, rankChunks, type Chunk, type RankingOptions } from '#chunks';
import { formatPage, type OutputFormats } from '#extraction';
import { corpusRoot, loadWcxb, loadZyte } from '../extraction/scoring/corpus.js';
import { answerChunk, questionsFor, topicQuery } from './qa-set.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const args = process.argv.slice(2);
const arg = (name: string, fallback: string) => args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
const datasets = arg('datasets', 'wcxb,zyte').split(',');
const limit = Number(arg('limit', '0'));
const perPage = Number(arg('per-page', '2'));
const sizes = arg('sizes', '128,256,512').split(',').map(Number);
const KS = [1, 3, 5];

interface Page {
  id: string;
  markdown: string;
  truth: string;
}

function loadPages(): Page[] {
  const root = corpusRoot(repoRoot);
  const raw: { id: string; url: string; html: string; truth: string }[] = [];
  if (datasets.includes('wcxb')) raw.push(...(loadWcxb(root) ?? []).map((p) => ({ ...p, id: `wcxb/${p.id}` })));
  if (datasets.includes('zyte')) raw.push(...(loadZyte(root) ?? []).map((p) => ({ ...p, id: `zyte/${p.id.slice(0, 12)}` })));
  const chosen = limit > 0 ? raw.slice(0, limit) : raw;
  if (chosen.length === 0) throw new Error(`no corpus pages under ${root}`);
  const formats = { markdown: true } as OutputFormats;
  return chosen.map((p) => ({ id: p.id, truth: p.truth, markdown: formatPage(p.html, { url: p.url, formats }).markdown ?? '' }));
}

type Ranker = (chunks: Chunk[], query: string) => number[];

const bm25 = (ranking: RankingOptions): Ranker => (chunks, query) => rankChunks(chunks, query, ranking).map((c) => c.index);

const RANKERS: Record<string, Ranker> = {
  'first k chunks (baseline)': (chunks) => chunks.map((c) => c.index),
  'BM25, text only': bm25({ headingWeight: 0 }),
  'BM25, text only, no stemming': bm25({ headingWeight: 0, stem: false }),
  'BM25F, headings x1': bm25({ headingWeight: 1 }),
  'BM25F, headings x2 (default)': bm25({ headingWeight: 2 }),
  'BM25F, headings x4': bm25({ headingWeight: 4 }),
};

const QUERY_SETS = ['keywords', 'terse', 'topic'] as const;
type QuerySet = (typeof QUERY_SETS)[number];

interface Tally {
  hits: number[];
  reciprocal: number;
  n: number;
}

const tally = (): Tally => ({ hits: KS.map(() => 0), reciprocal: 0, n: 0 });

function count(t: Tally, position: number) {
  t.n++;
  t.reciprocal += 1 / (position + 1);
  KS.forEach((k, i) => (t.hits[i] += position < k ? 1 : 0));
}

/** Per query set and ranker: every located question, and those on pages of 6+ chunks (where R@5 is not a given). */
function evaluate(pages: Page[], maxTokens: number) {
  const tallies = new Map<string, { all: Tally; long: Tally }>();
  for (const set of QUERY_SETS) for (const name of Object.keys(RANKERS)) tallies.set(`${set}\u0000${name}`, { all: tally(), long: tally() });
  let asked = 0;
  let located = 0;
  let chunkCount = 0;
  for (const page of pages) {
    const chunks = chunkMarkdown(page.markdown, { maxTokens });
    chunkCount += chunks.length;
    for (const q of questionsFor(page.id, page.truth, perPage)) {
      asked++;
      const answer = answerChunk(chunks, q.sentence);
      if (answer < 0) continue;
      located++;
      const queries: Record<QuerySet, string | undefined> = { keywords: q.keywords, terse: q.terse, topic: topicQuery(q, chunks[answer].headings) };
      for (const set of QUERY_SETS) {
        const query = queries[set];
        if (query === undefined) continue;
        for (const [name, rank] of Object.entries(RANKERS)) {
          const position = rank(chunks, query).indexOf(answer);
          const t = tallies.get(`${set}\u0000${name}`)!;
          count(t.all, position);
          if (chunks.length >= 6) count(t.long, position);
        }
      }
    }
  }
  return { tallies, asked, located, chunksPerPage: chunkCount / pages.length };
}

const pct = (x: number, n: number) => (n === 0 ? '-' : `${((100 * x) / n).toFixed(1)}%`);

function main() {
  const started = performance.now();
  const pages = loadPages();
  console.log(`${pages.length} pages (${datasets.join(', ')}), up to ${perPage} questions a page; Markdown in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  for (const size of sizes) {
    const t0 = performance.now();
    const { tallies, asked, located, chunksPerPage } = evaluate(pages, size);
    console.log(`\n## chunks of at most ${size} tokens: ${chunksPerPage.toFixed(1)} chunks a page; ${located} of ${asked} sentences located in one chunk; ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    for (const set of QUERY_SETS) {
      const first = tallies.get(`${set}\u0000${Object.keys(RANKERS)[0]}`)!;
      console.log(`\n### "${set}" queries: ${first.all.n} (${first.long.n} on pages of 6+ chunks)`);
      console.log('| ranking | R@1 | R@3 | R@5 | MRR | R@1 (6+ chunks) | R@3 (6+) | R@5 (6+) |');
      console.log('|---|---|---|---|---|---|---|---|');
      for (const name of Object.keys(RANKERS)) {
        const { all, long } = tallies.get(`${set}\u0000${name}`)!;
        console.log(`| ${name} | ${all.hits.map((h) => pct(h, all.n)).join(' | ')} | ${(all.reciprocal / Math.max(1, all.n)).toFixed(3)} | ${long.hits.map((h) => pct(h, long.n)).join(' | ')} |`);
      }
    }
  }
}

main();
