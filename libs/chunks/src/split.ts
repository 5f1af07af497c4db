/**
 * Cutting one block that is over the chunk size into pieces that fit: prose at sentence boundaries (Unicode
 * sentence segmentation, then words), lists between items, tables between rows (the header repeated in each piece),
 * code between lines (each piece fenced again).
 */
import type { Block } from './markdown-blocks.js';
import { countTokens, truncateToTokens } from './tokenizer.js';

export interface Piece {
  text: string;
  tokens: number;
}

/** What one "\n\n" between two pieces costs (a single token in o200k_base). */
export const JOIN_TOKENS = 1;

const sentences = new Intl.Segmenter('en', { granularity: 'sentence' });

/** Greedily packs units (each within `max`) into pieces of at most `max` tokens, joined by `glue`. */
function pack(units: Piece[], max: number, glue: string, wrap: (body: string) => string = (b) => b, wrapTokens = 0): Piece[] {
  const out: Piece[] = [];
  let texts: string[] = [];
  let tokens = 0;
  const glueTokens = glue === '' ? 0 : JOIN_TOKENS;
  const flush = () => {
    if (texts.length === 0) return;
    const text = wrap(texts.join(glue));
    out.push({ text, tokens: texts.length === 1 && wrapTokens === 0 ? tokens : countTokens(text) });
    texts = [];
    tokens = 0;
  };
  for (const unit of units) {
    const added = texts.length === 0 ? wrapTokens + unit.tokens : glueTokens + unit.tokens;
    if (texts.length > 0 && tokens + added > max) flush();
    tokens += texts.length === 0 ? wrapTokens + unit.tokens : glueTokens + unit.tokens;
    texts.push(unit.text);
  }
  flush();
  return out;
}

/** Prose over `max` tokens: whole sentences where they fit, else cut between words. */
export function splitText(text: string, max: number): Piece[] {
  const units: Piece[] = [];
  for (const { segment } of sentences.segment(text)) {
    const sentence = segment.trim();
    if (!sentence) continue;
    const tokens = countTokens(sentence);
    if (tokens <= max) units.push({ text: sentence, tokens });
    else units.push(...hardSplit(sentence, max));
  }
  return pack(units, max, ' ');
}

/** A run of text with no usable sentence boundary: cut at the last space before the token limit. */
export function hardSplit(text: string, max: number): Piece[] {
  const out: Piece[] = [];
  let rest = text;
  while (rest.length > 0) {
    // Tokenize a window a few times the limit, wider only when it held fewer than `max` tokens: each cut's work
    // stays proportional to `max`, not to the rest of the text.
    let window = max * 4;
    let piece = truncateToTokens(rest.slice(0, window), max);
    while (piece.length === window && window < rest.length) {
      window *= 4;
      piece = truncateToTokens(rest.slice(0, window), max);
    }
    if (piece.length === 0) piece = rest.slice(0, 1);
    if (piece.length < rest.length) {
      const space = piece.lastIndexOf(' ');
      if (space > piece.length / 2) piece = piece.slice(0, space);
    }
    const trimmed = piece.trim();
    if (trimmed) out.push({ text: trimmed, tokens: countTokens(trimmed) });
    rest = rest.slice(piece.length).trimStart();
  }
  return out;
}

function splitList(items: string[], max: number): Piece[] {
  const units: Piece[] = [];
  for (const item of items) {
    const tokens = countTokens(item);
    if (tokens <= max) units.push({ text: item, tokens });
    else units.push(...splitText(item, max));
  }
  return pack(units, max, '\n');
}

/** Table rows in pieces, each piece starting with the header row and the delimiter row. */
function splitTable(text: string, max: number): Piece[] {
  const [header, delimiter, ...rows] = text.split('\n');
  const head = `${header}\n${delimiter}`;
  const headTokens = countTokens(head) + JOIN_TOKENS;
  if (headTokens >= max / 2) return splitLines(text.split('\n'), max, '\n');
  return pack(rowsOf(rows, max - headTokens), max, '\n', (body) => `${head}\n${body}`, headTokens);
}

/** Code lines in pieces, each piece inside the original fence. */
function splitCode(text: string, max: number): Piece[] {
  const lines = text.split('\n');
  const open = lines[0];
  const closed = lines.length > 1 && /^ {0,3}(`{3,}|~{3,})[ \t]*$/.test(lines[lines.length - 1]);
  const close = closed ? lines[lines.length - 1] : open.trim().replace(/[^`~].*$/, '');
  const body = lines.slice(1, closed ? -1 : undefined);
  const fenceTokens = countTokens(`${open}\n\n${close}`);
  if (fenceTokens >= max / 2) return splitLines(lines, max, '\n');
  return pack(rowsOf(body, max - fenceTokens), max, '\n', (inner) => `${open}\n${inner}\n${close}`, fenceTokens);
}

function rowsOf(lines: string[], max: number): Piece[] {
  return lines.flatMap((line) => {
    const tokens = countTokens(line);
    return tokens <= max ? [{ text: line, tokens }] : hardSplit(line, max);
  });
}

function splitLines(lines: string[], max: number, glue: string): Piece[] {
  return pack(rowsOf(lines, max), max, glue);
}

/**
 * One block as pieces of at most `max` tokens; a table or code block stays whole up to `hardMax` tokens.
 * `tokens` is the block's own count when the caller has it.
 */
export function splitBlock(block: Block, max: number, hardMax: number, tokens = countTokens(block.text)): Piece[] {
  const atomic = block.kind === 'table' || block.kind === 'code';
  if (tokens <= max || (atomic && tokens <= hardMax)) return [{ text: block.text, tokens }];
  switch (block.kind) {
    case 'table':
      return splitTable(block.text, max);
    case 'code':
      return splitCode(block.text, max);
    case 'list':
      return splitList(block.items ?? [block.text], max);
    default:
      return splitText(block.text, max);
  }
}
