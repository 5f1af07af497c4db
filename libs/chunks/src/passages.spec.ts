import { describe, expect, it } from '@jest/globals';
import { pageCandidates, selectCandidates } from './passages.js';
import { selectChunks } from './select.js';

const filler = (topic: string, n: number) =>
  Array.from({ length: n }, (_, i) => `## ${topic} ${i}\n\nParagraph ${i} about ${topic} with enough words to weigh a few tokens each.`).join('\n\n');

const pages = [
  { id: 'a', markdown: `${filler('weather', 8)}\n\n## Tickets\n\nTicket prices: 12 euros for adults, tickets at the gate.` },
  { id: 'b', markdown: `# Farm\n\nWe raise crabs.\n\n## Prices\n\nA ticket costs 12 euros.\n\n${filler('sailing', 3)}` },
  { id: 'c', markdown: filler('ticket', 4) },
];

describe('pageCandidates + selectCandidates', () => {
  it('scores candidates against every page together: the same scores selectChunks gives over the whole collection', () => {
    const query = 'ticket prices euros';
    const whole = selectChunks(pages, query, { perPage: 50, tokenBudget: 100_000 });
    const split = selectCandidates(pages.map((p) => pageCandidates(p.markdown, query, { perPage: 50 })), { tokenBudget: 100_000 });
    expect(split.tokens).toBe(whole.tokens);
    split.pages.forEach((chunks, p) => {
      expect(chunks.map((c) => c.index)).toEqual(whole.pages[p].chunks.map((c) => c.index));
      chunks.forEach((c, i) => expect(c.score).toBeCloseTo(whole.pages[p].chunks[i].score, 12));
    });
  });

  it('keeps at most perPage chunks a page, best first, and fills one budget across pages', () => {
    const candidates = pages.map((p) => pageCandidates(p.markdown, 'ticket prices', { perPage: 2 }));
    expect(candidates.map((c) => c.top.length)).toEqual([2, 2, 2]);
    expect(candidates[0].top[0]).toMatchObject({ headings: ['Tickets'] });
    for (const tokenBudget of [1, 15, 30, 60, 1000]) {
      const selection = selectCandidates(candidates, { tokenBudget });
      expect(selection.tokens).toBeLessThanOrEqual(tokenBudget);
      expect(selection.tokens).toBe(selection.pages.flat().reduce((sum, c) => sum + c.tokens, 0));
    }
    const tight = selectCandidates(candidates, { tokenBudget: 20 });
    expect(tight.pages.flat().map((c) => c.text)).toContain('A ticket costs 12 euros.');
  });

  it('leaves a failed page in its place with no chunks, and ranks by position when no query term is indexable', () => {
    const selection = selectCandidates([undefined, pageCandidates(pages[1].markdown, 'the of and', { perPage: 3 })], { tokenBudget: 1000 });
    expect(selection.pages[0]).toEqual([]);
    expect(selection.pages[1].map((c) => [c.index, c.score])).toEqual([[0, 0], [1, 0], [2, 0]]);
  });
});
