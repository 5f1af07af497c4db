/**
 * Token counts with a real BPE tokenizer: OpenAI's o200k_base encoding (GPT-4o, GPT-4.1, o-series, GPT-5), through
 * gpt-tokenizer, whose merge table ships inside the package (nothing is downloaded at run time).
 * Text is counted as plain text: special-token spellings such as `<|endoftext|>` in a page are ordinary characters.
 */
import { countTokens as countO200k, decode, encode, isWithinTokenLimit } from 'gpt-tokenizer/encoding/o200k_base';

/** The encoding every count in Trawl uses (responses name it so a client can compare with its own model). */
export const TOKEN_ENCODING = 'o200k_base';

const PLAIN = { disallowedSpecial: new Set<string>() };

/**
 * BPE merges within one pre-token take time quadratic in its length (64 KB of "aaaa…" or "|-|-…" took 8-16 s), so a
 * run of letters, of punctuation or of spaces longer than this is counted in slices of this length. Words are
 * far shorter; the count of such a run is off by at most one token per slice, and the page is garbage anyway.
 */
const RUN = 64;
const LONG_RUN = new RegExp(`[\\p{L}\\p{M}]{${RUN},}|[^\\s\\p{L}\\p{M}\\p{N}]{${RUN},}|\\s{${RUN},}`, 'u');
const LONG_RUNS = new RegExp(LONG_RUN.source, 'gu');

/** The text in pieces the tokenizer handles in linear time (the text itself when it has no long run). */
function safePieces(text: string): string[] {
  if (!LONG_RUN.test(text)) return [text];
  const pieces: string[] = [];
  let last = 0;
  for (const m of text.matchAll(LONG_RUNS)) {
    if (m.index > last) pieces.push(text.slice(last, m.index));
    for (let i = 0; i < m[0].length; i += RUN) pieces.push(m[0].slice(i, i + RUN));
    last = m.index + m[0].length;
  }
  if (last < text.length) pieces.push(text.slice(last));
  return pieces;
}

export function countTokens(text: string): number {
  let total = 0;
  for (const piece of safePieces(text)) if (piece.length > 0) total += countO200k(piece, PLAIN);
  return total;
}

/** The token count when it is at most `maxTokens`, else false (counting stops once past the limit). */
export function countTokensWithin(text: string, maxTokens: number): number | false {
  // No token spans more than a slice plus a few characters, so a longer text cannot fit: no need to count it.
  if (text.length > maxTokens * 2 * RUN) return false;
  let total = 0;
  for (const piece of safePieces(text)) {
    const within = piece.length === 0 ? 0 : isWithinTokenLimit(piece, maxTokens - total, PLAIN);
    if (within === false) return false;
    total += within;
  }
  return total;
}

/** The longest prefix of `text` within `maxTokens` tokens (cut on a token boundary). */
export function truncateToTokens(text: string, maxTokens: number): string {
  if (maxTokens <= 0) return '';
  let out = '';
  let used = 0;
  for (const piece of safePieces(text)) {
    const ids = encode(piece, PLAIN);
    if (used + ids.length <= maxTokens) {
      out += piece;
      used += ids.length;
      continue;
    }
    // A cut inside a multi-byte character decodes to U+FFFD: drop it rather than hand on half a character.
    out += decode(ids.slice(0, maxTokens - used)).replace(/\uFFFD+$/, '');
    break;
  }
  return out;
}
