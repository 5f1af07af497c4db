import { describe, expect, it } from '@jest/globals';
import { bodyOf, classWords, holdsText, parseHtml, squashedLength, squashedTextLength, squashedTextWithin, textContent, trimmedLength } from './dom.js';
import { formatPage } from './format-page.js';

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

describe('what a page prints after </body> or </html>', () => {
  it('is in the body, where a browser puts it, in the order it was printed', () => {
    const doc = parseHtml('<html><head><title>T</title></head><body><header>Site</header></body><p>Printed after the body.</p></html><div><p>The article, printed after the document.</p></div>');
    expect(textContent(bodyOf(doc))).toBe('SitePrinted after the body.The article, printed after the document.');
  });

  it('takes what is printed between </head> and <body> first', () => {
    const doc = parseHtml('<html><head><title>T</title></head><header>Printed before the body.</header><body><p>The body.</p></body></html>');
    expect(textContent(bodyOf(doc))).toBe('Printed before the body.The body.');
    expect(textContent(doc.children[0]!)).toBe('TPrinted before the body.The body.');
  });

  it('reaches the text of the whole pipeline', () => {
    const article = Array.from({ length: 5 }, (_, i) => `<p>Paragraph ${i} of the article, with words, commas, and sentences enough to read like prose.</p>`).join('');
    const html = `<html><head><title>HR outsourcing</title></head><body><nav><a href="/">Home</a></nav></body></html><div class="blog-content">${article}</div>`;
    const out = formatPage(html, { url: 'https://blog.example/hr', formats: { raw_html: false, enhanced_html: false, markdown: false, page_text: true } });
    expect(out.page_text).toContain('Paragraph 4 of the article');
  });
});
