import { describe, expect, it } from '@jest/globals';
import { readingOrder, toBlocks, type TextRun } from './reading-order.js';

const run = (text: string, x: number, y: number, width = text.length * 5, size = 10): TextRun => ({ text, x, y, width, size });
const column = (word: string, x: number, lines: number, top = 700): TextRun[] => Array.from({ length: lines }, (_, i) => run(`${word} ${i}`, x, top - i * 14, 200));

describe('readingOrder', () => {
  it('reads two columns left first, after the title that spans them', () => {
    const runs = [...column('right', 320, 5), run('A Title Across Both Columns', 150, 740, 300, 18), ...column('left', 72, 5)];
    expect(readingOrder(runs).map((l) => l.text)).toEqual([
      'A Title Across Both Columns',
      ...Array.from({ length: 5 }, (_, i) => `left ${i}`),
      ...Array.from({ length: 5 }, (_, i) => `right ${i}`),
    ]);
  });

  it('keeps one column of ragged lines whole, joining the runs of a line left to right', () => {
    const runs = [run('second line', 72, 686, 300), run('world', 130, 700, 30), run('hello', 72, 700, 50), run('short', 72, 672, 30)];
    expect(readingOrder(runs).map((l) => l.text)).toEqual(['hello world', 'second line', 'short']);
  });

  it('makes paragraphs from line gaps, headings from larger type, and joins hyphenated words', () => {
    const lines = [
      { text: 'Heading', x: 72, y: 740, size: 16 },
      { text: 'a para-', x: 72, y: 700, size: 10 },
      { text: 'graph here', x: 72, y: 686, size: 10 },
      { text: 'next one', x: 72, y: 650, size: 10 },
    ];
    expect(toBlocks(lines, 10)).toEqual([
      { text: 'Heading', heading: true },
      { text: 'a paragraph here', heading: false },
      { text: 'next one', heading: false },
    ]);
  });
});
