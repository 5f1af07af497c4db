// Markdown's text, as the benchmarks score it: link text without URLs, however the converter wrote the destination.
import { describe, expect, it } from '@jest/globals';
import { markdownToText } from './to-text.js';

describe('markdownToText', () => {
  it('drops destinations in angle brackets, with parentheses, and with titles', () => {
    expect(markdownToText('[ABC](<https://w.test/ABC (lang)> "ABC (programming language)") and more')).toBe('ABC and more');
    expect(markdownToText('[ABC](https://w.test/wiki/ABC_(programming_language)) and more')).toBe('ABC and more');
    expect(markdownToText("[tiny house](https://p.test/f/141/ 'tiny house forum')")).toBe('tiny house');
    expect(markdownToText('![pork ragu](https://x.test/a.jpg?max_bytes=150000&format=webp) text')).toBe('text');
  });

  it('reads an image link whose alt text holds escaped brackets, and a link inside another link', () => {
    expect(markdownToText('[![\\[X-Info\\]](https://o.test/i.gif)](https://o.test/k) [*Wholesale*](https://o.test/w)')).toBe('Wholesale');
    expect(markdownToText('[Card [inner](https://a.test/i) more](https://a.test/card "Card")')).toBe('Card inner more');
  });

  it('drops the tags of raw HTML the converter kept, but not words in angle brackets or code', () => {
    expect(markdownToText('<h2>Radios <mark>(4)</mark></h2>')).toBe('Radios  (4)');
    expect(markdownToText('Run `git clone <repo-url>` first')).toBe('Run git clone <repo-url> first');
    expect(markdownToText('```html\n<meta charset="utf-8">\n```')).toBe('<meta charset="utf-8">');
    expect(markdownToText('Use `a_b*c*` as is')).toBe('Use a_b*c* as is');
  });
});

describe('Markdown as text', () => {
  it('drops the tags of raw HTML the converter keeps for nested tables and lists', () => {
    const md = '| |\n| --- |\n| <table><tr><td>1.</td><td>[Hiring now](https://site.example/jobs)</td></tr></table> |\n\n<ul><li>one</li><li>two</li></ul>';
    const text = markdownToText(md);
    expect(text).not.toMatch(/\b(?:table|tr|td|ul|li|href|https)\b/);
    expect(text).toMatch(/1\.\s+Hiring now/);
    expect(text).toMatch(/one\s+two/);
  });
});
