/**
 * Query-relevant passages when pages are read in different processes (each crawl worker formats its own page) and
 * one response is put together elsewhere (the gateway). The text work — chunking, token counts, term counts — runs
 * where the page is (`pageCandidates`): the page's best `perPage` chunks by BM25 within the page, each with its term
 * counts, and the page's collection statistics. Putting pages together (`selectCandidates`) is arithmetic only: the
 * statistics summed across pages, every candidate scored again against that one collection (so scores compare across
 * pages, exactly as `selectChunks` would score them), and one token budget filled highest score first.
 */
import { collectionOf, queryTerms, scoreCounts, termCounts, type CollectionStats, type RankingOptions, type TermCounts } from './bm25.js';
import { chunkMarkdown, type Chunk, type ChunkOptions } from './chunk-markdown.js';
import { SELECT_LIMITS, type ScoredChunk } from './select.js';
import { TOKEN_ENCODING } from './tokenizer.js';

/** A chunk that may be returned, with what scoring it against other pages needs. */
export interface CandidateChunk extends Chunk, TermCounts {}

export interface PageCandidates extends CollectionStats {
  /** The query's terms as analysed: the order of `df` and of each candidate's `tf`. */
  terms: string[];
  /** The page's best chunks by BM25 within the page, best first (ties: earlier on the page first). */
  top: CandidateChunk[];
}

export interface CandidateOptions {
  perPage?: number;
  chunking?: ChunkOptions;
  ranking?: RankingOptions;
}

const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, Math.floor(value)));

export function pageCandidates(markdown: string, query: string, options: CandidateOptions = {}): PageCandidates {
  const { min, max, default: fallback } = SELECT_LIMITS.perPage;
  const perPage = clamp(options.perPage ?? fallback, min, max);
  const chunks = chunkMarkdown(markdown, options.chunking);
  const terms = queryTerms(query, options.ranking);
  const counts = termCounts(chunks, terms, options.ranking);
  const stats = collectionOf(counts, terms.length);
  const scores = scoreCounts(counts, stats, options.ranking);
  const order = chunks.map((_, i) => i).sort((a, b) => scores[b] - scores[a] || a - b);
  return { terms, ...stats, top: order.slice(0, perPage).map((i) => ({ ...chunks[i], ...counts[i] })) };
}

export interface CandidateSelection {
  /** Per page, in the order given: the chunks kept, best first; an empty list for a page without candidates. */
  pages: ScoredChunk[][];
  /** Tokens across every kept chunk, never above `tokenBudget`. */
  tokens: number;
  tokenBudget: number;
  encoding: typeof TOKEN_ENCODING;
}

/** Aligns a page's term-indexed numbers with `terms` (pages of one query have the same terms; this guards the rest). */
function align(values: number[], from: string[], terms: string[]): number[] {
  if (from.length === terms.length && from.every((t, i) => t === terms[i])) return values;
  return terms.map((term) => {
    const i = from.indexOf(term);
    return i < 0 ? 0 : values[i];
  });
}

/** `pages[i]` undefined: a page that failed or had no Markdown (it keeps its place in the result, with no chunks). */
export function selectCandidates(pages: ReadonlyArray<PageCandidates | undefined>, options: { tokenBudget?: number; ranking?: RankingOptions } = {}): CandidateSelection {
  const { min, max, default: fallback } = SELECT_LIMITS.tokenBudget;
  const tokenBudget = clamp(options.tokenBudget ?? fallback, min, max);
  const terms = [...new Set(pages.flatMap((p) => p?.terms ?? []))];
  const collection: CollectionStats = { count: 0, length: 0, df: terms.map(() => 0) };
  for (const page of pages) {
    if (!page) continue;
    collection.count += page.count;
    collection.length += page.length;
    align(page.df, page.terms, terms).forEach((df, t) => (collection.df[t] += df));
  }
  const scored = pages.map((page) => {
    if (!page) return [];
    const counts = page.top.map((c) => ({ length: c.length, tf: align(c.tf, page.terms, terms) }));
    const scores = scoreCounts(counts, collection, options.ranking);
    return page.top
      .map(({ index, text, headings, tokens }, i): ScoredChunk => ({ index, text, headings, tokens, score: scores[i] }))
      .sort((a, b) => b.score - a.score || a.index - b.index);
  });
  const candidates = scored
    .flatMap((chunks, page) => chunks.map((chunk, rank) => ({ chunk, page, rank })))
    .sort((a, b) => b.chunk.score - a.chunk.score || a.page - b.page || a.rank - b.rank);
  const kept = new Set<ScoredChunk>();
  let tokens = 0;
  for (const { chunk } of candidates) {
    // A chunk that does not fit is skipped, and a smaller one further down may still fill the space.
    if (tokens + chunk.tokens > tokenBudget) continue;
    kept.add(chunk);
    tokens += chunk.tokens;
  }
  return { pages: scored.map((chunks) => chunks.filter((c) => kept.has(c))), tokens, tokenBudget, encoding: TOKEN_ENCODING };
}
