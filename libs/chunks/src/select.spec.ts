import { describe, expect, it } from '@jest/globals';
import { fitMarkdown, rankChunks, selectChunks } from './select.js';
import { chunkMarkdown } from './chunk-markdown.js';
import { countTokens } from './tokenizer.js';

const page = [
  '# Rust Crab Farm',
  'We raise crabs on the coast. Visitors welcome every weekend.',
  '## Prices',
  'A ticket costs 12 euros for adults and 6 euros for children.',
  '## Opening hours',
  'Open from 9 to 17, closed on Mondays.',
  '## Directions',
  'Take the coastal road north and turn left at the lighthouse.',
].join('\n\n');

const filler = (topic: string, n: number) =>
  Array.from({ length: n }, (_, i) => `## ${topic} ${i}\n\nParagraph ${i} about ${topic} with enough words to weigh a few tokens each.`).join('\n\n');

describe('rankChunks', () => {
  it('puts the chunk that answers the query first, helped by its heading', () => {
    const ranked = rankChunks(chunkMarkdown(page), 'how much does a ticket cost');
    expect(ranked[0].headings).toEqual(['Rust Crab Farm', 'Prices']);
    expect(ranked[0].score).toBeGreaterThan(ranked[1].score);
    expect(rankChunks(chunkMarkdown(page), 'opening hours')[0].text).toMatch(/closed on Mondays/);
  });

  it('keeps page order among equal scores (a query that matches nothing ranks by position)', () => {
    const ranked = rankChunks(chunkMarkdown(page), 'zebra');
    expect(ranked.map((c) => c.index)).toEqual([0, 1, 2, 3]);
    expect(ranked.every((c) => c.score === 0)).toBe(true);
  });
});

describe('selectChunks', () => {
  const pages = [
    { id: 'https://a.example/', markdown: filler('weather', 10) + '\n\n## Tickets\n\nTicket prices: 12 euros.' },
    { id: 'https://b.example/', markdown: page },
    { id: 'https://c.example/', markdown: '' },
  ];

  it('keeps at most perPage chunks a page, best first, each with its score, tokens and headings', () => {
    const selection = selectChunks(pages, 'ticket prices', { perPage: 2, tokenBudget: 10_000 });
    expect(selection.encoding).toBe('o200k_base');
    expect(selection.pages.map((p) => [p.id, p.chunks.length, p.totalChunks])).toEqual([
      ['https://a.example/', 2, 11],
      ['https://b.example/', 2, 4],
      ['https://c.example/', 0, 0],
    ]);
    const [a, b] = selection.pages;
    expect(a.chunks[0]).toMatchObject({ headings: ['Tickets'], text: 'Ticket prices: 12 euros.', tokens: countTokens('Ticket prices: 12 euros.') });
    expect(b.chunks[0].headings).toEqual(['Rust Crab Farm', 'Prices']);
    expect(a.chunks[0].score).toBeGreaterThanOrEqual(a.chunks[1].score);
    expect(selection.tokens).toBe(a.tokens + b.tokens);
  });

  it('never goes over the token budget, filling it highest score first and skipping what does not fit', () => {
    for (const tokenBudget of [1, 10, 25, 40, 80, 200]) {
      const selection = selectChunks(pages, 'ticket prices', { perPage: 5, tokenBudget });
      expect(selection.tokens).toBeLessThanOrEqual(tokenBudget);
      expect(selection.tokens).toBe(selection.pages.flatMap((p) => p.chunks).reduce((s, c) => s + c.tokens, 0));
    }
    const tight = selectChunks(pages, 'ticket prices', { perPage: 5, tokenBudget: 20 });
    const kept = tight.pages.flatMap((p) => p.chunks);
    expect(kept.map((c) => c.text)).toContain('Ticket prices: 12 euros.');
  });

  it('is deterministic: the same input gives the same selection, ties broken by page then position', () => {
    const twins = [
      { id: 'first', markdown: 'Same text about tickets.\n\n## Weather\n\nSame text about tickets.' },
      { id: 'second', markdown: 'Same text about tickets.' },
    ];
    const one = selectChunks(twins, 'tickets', { perPage: 2, tokenBudget: 5 });
    expect(one).toEqual(selectChunks(twins, 'tickets', { perPage: 2, tokenBudget: 5 }));
    expect(one.pages[0].chunks.map((c) => [c.index, c.tokens])).toEqual([[0, 5]]);
    expect(one.pages[1].chunks).toEqual([]);
    const two = selectChunks(twins, 'tickets', { perPage: 2, tokenBudget: 10 });
    expect(two.pages.map((p) => p.chunks.map((c) => c.index))).toEqual([[0], [0]]);
    expect(two.pages[0].chunks[0].score).toBe(two.pages[1].chunks[0].score);
  });

  it('bounds perPage and the budget', () => {
    const selection = selectChunks(pages, 'weather', { perPage: 1000, tokenBudget: -5 });
    expect(selection.tokenBudget).toBe(1);
    expect(selectChunks(pages, 'weather', { perPage: 1000 }).pages[0].chunks.length).toBeLessThanOrEqual(50);
  });
});

describe('fitMarkdown', () => {
  it('returns a page that fits as it is', () => {
    expect(fitMarkdown(page, 'anything', 10_000)).toEqual({ text: page, tokens: countTokens(page), trimmed: false });
  });

  it('trims a long page to the chunks most relevant to the query, in page order, with headings and gap marks', () => {
    const long = `${filler('weather', 40)}\n\n## Tickets\n\nTicket prices: 12 euros.\n\n${filler('sailing', 40)}`;
    const fitted = fitMarkdown(long, 'ticket prices', 120);
    expect(fitted.trimmed).toBe(true);
    expect(fitted.tokens).toBe(countTokens(fitted.text));
    expect(fitted.tokens).toBeLessThanOrEqual(120);
    expect(fitted.text).toContain('# Tickets\n\nTicket prices: 12 euros.');
    expect(fitted.text).toContain('[…]');
  });

  it('keeps the start of the page when nothing matches the query', () => {
    const fitted = fitMarkdown(filler('weather', 40), '', 60);
    expect(fitted.text.startsWith('# weather 0\n\nParagraph 0 about weather')).toBe(true);
    expect(fitted.tokens).toBeLessThanOrEqual(60);
  });
});
