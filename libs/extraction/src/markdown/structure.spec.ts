// Markdown for structures it has no syntax for: links around blocks, headings in list items and table cells, blocks
// side by side in a cell. The words stay the same; the Markdown holds no raw HTML and runs no words together.
import { describe, expect, it } from '@jest/globals';
import { parseHtml, serialize } from '../dom.js';
import { renderText } from '../text.js';
import { markdownConverter } from './converters.js';
import { shapeForMarkdown } from './structure.js';

function markdownOf(html: string): { markdown: string; textBefore: string; textAfter: string } {
  const doc = parseHtml(html);
  const textBefore = renderText(doc);
  shapeForMarkdown([doc]);
  return { markdown: markdownConverter('mdream').convert(serialize(doc.children)), textBefore, textAfter: renderText(doc) };
}

const words = (s: string): string[] => s.match(/\w+/g) ?? [];

describe('shapeForMarkdown', () => {
  it('moves a link wrapped around a card (image, heading) inside it, one line per part', () => {
    const card = (slug: string, name: string) =>
      `<li><a href="https://shop.test/${slug}"><img src="https://shop.test/${slug}.png" alt="${name}"><h2>${name} <mark>(4)</mark></h2></a></li>`;
    const { markdown, textBefore, textAfter } = markdownOf(`<ul>${card('radios', 'Radios')}${card('lamps', 'Lamps')}</ul>`);
    expect(markdown).not.toMatch(/<\/?(?:h2|mark)/);
    expect(markdown).toBe(
      '- [![Radios](https://shop.test/radios.png)](https://shop.test/radios)\n  **[Radios (4)](https://shop.test/radios)**\n' +
        '- [![Lamps](https://shop.test/lamps.png)](https://shop.test/lamps)\n  **[Lamps (4)](https://shop.test/lamps)**',
    );
    expect(words(textAfter)).toEqual(words(textBefore));
  });

  it('keeps a heading wrapped in a link a heading, with the link inside it', () => {
    const { markdown } = markdownOf('<div><a href="https://blog.test/p"><h2>Post title</h2><p>Its summary.</p></a></div>');
    expect(markdown).toBe('## [Post title](https://blog.test/p)\n\n[Its summary.](https://blog.test/p)');
  });

  it('separates the blocks of a table cell and writes a heading in a cell as bold text', () => {
    const { markdown, textBefore, textAfter } = markdownOf(
      '<table><tr><th>#</th><th>Book</th></tr><tr><td>1</td><td><h3>The Book</h3><div>4.35 avg rating — 9,993 ratings</div><div>score: 4,390</div></td></tr></table>',
    );
    expect(markdown).toContain('| 1 | **The Book**<br>4.35 avg rating — 9,993 ratings<br>score: 4,390 |');
    expect(words(textAfter)).toEqual(words(textBefore));
  });

  it('leaves a heading that opens its list item as a heading', () => {
    const { markdown } = markdownOf('<ul><li><h3>First</h3><p>one</p></li><li><h3>Second</h3><p>two</p></li></ul>');
    expect(markdown).toContain('- ### First');
    expect(markdown).toContain('- ### Second');
  });

  it('keeps apart the blocks of a list item at any depth, which the converter would run together', () => {
    const { markdown, textBefore, textAfter } = markdownOf(
      '<ul><li><div class="card"><a href="https://shop.example/item/1">Lamp</a><div>$12.95</div><div><span>or Best Offer</span></div>' +
        '<div><b>Free</b> shipping</div></div></li><li><div>one</div><p>two</p></li></ul>',
    );
    expect(markdown).toBe('- [Lamp](https://shop.example/item/1)\n  $12.95\n  or Best Offer\n  **Free** shipping\n- one\n\n  two');
    expect(words(textAfter)).toEqual(words(textBefore));
  });

  it('leaves the rows and cells of a table in a list item to the converter', () => {
    const { markdown } = markdownOf('<ul><li><div>Plans</div><table><tr><td>Basic</td><td>$5</td></tr></table></li></ul>');
    expect(markdown).toContain('| Basic | $5 |');
  });

  it('puts a space between two inline boxes whose words would run together, as the page text does', () => {
    const { markdown, textAfter } = markdownOf(
      '<div><div><label>Adhesives</label><span>704</span></div><div><label>Antennas</label><span>320</span></div></div>' +
        '<p><a href="https://site.example/a">Read more</a><span>, or not</span> <code><span>obj</span><span>.call</span></code></p>',
    );
    expect(markdown).toBe('Adhesives 704\n\nAntennas 320\n\n[Read more](https://site.example/a), or not `obj.call`');
    expect(textAfter).toContain('Adhesives 704');
  });

  it('keeps the space an inline element of only whitespace holds, and drops an icon link the text does not have', () => {
    const { markdown, textAfter } = markdownOf(
      '<p>not out of apathy, but uncertainty.<em> </em>Security<span>  </span>feels complex.</p>' +
        '<p><a title="Share on Facebook" href="https://social.example/share"><svg><path d="M0 0"/></svg></a> Posted today</p>',
    );
    expect(markdown).toBe('not out of apathy, but uncertainty. Security feels complex.\n\nPosted today');
    expect(textAfter).toBe('not out of apathy, but uncertainty. Security feels complex.\n\nPosted today');
  });

  it("ends a code block at its code, not at the empty line a <pre>'s closing line break would print", () => {
    const { markdown } = markdownOf('<pre class="programlisting">SELECT * FROM weather;\n</pre><pre>a\n<b>b</b>\n\n</pre><pre><code>let a = 1;\n</code></pre>');
    expect(markdown).toBe('```\nSELECT * FROM weather;\n```\n\n```\na\nb\n```\n\n```\nlet a = 1;\n```');
  });
});
