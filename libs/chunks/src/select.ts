/**
 * Picking the passages to return or to send to a model: the chunks of each page ranked against the query, the top
 * few per page, then one token budget across pages filled highest score first. Deterministic: equal scores keep
 * page order, then position on the page.
 */
import { bm25Scores, type RankingOptions } from './bm25.js';
import { chunkMarkdown, type Chunk, type ChunkOptions } from './chunk-markdown.js';
import { JOIN_TOKENS } from './split.js';
import { TOKEN_ENCODING, countTokens, countTokensWithin } from './tokenizer.js';

export interface ScoredChunk extends Chunk {
  /** BM25 score against the query (0 when no query term occurs in it); comparable within one call. */
  score: number;
}

export interface PageInput {
  /** The caller's key for the page (a URL), echoed back. */
  id: string;
  markdown: string;
}

export interface PageSelection {
  id: string;
  /** Selected chunks, best first. */
  chunks: ScoredChunk[];
  /** Tokens in the selected chunks. */
  tokens: number;
  /** Chunks the page was cut into. */
  totalChunks: number;
}

export interface Selection {
  pages: PageSelection[];
  /** Tokens across every selected chunk, never above `tokenBudget`. */
  tokens: number;
  tokenBudget: number;
  encoding: typeof TOKEN_ENCODING;
}

export interface SelectOptions {
  /** Chunks kept per page before the budget is applied. */
  perPage?: number;
  /** Tokens across all pages. */
  tokenBudget?: number;
  chunking?: ChunkOptions;
  ranking?: RankingOptions;
}

export const SELECT_LIMITS = {
  perPage: { default: 5, min: 1, max: 50 },
  tokenBudget: { default: 4000, min: 1, max: 1_000_000 },
} as const;

const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, Math.floor(value)));

const byScore = (a: ScoredChunk, b: ScoredChunk) => b.score - a.score || a.index - b.index;

/** A page's chunks with their scores, best first (ties: earlier on the page first). */
export function rankChunks(chunks: Chunk[], query: string, ranking?: RankingOptions): ScoredChunk[] {
  const scores = bm25Scores(chunks, query, ranking);
  return chunks.map((chunk, i) => ({ ...chunk, score: scores[i] })).sort(byScore);
}

export function selectChunks(pages: PageInput[], query: string, options: SelectOptions = {}): Selection {
  const perPage = clamp(options.perPage ?? SELECT_LIMITS.perPage.default, SELECT_LIMITS.perPage.min, SELECT_LIMITS.perPage.max);
  const { min, max } = SELECT_LIMITS.tokenBudget;
  const tokenBudget = clamp(options.tokenBudget ?? SELECT_LIMITS.tokenBudget.default, min, max);

  // One collection across pages: term rarity and lengths come from all results, so scores compare across pages.
  const chunked = pages.map((page) => chunkMarkdown(page.markdown, options.chunking));
  const scores = bm25Scores(chunked.flat(), query, options.ranking);
  let offset = 0;
  const ranked = pages.map((page, p) => {
    const chunks = chunked[p].map((chunk, i) => ({ ...chunk, score: scores[offset + i] }));
    offset += chunks.length;
    return { id: page.id, totalChunks: chunks.length, top: chunks.sort(byScore).slice(0, perPage) };
  });
  const candidates = ranked
    .flatMap(({ top }, page) => top.map((chunk, rank) => ({ chunk, page, rank })))
    .sort((a, b) => b.chunk.score - a.chunk.score || a.page - b.page || a.rank - b.rank);

  const kept = new Set<ScoredChunk>();
  let tokens = 0;
  for (const { chunk } of candidates) {
    // A chunk that does not fit is skipped, and a smaller one further down may still fill the space.
    if (tokens + chunk.tokens > tokenBudget) continue;
    kept.add(chunk);
    tokens += chunk.tokens;
  }
  return {
    pages: ranked.map(({ id, totalChunks, top }) => {
      const chunks = top.filter((c) => kept.has(c));
      return { id, totalChunks, chunks, tokens: chunks.reduce((sum, c) => sum + c.tokens, 0) };
    }),
    tokens,
    tokenBudget,
    encoding: TOKEN_ENCODING,
  };
}

export interface FittedText {
  /** The Markdown to send: the whole page, or its most relevant chunks in page order under their headings. */
  text: string;
  tokens: number;
  /** True when chunks were left out. */
  trimmed: boolean;
}

/** Marks where chunks were left out, so a model does not read two passages as one. */
const GAP = '[…]';

function render(chunks: Chunk[]): string {
  const parts: string[] = [];
  let previous: Chunk | undefined;
  for (const chunk of chunks) {
    if (previous && chunk.index !== previous.index + 1) parts.push(GAP);
    const shared = previous ? commonPrefix(previous.headings, chunk.headings) : 0;
    chunk.headings.slice(shared).forEach((h, i) => parts.push(`${'#'.repeat(Math.min(6, shared + i + 1))} ${h}`));
    parts.push(chunk.text);
    previous = chunk;
  }
  return parts.join('\n\n');
}

function commonPrefix(a: string[], b: string[]): number {
  let n = 0;
  while (n < a.length && n < b.length && a[n] === b[n]) n++;
  return n;
}

/**
 * The page within `maxTokens`: whole when it fits, else the chunks most relevant to `query` (or the first ones when
 * nothing matches) in page order, with their headings and a gap mark where chunks were left out.
 */
export function fitMarkdown(markdown: string, query: string, maxTokens: number, chunking?: ChunkOptions): FittedText {
  const whole = countTokensWithin(markdown, maxTokens);
  if (whole !== false) return { text: markdown, tokens: whole, trimmed: false };
  const chunks = chunkMarkdown(markdown, { maxTokens: Math.min(512, Math.max(16, Math.floor(maxTokens / 4))), ...chunking });
  const chosen: Chunk[] = [];
  let estimate = 0;
  for (const chunk of rankChunks(chunks, query)) {
    // Room for the chunk, a gap mark and its headings (an over-estimate; the exact count is taken below).
    const cost = chunk.tokens + 2 * JOIN_TOKENS + 2 + chunk.headings.reduce((sum, h) => sum + countTokens(h) + 2, 0);
    if (estimate + cost > maxTokens) continue;
    chosen.push(chunk);
    estimate += cost;
  }
  chosen.sort((a, b) => a.index - b.index);
  let text = render(chosen);
  let tokens = countTokens(text);
  while (tokens > maxTokens && chosen.length > 0) {
    chosen.pop();
    text = render(chosen);
    tokens = countTokens(text);
  }
  return { text, tokens, trimmed: true };
}
