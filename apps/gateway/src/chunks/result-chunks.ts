/**
 * The chunks of a response: every page's candidates from its worker (PageChunks) scored against the response's pages
 * together and cut to its token budget (#chunks `selectCandidates`: arithmetic only, no text is read here — the
 * chunking, token and term counts ran in the extraction threads of the workers).
 */
import { selectCandidates } from '#chunks';
import { TOKEN_ENCODING, type PageChunks, type ResultChunk } from '#contracts';

export interface ResponseChunks {
  /** Per page, in the order given: its chunks, best first (empty for a page without candidates). */
  pages: ResultChunk[][];
  tokens: number;
  token_encoding: typeof TOKEN_ENCODING;
}

/** Scores are rounded to 4 decimals: enough to order them, without float noise in the JSON. */
const round = (score: number) => Math.round(score * 10_000) / 10_000;

export function responseChunks(pages: ReadonlyArray<PageChunks | undefined>, maxTokens: number): ResponseChunks {
  const selection = selectCandidates(pages, { tokenBudget: maxTokens });
  return {
    pages: selection.pages.map((chunks) => chunks.map(({ text, headings, score, tokens }) => ({ text, headings, score: round(score), tokens }))),
    tokens: selection.tokens,
    token_encoding: TOKEN_ENCODING,
  };
}
