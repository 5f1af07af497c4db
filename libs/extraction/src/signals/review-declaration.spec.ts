import { describe, expect, it } from '@jest/globals';
import { classifyPage, pageSignals } from './page-type.js';
import { parseHtml } from '../dom.js';

const sentence = (i: number): string => `Sentence ${i} says what the tool does for teams, with commas, detail, and care.`;
const typeOf = (ld: string): string => {
  const html = `<html><head><script type="application/ld+json">${ld}</script></head><body><h1>Work management</h1>${[1, 2, 3].map((i) => `<p>${sentence(i)} ${sentence(i + 10)}</p>`).join('')}</body></html>`;
  return classifyPage(pageSignals(parseHtml(html), 'https://tool.example/work-management'));
};

describe('a Review in the structured data', () => {
  it('declares a review article when it stands alone', () => {
    expect(typeOf('{"@type":"Review","itemReviewed":{"@type":"Movie","name":"M"},"datePublished":"2025-01-01"}')).toBe('article');
  });
  it('does not when it is a customer review of a rated offering', () => {
    const ld = '{"@type":"SoftwareApplication","name":"Tool","aggregateRating":{"@type":"AggregateRating","ratingValue":"4.7"},"review":[{"@type":"Review","author":{"@type":"Person","name":"A"}}]}';
    expect(typeOf(ld)).toBe('service');
  });
});
