import { describe, expect, it } from '@jest/globals';
import { formatPage, type FormatOptions } from './index.js';

const ALL = { raw_html: false, enhanced_html: true, markdown: true, page_text: true };
const opts = (url = 'https://site.example/blog/post.html', extra: Partial<FormatOptions> = {}): FormatOptions => ({ url, formats: ALL, ...extra });
const para = (n: number): string =>
  Array.from({ length: n }, (_, i) => `<p>Paragraph ${i} of the article, with enough words, commas, and sentences to read like real prose. It keeps going for a while.</p>`).join('');
const page = (body: string, head = '<title>T</title>'): string => `<!doctype html><html><head>${head}</head><body>${body}</body></html>`;

describe('formatPage', () => {
  it('renders GFM tables in markdown and keeps cells in text', () => {
    const html = page(`<article>${para(3)}<table><thead><tr><th>Name</th><th>Qty</th></tr></thead><tbody><tr><td>apple</td><td>3</td></tr><tr><td>pear</td><td>5</td></tr></tbody></table>${para(2)}</article>`);
    const out = formatPage(html, opts());
    expect(out.markdown).toContain('| Name | Qty |');
    expect(out.markdown).toMatch(/\| -+ \| -+ \|/);
    expect(out.markdown).toContain('| apple | 3 |');
    expect(out.page_text).toMatch(/apple\s+3/);
  });

  it('fences code blocks with their language', () => {
    const html = page(`<article>${para(3)}<pre><code class="language-python">def f(x):\n    return x * 2</code></pre>${para(1)}</article>`);
    const out = formatPage(html, opts());
    expect(out.markdown).toContain('```python\ndef f(x):\n    return x * 2\n```');
    expect(out.page_text).toContain('def f(x):\n    return x * 2');
  });

  it('nests lists', () => {
    const html = page(`<article>${para(3)}<ul><li>fruit<ul><li>apple</li><li>pear</li></ul></li><li>vegetables</li></ul>${para(1)}</article>`);
    const md = formatPage(html, opts()).markdown ?? '';
    expect(md).toMatch(/^- fruit\n {2,4}- apple\n {2,4}- pear\n- vegetables$/m);
  });

  it('makes links and images absolute against the final URL', () => {
    const html = page(`<article>${para(3)}<p>See <a href="../about/team.html">the team</a> and <img src="/img/a.png" alt="a chart"> now, with more words here.</p></article>`);
    const out = formatPage(html, opts('https://site.example/blog/2024/post.html'));
    expect(out.markdown).toContain('[the team](https://site.example/blog/about/team.html)');
    expect(out.markdown).toContain('![a chart](https://site.example/img/a.png)');
    expect(out.enhanced_html).toContain('href="https://site.example/blog/about/team.html"');
  });

  it('resolves relative URLs against <base href>', () => {
    const html = page(`<article>${para(3)}<p>A <a href="doc.html">doc link</a> in a sentence that is long enough.</p></article>`, '<title>T</title><base href="/static/v2/">');
    const out = formatPage(html, opts('https://site.example/a/b/c.html'));
    expect(out.markdown).toContain('(https://site.example/static/v2/doc.html)');
    expect(out.enhanced_html).not.toContain('<base');
  });

  it('reads a page saved to a file at the address it declares: links resolve to the site, and the path is the page\'s', () => {
    const lamp = page(
      `<main><h1>Desk lamp</h1><p>${'A brass desk lamp with a linen shade, dimmable, made to order. '.repeat(4)}</p>` +
        `<p>Read the <a href="/care/lamps">care guide</a>.</p><button>Add to cart</button></main>`,
      '<title>Desk lamp</title><link rel="canonical" href="https://shop.example/product/desk-lamp-42">',
    );
    const saved = formatPage(lamp, opts('file:///home/me/pages/lamp.html'));
    expect(saved.markdown).toContain('[care guide](https://shop.example/care/lamps)');
    // An undeclared page on an item path with a cart button is a product: the path read is the declared one.
    expect(saved.metadata).toMatchObject({ pageType: 'product', canonicalUrl: 'https://shop.example/product/desk-lamp-42' });
    // A fetched page keeps the address it was fetched from, and a file that declares none keeps the file's.
    expect(formatPage(lamp, opts('https://mirror.example/lamp')).markdown).toContain('(https://mirror.example/care/lamps)');
    const undeclared = formatPage(lamp.replace(/<link[^>]*>/, ''), opts('file:///home/me/pages/lamp.html'));
    expect(undeclared.markdown).toContain('(file:///care/lamps)');
  });

  it('survives broken HTML (unclosed tags, stray closers, bad entities)', () => {
    const html = `<html><body><div><article><p>Unclosed paragraph with words, commas, and more words that make it long enough<p>Second one &bogus; &amp; more text, and more, and more words in it</div></span></td><p>${'x'.repeat(50)}`;
    const out = formatPage(html, opts());
    expect(out.page_text).toContain('Unclosed paragraph with words');
    expect(out.page_text).toContain('& more text');
  });

  it('never leaks inline script or style text, even when huge', () => {
    const script = `<script>var tracker = "${'SCRIPTDATA '.repeat(100_000)}";</script>`;
    const html = page(`${script}<style>.x{color:red}</style><article>${para(4)}</article><noscript>Enable JS please</noscript>`);
    const out = formatPage(html, opts());
    for (const v of [out.markdown, out.page_text, out.enhanced_html]) {
      expect(v).not.toContain('SCRIPTDATA');
      expect(v).not.toContain('color:red');
      expect(v).not.toContain('Enable JS');
    }
    expect(out.page_text).toContain('Paragraph 3 of the article');
  });

  it('returns empty formats for an empty body and for empty input without throwing', () => {
    for (const html of ['', '<html><body></body></html>', '   ']) {
      const out = formatPage(html, opts());
      expect(out.page_text).toBe('');
      expect(out.markdown).toBe('');
      expect(out.metadata).toEqual({});
    }
  });

  it('does not throw on binary-ish input or a bad URL', () => {
    const junk = String.fromCharCode(...Array.from({ length: 5000 }, (_, i) => (i * 7919) % 65535));
    expect(() => formatPage(junk, opts('not a url'))).not.toThrow();
    expect(() => formatPage('<a href="http://[bad">x</a>', opts())).not.toThrow();
  });

  it('falls back to the whole page when it is all navigation', () => {
    const html = page('<nav><ul><li><a href="/a">Alpha section</a></li><li><a href="/b">Beta section</a></li></ul></nav>');
    const out = formatPage(html, opts());
    expect(out.page_text).toContain('Alpha section');
    expect(out.page_text).toContain('Beta section');
  });

  it('keeps the article and drops navigation, footer, sidebar, share bars and cookie banners', () => {
    const html = page(
      `<div id="cookie-banner">We use cookies. Accept all</div><header class="site-header"><a href="/">Home</a></header>` +
        `<nav><a href="/news">News</a><a href="/sport">Sport</a></nav>` +
        `<main><article><h1>Headline</h1>${para(5)}<div class="share-buttons"><a href="#">Share on Facebook</a></div></article></main>` +
        `<aside class="sidebar"><h3>Most read</h3><ul><li><a href="/x">Other story</a></li></ul></aside><footer>© 2024 Example Corp</footer>`,
    );
    const out = formatPage(html, opts());
    expect(out.page_text).toContain('Paragraph 4 of the article');
    for (const v of [out.page_text, out.markdown, out.enhanced_html]) {
      expect(v).not.toContain('We use cookies');
      expect(v).not.toContain('Other story');
      expect(v).not.toContain('Example Corp');
    }
    expect(out.page_text).not.toContain('Share on Facebook');
  });

  it('drops hidden elements', () => {
    const html = page(`<article>${para(3)}<p style="display:none">Invisible words here</p><div hidden>Also hidden</div></article>`);
    const out = formatPage(html, opts());
    expect(out.page_text).not.toContain('Invisible');
    expect(out.page_text).not.toContain('Also hidden');
  });

  it('sets raw_html only when asked, and only the requested formats', () => {
    const html = page(`<article>${para(3)}</article>`);
    expect(formatPage(html, opts()).raw_html).toBeUndefined();
    const out = formatPage(html, { url: 'https://e.example/', formats: { raw_html: true, enhanced_html: false, markdown: false, page_text: true } });
    expect(out.raw_html).toBe(html);
    expect(out.enhanced_html).toBeUndefined();
    expect(out.markdown).toBeUndefined();
  });

  it('produces the same content with turndown, selectable per call', () => {
    const html = page(`<article><h2>Section</h2>${para(3)}<blockquote><p>Quoted words of wisdom, long enough.</p></blockquote></article>`);
    const md = formatPage(html, opts('https://e.example/', { markdownConverter: 'turndown' })).markdown ?? '';
    expect(md).toContain('## Section');
    expect(md).toContain('> Quoted words of wisdom');
  });

  it('drops links that carry no text but keeps linked images', () => {
    const html = page(`<article>${para(3)}<p>Text <a href="/x"></a><a href="/y"><img src="/p.gif"></a> continues here with more words.</p></article>`);
    const md = formatPage(html, opts()).markdown ?? '';
    expect(md).not.toMatch(/(?<!!)\[\s*\]\(/);
    expect(md).not.toContain('https://site.example/x');
    expect(md).toContain('![](https://site.example/p.gif)');
  });
});

describe('the title heading in page_text', () => {
  const sentence = (i: number): string => `Sentence ${i} of a real post, with enough words, commas, and clauses to read like prose.`;

  it('leaves out the heading that repeats the title, not a short heading sharing a word with it', () => {
    const html = page(`<article><h2>Markets</h2><h1>Holiday markets open: how to find the best ones near you</h1>${para(5)}</article>`, '<title>Holiday markets open: how to find the best ones near you - Shop News</title>');
    const out = formatPage(html, opts('https://shop.example/m'));
    expect(out.page_text).not.toContain('how to find the best ones');
    expect(out.page_text).toContain('Markets');
    expect(out.markdown).toContain('# Holiday markets open');
  });

  it("keeps the product's name in the text, where an article's headline is left to metadata", () => {
    const body = (heading: string) => `<main><h1>${heading}</h1><p>${sentence(1)} ${sentence(2)}</p><p>${sentence(3)} ${sentence(4)}</p><span class="price">$89</span><button>Add to cart</button></main>`;
    const product = formatPage(page(body('Linen desk lamp'), '<title>Linen desk lamp | Lampworks</title>'), opts('https://shop.example/product/linen-desk-lamp'));
    expect(product.metadata.pageType).toBe('product');
    expect(product.page_text).toMatch(/^Linen desk lamp\n/);
    const article = formatPage(page(body('Why linen shades soften light').replace(/<span class="price">.*<\/button>/, ''), '<title>Why linen shades soften light</title>'), opts('https://blog.example/2024/05/linen-shades'));
    expect(article.page_text).not.toContain('Why linen shades soften light');
  });
});

describe('enhanced_html', () => {
  it('is a full document with a doctype even when the input had none', () => {
    const out = formatPage('<p>Just a fragment of text here.</p>', { url: 'https://e.example/', formats: { raw_html: false, enhanced_html: true, markdown: false, page_text: false } });
    expect(out.enhanced_html?.startsWith('<!DOCTYPE html>')).toBe(true);
    expect(out.enhanced_html).toContain('<p>Just a fragment of text here.</p>');
  });
});
