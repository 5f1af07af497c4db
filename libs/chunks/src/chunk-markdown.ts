/**
 * Markdown → chunks that follow the page's structure: a heading starts a section, blocks of one section are grouped
 * up to the chunk size, and each chunk carries its heading path. Tables and fenced code are never cut below the
 * hard cap; prose over the chunk size is cut at sentence boundaries (split.ts).
 */
import { scanBlocks } from './markdown-blocks.js';
import { JOIN_TOKENS, splitBlock, type Piece } from './split.js';
import { countTokens } from './tokenizer.js';

export interface Chunk {
  /** Position on the page, from 0. */
  index: number;
  /** The chunk's Markdown (without its headings, which are in `headings`). */
  text: string;
  /** The heading path above the chunk, outermost first, e.g. ["Install", "From npm"]. */
  headings: string[];
  /** Tokens in `text` (o200k_base). */
  tokens: number;
}

export interface ChunkOptions {
  /** Target chunk size in tokens; prose and lists are cut to fit. */
  maxTokens?: number;
  /** A table or code block stays whole up to this many tokens, then is cut by rows / lines. */
  hardMaxTokens?: number;
  /** Markdown past this many characters is not chunked (cut at the last blank line before it). */
  maxChars?: number;
}

export const CHUNK_LIMITS = {
  maxTokens: { default: 256, min: 16, max: 8192 },
  /** Multiples of maxTokens. */
  hardMaxFactor: 4,
  maxChars: { default: 1_000_000, max: 10_000_000 },
} as const;

export interface ResolvedChunkOptions {
  maxTokens: number;
  hardMaxTokens: number;
  maxChars: number;
}

const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, Math.floor(value)));

export function resolveChunkOptions(options: ChunkOptions = {}): ResolvedChunkOptions {
  const { maxTokens: m, maxChars: c } = CHUNK_LIMITS;
  const maxTokens = clamp(options.maxTokens ?? m.default, m.min, m.max);
  const hardMaxTokens = clamp(options.hardMaxTokens ?? maxTokens * CHUNK_LIMITS.hardMaxFactor, maxTokens, m.max * CHUNK_LIMITS.hardMaxFactor);
  return { maxTokens, hardMaxTokens, maxChars: clamp(options.maxChars ?? c.default, 1, c.max) };
}

/** The Markdown to chunk: at most `maxChars`, cut at a block boundary when there is one in the last half. */
export function capMarkdown(markdown: string, maxChars: number): string {
  if (markdown.length <= maxChars) return markdown;
  const head = markdown.slice(0, maxChars);
  const boundary = head.lastIndexOf('\n\n');
  return boundary > maxChars / 2 ? head.slice(0, boundary) : head;
}

export function chunkMarkdown(markdown: string, options: ChunkOptions = {}): Chunk[] {
  const { maxTokens, hardMaxTokens, maxChars } = resolveChunkOptions(options);
  const chunks: Chunk[] = [];
  const path: string[] = [];
  let headings: string[] = [];
  let pending: Piece[] = [];
  let pendingTokens = 0;

  const flush = () => {
    if (pending.length === 0) return;
    const text = pending.map((p) => p.text).join('\n\n');
    // Joining can only merge tokens across the blank line, so the exact count is at most the running estimate.
    const tokens = pending.length === 1 ? pending[0].tokens : countTokens(text);
    chunks.push({ index: chunks.length, text, headings, tokens });
    pending = [];
    pendingTokens = 0;
  };

  for (const block of scanBlocks(capMarkdown(markdown, maxChars))) {
    if (block.kind === 'heading') {
      flush();
      path.length = Math.min(path.length, block.depth! - 1);
      while (path.length < block.depth! - 1) path.push('');
      path.push(block.text);
      headings = path.filter((h) => h !== '');
      continue;
    }
    const pieces = splitBlock(block, maxTokens, hardMaxTokens);
    if (pieces.length > 1) {
      // The pieces of a cut block are packed already: each is a chunk of its own, never glued back together.
      flush();
      for (const piece of pieces) chunks.push({ index: chunks.length, text: piece.text, headings, tokens: piece.tokens });
      continue;
    }
    const [piece] = pieces;
    if (!piece) continue;
    const cost = pending.length === 0 ? piece.tokens : pendingTokens + JOIN_TOKENS + piece.tokens;
    if (pending.length > 0 && cost > maxTokens) flush();
    pendingTokens = pending.length === 0 ? piece.tokens : pendingTokens + JOIN_TOKENS + piece.tokens;
    pending.push(piece);
  }
  flush();
  return chunks;
}
