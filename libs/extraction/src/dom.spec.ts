import { describe, expect, it } from '@jest/globals';
import { bodyOf, classWords, holdsText, parseHtml, squashedLength, squashedTextLength, squashedTextWithin, textContent, trimmedLength } from './dom.js';

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

describe('squashedLength and squashedTextLength', () => {
  const samples = ['', '   ', 'word', '  two  words  ', '\n\ta\u00a0\u00a0b\u2028c\ufeff ', 'x\u3000\u3000y  '];
  it('equal the length of the squashed, trimmed string', () => {
    for (const s of samples) expect(squashedLength(s)).toBe(s.replace(/\s+/g, ' ').trim().length);
  });

  it('count whitespace across text nodes as one run', () => {
    const html = '<body> <p>Jo </p>\n <p> Doe\u00a0</p><span>  and  </span><b>more</b> </body>';
    expect(squashedTextLength(bodyOf(parseHtml(html)))).toBe(squashed(html).length);
    expect(squashedTextLength(bodyOf(parseHtml(html)))).toBe('Jo Doe and more'.length);
  });
});

describe('the copy-free text measures', () => {
  it('trimmedLength counts what trim() keeps, for every character trim() may remove or keep', () => {
    const differing: number[] = [];
    for (let code = 0; code <= 0xffff; code++) {
      const c = String.fromCharCode(code);
      if ([c, `${c}a${c}`, `a${c}${c}b`, `${c}${c}`].some((s) => trimmedLength(s) !== s.trim().length)) differing.push(code);
    }
    expect(differing).toEqual([]);
  });

  it('holdsText says whether a node has text other than white space, scripts and comments included as textContent does', () => {
    for (const html of ['<body></body>', '<body> \n\u00a0<div>  </div></body>', '<body><!-- note --><div> </div></body>', '<body><div><span> x </span></div></body>', '<body><script>var a</script></body>', '<body>\u2003<p>\ufeff</p></body>']) {
      const doc = parseHtml(html);
      expect([html, holdsText(doc)]).toEqual([html, textContent(doc).trim() !== '']);
    }
  });

  it('classWords gives the same words however often a token is asked for, past the size of its memory', () => {
    expect(classWords('entry-metaData_bar')).toEqual(['entry', 'meta', 'data', 'bar']);
    for (let i = 0; i < 25_000; i++) classWords(`card-${i}`);
    expect(classWords('entry-metaData_bar')).toEqual(['entry', 'meta', 'data', 'bar']);
  });
});
