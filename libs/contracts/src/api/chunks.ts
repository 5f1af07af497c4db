/**
 * Query-relevant chunks (issue #36): the parameters `/crawl` and `/search` share, and what a result carries. A page's
 * Markdown is cut on its structure, the chunks ranked against the query with BM25 (headings weighted), the best
 * `chunks_per_page` of each page kept, and one `max_tokens` budget filled across pages, highest score first.
 * Token counts use the o200k_base encoding.
 */
import { z } from 'zod';

export const CHUNK_PARAMS = {
  chunksPerPage: { min: 1, max: 50, default: 5 },
  maxTokens: { min: 1, max: 1_000_000, default: 4000 },
} as const;

/** The encoding every token count in a response uses. */
export const TOKEN_ENCODING = 'o200k_base';

const range = (name: string, { min, max }: { min: number; max: number }) =>
  z
    .number({ error: `${name} must be an integer from ${min} to ${max}` })
    .int(`${name} must be an integer from ${min} to ${max}`)
    .min(min, `${name} must be an integer from ${min} to ${max}`)
    .max(max, `${name} must be an integer from ${min} to ${max}`);

/** The two sizes; optional so that a service can tell "asked" from "default". */
export const chunkSizeFields = {
  chunks_per_page: range('chunks_per_page', CHUNK_PARAMS.chunksPerPage).optional(),
  max_tokens: range('max_tokens', CHUNK_PARAMS.maxTokens).optional(),
};

/**
 * The sizes given without what they act on: the name of the first one given, for a 400 that names it (`undefined`
 * when neither is).
 */
export function givenSize(sizes: { chunks_per_page?: number; max_tokens?: number }): 'chunks_per_page' | 'max_tokens' | undefined {
  if (sizes.chunks_per_page !== undefined) return 'chunks_per_page';
  if (sizes.max_tokens !== undefined) return 'max_tokens';
  return undefined;
}

/** What the services pass on: the query the chunks are ranked against, and the two sizes with their defaults. */
export interface ChunkSelection {
  query: string;
  perPage: number;
  maxTokens: number;
}

export function chunkSelection(query: string, sizes: { chunks_per_page?: number; max_tokens?: number }): ChunkSelection {
  return {
    query,
    perPage: sizes.chunks_per_page ?? CHUNK_PARAMS.chunksPerPage.default,
    maxTokens: sizes.max_tokens ?? CHUNK_PARAMS.maxTokens.default,
  };
}

/** One returned chunk. */
export interface ResultChunk {
  /** The chunk's Markdown, without its headings. */
  text: string;
  /** The heading path above it, outermost first. */
  headings: string[];
  /** BM25 score against the query, comparable across the response's pages (0: no query term in it). */
  score: number;
  /** Tokens in `text` (o200k_base). */
  tokens: number;
}

export const resultChunkSchema = z.object({
  text: z.string().describe("The chunk's Markdown, without its headings"),
  headings: z.array(z.string()).describe('The heading path above the chunk, outermost first'),
  score: z.number().describe('BM25 score against the query, comparable across the pages of one response; 0 when no query term occurs'),
  tokens: z.number().int().describe('Tokens in text (o200k_base)'),
});

export const chunksFieldSchema = z
  .array(resultChunkSchema)
  .describe('With a query: the passages of this page most relevant to it, best first (at most chunks_per_page, within max_tokens over the response)');

export const chunkTotalsSchema = {
  tokens: z.number().int().optional().describe('With a query: tokens in every returned chunk together (never above max_tokens)'),
  token_encoding: z.literal(TOKEN_ENCODING).optional().describe('With a query: the tokenizer encoding the counts use'),
};

export const chunkParamDocs = {
  chunks_per_page: {
    description: `Chunks returned per page at most (the page's best by score).`,
    schema: { default: CHUNK_PARAMS.chunksPerPage.default },
  },
  max_tokens: {
    description:
      'Token budget for the chunks of the whole response (o200k_base): chunks are kept highest score first across pages while they fit.',
    schema: { default: CHUNK_PARAMS.maxTokens.default },
  },
};
