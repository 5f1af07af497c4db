import { describe, expect, it } from '@jest/globals';
import { countTokens, countTokensWithin, TOKEN_ENCODING, truncateToTokens } from './tokenizer.js';

describe('tokenizer', () => {
  it('counts with o200k_base (the ids tiktoken publishes: "hello world" is 2 tokens, "tiktoken is great!" 6)', () => {
    expect(TOKEN_ENCODING).toBe('o200k_base');
    expect(countTokens('hello world')).toBe(2);
    expect(countTokens('tiktoken is great!')).toBe(6);
    expect(countTokens('')).toBe(0);
  });

  it('counts special-token spellings in a page as plain text instead of throwing', () => {
    expect(countTokens('a <|endoftext|> b')).toBeGreaterThan(3);
    expect(truncateToTokens('x <|endoftext|> y', 100)).toBe('x <|endoftext|> y');
  });

  it('counts a megabyte-long run of one character class (quadratic for BPE in one piece) in slices', () => {
    const run = 'a'.repeat(1_000_000);
    // Eight "a"s make one token in o200k_base, and the slices are a multiple of eight long.
    expect(countTokens(run)).toBe(1_000_000 / 8);
    expect(countTokens(`intro ${'|-'.repeat(100_000)} outro`)).toBeGreaterThan(1000);
    expect(countTokensWithin(' '.repeat(1_000_000), 10)).toBe(false);
  });

  it('truncates on a token boundary, never past the limit, without a broken character at the end', () => {
    const text = 'The quick brown fox jumps over the lazy dog. '.repeat(20);
    const cut = truncateToTokens(text, 10);
    expect(countTokens(cut)).toBeLessThanOrEqual(10);
    expect(text.startsWith(cut)).toBe(true);
    expect(truncateToTokens('naïve café 東京タワー '.repeat(10), 7)).not.toMatch(/\uFFFD/);
    expect(truncateToTokens(text, 0)).toBe('');
    expect(truncateToTokens('short', 10)).toBe('short');
  });

  it('says whether a text is within a limit, with its count when it is', () => {
    expect(countTokensWithin('hello world', 2)).toBe(2);
    expect(countTokensWithin('hello world', 1)).toBe(false);
    expect(countTokensWithin('', 0)).toBe(0);
  });
});
