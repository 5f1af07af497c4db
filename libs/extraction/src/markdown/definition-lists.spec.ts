// Definition lists in Markdown: lists, not raw HTML, with the same words in the same order.
import { describe, expect, it } from '@jest/globals';
import { parseHtml, serialize } from '../dom.js';
import { renderText } from '../text.js';
import { markdownConverter } from './converters.js';
import { shapeForMarkdown } from './structure.js';

function markdownOf(html: string): { markdown: string; wordsBefore: string[]; wordsAfter: string[] } {
  const doc = parseHtml(html);
  const wordsBefore = words(renderText(doc));
  shapeForMarkdown([doc]);
  return { markdown: markdownConverter('mdream').convert(serialize(doc.children)), wordsBefore, wordsAfter: words(renderText(doc)) };
}

const words = (s: string): string[] => s.match(/\w+/g) ?? [];

describe('definition lists', () => {
  it("write a term with a one-line definition as one item: a product's specification", () => {
    const { markdown, wordsBefore, wordsAfter } = markdownOf('<dl><dt>Weight</dt><dd>2 kg</dd><div><dt>Colour</dt><dd>Slate <em>grey</em></dd></div></dl>');
    expect(markdown).toBe('- **Weight**: 2 kg\n- **Colour**: Slate *grey*');
    expect(wordsAfter).toEqual(wordsBefore);
  });

  it("write a term over its definition's blocks: a reference manual's parameters", () => {
    const { markdown, wordsBefore, wordsAfter } = markdownOf(
      '<dl class="variablelist"><dt><span class="term"><code>UNIQUE</code></span></dt><dd><p>Checks for duplicate values.</p><p>See <a href="https://docs.test/t">CREATE TABLE</a>.</p></dd>' +
        '<dt><strong>name</strong></dt><dd><pre>CREATE INDEX name</pre></dd></dl>',
    );
    expect(markdown).toBe(
      '- **`UNIQUE`**\n\n  Checks for duplicate values.\n\n  See [CREATE TABLE](https://docs.test/t).\n- **name**\n\n  ```\n  CREATE INDEX name\n  ```',
    );
    expect(markdown).not.toMatch(/<\/?(?:dl|dt|dd|a|code)\b/);
    expect(wordsAfter).toEqual(wordsBefore);
  });

  it('nest a table of contents written as definition lists, every entry kept', () => {
    const entry = (href: string, title: string) => `<dt><span class="chapter"><a href="https://docs.test/${href}">${title}</a></span></dt>`;
    const { markdown, wordsBefore, wordsAfter } = markdownOf(
      `<dl class="toc">${entry('preface', 'Preface')}<dd><dl>${entry('a', '1. What Is It?')}${entry('b', '2. Conventions')}</dl></dd>${entry('part', 'I. Tutorial')}</dl>`,
    );
    expect(markdown).toBe(
      '- [Preface](https://docs.test/preface)\n  - [1. What Is It?](https://docs.test/a)\n  - [2. Conventions](https://docs.test/b)\n- [I. Tutorial](https://docs.test/part)',
    );
    expect(wordsAfter).toEqual(wordsBefore);
  });

  it('keep terms that share a definition and a definition with no term as items of their own', () => {
    const { markdown } = markdownOf('<dl><dd>An opening note.</dd><dt>color</dt><dt>colour</dt><dd>The hue of a thing.</dd><dt>empty</dt><dd> </dd></dl>');
    expect(markdown).toBe('- An opening note.\n- color\n- **colour**: The hue of a thing.\n- empty');
  });
});
