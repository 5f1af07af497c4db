import { describe, expect, it } from '@jest/globals';
import { bodyOf, parseHtml, squashedTextWithin, textContent } from './dom.js';

const squashed = (html: string) => textContent(bodyOf(parseHtml(html))).replace(/\s+/g, ' ').trim();

describe('squashedTextWithin', () => {
  it('gives the squashed, trimmed text of a block within the bound', () => {
    const html = '<body>\n  <p>  Photo:\u00a0\u2003Jo <b>Doe</b>\n\n / Example Images  </p>\n</body>';
    expect(squashedTextWithin(bodyOf(parseHtml(html)), 100)).toBe(squashed(html));
    expect(squashedTextWithin(bodyOf(parseHtml(html)), 100)).toBe('Photo: Jo Doe / Example Images');
  });

  it('counts only what is not whitespace against the bound', () => {
    // 10 letters in a sea of indentation, line breaks and no-break spaces.
    const html = `<body>${'\n      '.repeat(50)}<span>abcde</span>${'\u00a0 \t'.repeat(40)}<i>fghij</i>${'\n'.repeat(30)}</body>`;
    expect(squashedTextWithin(bodyOf(parseHtml(html)), 10)).toBe('abcde fghij');
    expect(squashedTextWithin(bodyOf(parseHtml(html)), 9)).toBeUndefined();
  });

  it('stops at a long block', () => {
    const body = bodyOf(parseHtml(`<body><div><p>${'word '.repeat(2000)}</p><p>more</p></div></body>`));
    expect(squashedTextWithin(body, 160)).toBeUndefined();
  });
});
