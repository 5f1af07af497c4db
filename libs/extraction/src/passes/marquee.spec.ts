import { describe, expect, it } from '@jest/globals';
import { bodyOf, parseHtml } from '../dom.js';
import { removeMarquees } from './marquee.js';
import { renderText } from '../text.js';

/** The text of `html` once its tickers are removed. */
const withoutMarquees = (html: string): string => {
  const doc = parseHtml(html);
  removeMarquees([bodyOf(doc)]);
  return renderText(bodyOf(doc));
};

const copies = (n: number, phrase: string): string => Array.from({ length: n }, () => `<span>${phrase} <span class="star">*</span></span>`).join('');

describe('marquees (removeMarquees)', () => {
  it('removes a ticker that prints one phrase many times over, and keeps the text around it', () => {
    const text = withoutMarquees(`<body><p>Packaging that sells, designed for shelves and screens alike.</p><div class="ticker"><div class="track">${copies(24, 'Book now')}</div></div><p>We blend form and function.</p></body>`);
    expect(text).toContain('Packaging that sells');
    expect(text).toContain('We blend form and function.');
    expect(text).not.toContain('Book now');
  });

  it('keeps a rating of five stars, a table row of the same answer, and a list of different items', () => {
    const stars = `<div class="rating">${Array.from({ length: 5 }, () => '<span>★</span>').join('')}</div>`;
    const row = `<table><tr><td>Support</td>${Array.from({ length: 9 }, () => '<td>Yes</td>').join('')}</tr><tr>${Array.from({ length: 9 }, () => '<td>Yes</td>').join('')}</tr></table>`;
    const list = `<ul>${Array.from({ length: 9 }, (_, i) => `<li>Step ${i}</li>`).join('')}</ul>`;
    const text = withoutMarquees(`<body>${stars}${row}${list}</body>`);
    expect(text).toContain('★');
    expect(text).toContain('Yes');
    expect(text).toContain('Step 8');
  });
});
