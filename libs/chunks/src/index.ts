/**
 * libs/chunks — query-relevant passages of a page: Markdown cut on its structure into chunks that carry their heading
 * path, token counts with a real tokenizer (o200k_base), BM25 ranking with the headings as a boosted field, and
 * selection under a per-page count and an overall token budget. Pure functions, no I/O; inputs are capped.
 */
export { chunkMarkdown, capMarkdown, resolveChunkOptions, CHUNK_LIMITS, type Chunk, type ChunkOptions } from './chunk-markdown.js';
export { scanBlocks, type Block, type BlockKind } from './markdown-blocks.js';
export { bm25Scores, RANKING_DEFAULTS, type CollectionStats, type RankedDocument, type RankingOptions, type TermCounts } from './bm25.js';
export {
  pageCandidates,
  selectCandidates,
  type CandidateChunk,
  type CandidateOptions,
  type CandidateSelection,
  type PageCandidates,
} from './passages.js';
export { analyze } from './terms.js';
export {
  fitMarkdown,
  rankChunks,
  selectChunks,
  SELECT_LIMITS,
  type FittedText,
  type PageInput,
  type PageSelection,
  type ScoredChunk,
  type Selection,
  type SelectOptions,
} from './select.js';
export { TOKEN_ENCODING, countTokens, countTokensWithin, truncateToTokens } from './tokenizer.js';
