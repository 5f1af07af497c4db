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
 * run of one character class (letters, ASCII punctuation or spaces) is cut every RUN characters and the pieces are
 * counted apart. Words are far shorter; such a run's count is off by at most one token per cut.
 */
const RUN = 256;

const SPACE = 0;
const LETTER = 1;
const PUNCT = 2;
const DIGIT = 3;

function classOf(code: number): number {
  if (code <= 32 || code === 0xa0 || code === 0x3000 || (code >= 0x2000 && code <= 0x200a)) return SPACE;
  if (code >= 48 && code <= 57) return DIGIT;
  if (code < 128 && !((code >= 65 && code <= 90) || (code >= 97 && code <= 122))) return PUNCT;
  return LETTER; // ASCII letters and everything past ASCII: over-cutting is harmless
}

/** The text in pieces the tokenizer handles in linear time (the text itself when it has no long run). */
function safePieces(text: string): string[] {
  let pieces: string[] | undefined;
  let from = 0;
  let run = 0;
  let previous = -1;
  for (let i = 0; i < text.length; i++) {
    const cls = classOf(text.charCodeAt(i));
    run = cls === previous && cls !== DIGIT ? run + 1 : 1;
    previous = cls;
    if (run === RUN) {
      (pieces ??= []).push(text.slice(from, i + 1));
      from = i + 1;
      run = 0;
      previous = -1;
    }
  }
  if (!pieces) return [text];
  if (from < text.length) pieces.push(text.slice(from));
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
