import { describe, expect, it } from '@jest/globals';
import { plainInline, scanBlocks } from './markdown-blocks.js';

const kinds = (md: string) => scanBlocks(md).map((b) => (b.kind === 'heading' ? `h${b.depth}:${b.text}` : b.kind));

describe('scanBlocks', () => {
  it('finds headings (ATX and setext), paragraphs, lists, quotes, HTML, code and tables', () => {
    const md = [
      '# Title #',
      'Intro line one',
      'and two.',
      '',
      'Setext',
      '======',
      '',
      '- a',
      '- b',
      '  continued',
      '',
      '- c after a blank line',
      '',
      '> quoted',
      '> more',
      '',
      '<div>html</div>',
      '',
      '```js',
      '# not a heading',
      '',
      '| not | a table |',
      '```',
      '',
      '| h1 | h2 |',
      '| --- | :-: |',
      '| 1 | 2 |',
      '',
      '***',
      '',
      '## Sub [link](http://x) **bold**',
      'tail',
    ].join('\n');
    expect(kinds(md)).toEqual(['h1:Title', 'paragraph', 'h1:Setext', 'list', 'quote', 'html', 'code', 'table', 'h2:Sub link bold', 'paragraph']);
    const list = scanBlocks(md).find((b) => b.kind === 'list')!;
    expect(list.items).toEqual(['- a', '- b\n  continued', '- c after a blank line']);
    expect(scanBlocks(md).find((b) => b.kind === 'code')!.text).toBe('```js\n# not a heading\n\n| not | a table |\n```');
  });

  it('ends a paragraph at a heading, fence, list or table that follows without a blank line', () => {
    expect(kinds('text\n# H\ntext\n```\ncode\n```\ntext\n- item\n## H2\ntext\n| a | b |\n|---|---|\n| 1 | 2 |')).toEqual([
      'paragraph',
      'h1:H',
      'paragraph',
      'code',
      'paragraph',
      'list',
      'h2:H2',
      'paragraph',
      'table',
    ]);
  });

  it('takes an unindented line right after an item as part of it (a lazy continuation, as CommonMark does)', () => {
    expect(scanBlocks('- item\nmore words\n\nafter').map((b) => b.kind)).toEqual(['list', 'paragraph']);
  });

  it('keeps nested list items inside their parent item', () => {
    const [list] = scanBlocks('1. one\n   - nested\n   - nested too\n2. two\n\n3. three');
    expect(list.items).toEqual(['1. one\n   - nested\n   - nested too', '2. two', '3. three']);
  });

  it('runs an unclosed fence to the end of the document and takes CRLF line ends', () => {
    expect(kinds('para\r\n\r\n~~~\r\ncode\r\n# x')).toEqual(['paragraph', 'code']);
  });

  it('reduces heading text to plain words', () => {
    expect(plainInline('![logo](a.png) The `npm` **install** _guide_ <span>x</span> \\#1')).toBe('logo The npm install _guide_ x #1');
  });
});
