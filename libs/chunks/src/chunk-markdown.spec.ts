import { describe, expect, it } from '@jest/globals';
import { capMarkdown, chunkMarkdown, resolveChunkOptions } from './chunk-markdown.js';
import { countTokens } from './tokenizer.js';

const sentence = (i: number) => `Sentence number ${i} talks about crawling pages and ranking passages for a query.`;
const paragraph = (from: number, n: number) => Array.from({ length: n }, (_, i) => sentence(from + i)).join(' ');

describe('chunkMarkdown', () => {
  it('gives each chunk its heading path and starts a new chunk at every heading', () => {
    const md = '# Trawl\n\nIntro.\n\n## Install\n\n### From npm\n\nRun npm install.\n\n### From source\n\nClone it.\n\n## Usage\n\nCall /search.';
    expect(chunkMarkdown(md).map((c) => [c.headings, c.text])).toEqual([
      [['Trawl'], 'Intro.'],
      [['Trawl', 'Install', 'From npm'], 'Run npm install.'],
      [['Trawl', 'Install', 'From source'], 'Clone it.'],
      [['Trawl', 'Usage'], 'Call /search.'],
    ]);
  });

  it('keeps a heading path across skipped levels and drops deeper headings when a shallower one comes', () => {
    const md = '# A\n\n### C\n\nunder c\n\n## B\n\nunder b\n\ntext before any heading is impossible here';
    expect(chunkMarkdown(md).map((c) => c.headings)).toEqual([['A', 'C'], ['A', 'B']]);
    expect(chunkMarkdown('before\n\n# H\n\nafter').map((c) => c.headings)).toEqual([[], ['H']]);
  });

  it('groups the blocks of a section up to the chunk size, with exact token counts', () => {
    const md = Array.from({ length: 12 }, (_, i) => sentence(i)).join('\n\n');
    const chunks = chunkMarkdown(md, { maxTokens: 64 });
    expect(chunks.length).toBeGreaterThan(2);
    for (const chunk of chunks) {
      expect(chunk.tokens).toBe(countTokens(chunk.text));
      expect(chunk.tokens).toBeLessThanOrEqual(64);
    }
    expect(chunks.map((c) => c.text).join('\n\n')).toBe(md);
    expect(chunks.map((c) => c.index)).toEqual(chunks.map((_, i) => i));
  });

  it('cuts a long paragraph at sentence boundaries', () => {
    const chunks = chunkMarkdown(paragraph(0, 40), { maxTokens: 64 });
    expect(chunks.length).toBeGreaterThan(5);
    for (const chunk of chunks) {
      expect(chunk.tokens).toBeLessThanOrEqual(64);
      expect(chunk.text).toMatch(/^Sentence number \d+ .*query\.$/);
    }
  });

  it('cuts a sentence with no boundary between words, and a word-less run anywhere', () => {
    const words = chunkMarkdown('word '.repeat(2000), { maxTokens: 50 });
    expect(words.every((c) => c.tokens <= 50 && !c.text.includes('wor d'))).toBe(true);
    expect(words.map((c) => c.text).join(' ')).toBe('word '.repeat(2000).trim());
    const run = chunkMarkdown('x'.repeat(20_000), { maxTokens: 50 });
    expect(run.every((c) => c.tokens <= 50)).toBe(true);
    expect(run.map((c) => c.text).join('')).toBe('x'.repeat(20_000));
  });

  it('keeps lists together up to the chunk size and cuts longer ones between items', () => {
    const list = Array.from({ length: 30 }, (_, i) => `- item ${i}: ${sentence(i)}`).join('\n');
    const chunks = chunkMarkdown(list, { maxTokens: 80 });
    expect(chunks.length).toBeGreaterThan(3);
    for (const chunk of chunks) {
      expect(chunk.tokens).toBeLessThanOrEqual(80);
      expect(chunk.text).toMatch(/^- item \d+:/);
    }
    expect(chunks.map((c) => c.text).join('\n')).toBe(list);
  });

  it('never cuts a table or a code block under the hard cap, even over the chunk size', () => {
    const table = `| name | value |\n|---|---|\n${Array.from({ length: 20 }, (_, i) => `| row ${i} | ${i * 7} |`).join('\n')}`;
    const code = `\`\`\`ts\n${Array.from({ length: 20 }, (_, i) => `const value${i} = compute(${i});`).join('\n')}\n\`\`\``;
    const chunks = chunkMarkdown(`Intro.\n\n${table}\n\n${code}`, { maxTokens: 64, hardMaxTokens: 1000 });
    expect(chunks.map((c) => c.text)).toEqual(['Intro.', table, code]);
    expect(chunks[1].tokens).toBeGreaterThan(64);
  });

  it('cuts a table over the hard cap by rows, repeating its header; a code block by lines, fenced again', () => {
    const rows = Array.from({ length: 200 }, (_, i) => `| row ${i} | ${sentence(i)} |`);
    const pieces = chunkMarkdown(`| name | text |\n|---|---|\n${rows.join('\n')}`, { maxTokens: 100, hardMaxTokens: 200 });
    expect(pieces.length).toBeGreaterThan(10);
    for (const piece of pieces) {
      expect(piece.text.startsWith('| name | text |\n|---|---|\n| row ')).toBe(true);
      expect(piece.tokens).toBeLessThanOrEqual(100);
    }
    expect(pieces.flatMap((p) => p.text.split('\n').slice(2))).toEqual(rows);

    const lines = Array.from({ length: 300 }, (_, i) => `print("line ${i}")`);
    const code = chunkMarkdown(`~~~python\n${lines.join('\n')}\n~~~`, { maxTokens: 100, hardMaxTokens: 200 });
    for (const piece of code) expect(piece.text).toMatch(/^~~~python\n[^]*\n~~~$/);
    expect(code.flatMap((p) => p.text.split('\n').slice(1, -1))).toEqual(lines);
  });

  it('returns nothing for an empty page or one with headings only', () => {
    expect(chunkMarkdown('')).toEqual([]);
    expect(chunkMarkdown('# a\n## b\n\n---\n')).toEqual([]);
  });

  it('chunks at most maxChars of a page, cut at a blank line', () => {
    const md = Array.from({ length: 1000 }, (_, i) => sentence(i)).join('\n\n');
    const capped = capMarkdown(md, 10_000);
    expect(capped.length).toBeLessThanOrEqual(10_000);
    expect(md.startsWith(capped) && capped.endsWith('query.')).toBe(true);
    const chunks = chunkMarkdown(md, { maxChars: 10_000 });
    expect(chunks.map((c) => c.text).join('\n\n')).toBe(capped);
  });

  it('bounds its options', () => {
    expect(resolveChunkOptions({ maxTokens: 1, hardMaxTokens: 1, maxChars: 1e12 })).toEqual({ maxTokens: 16, hardMaxTokens: 16, maxChars: 10_000_000 });
    expect(resolveChunkOptions()).toEqual({ maxTokens: 256, hardMaxTokens: 1024, maxChars: 1_000_000 });
  });
});
