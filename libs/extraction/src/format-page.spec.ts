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

describe('enhanced_html', () => {
  it('is a full document with a doctype even when the input had none', () => {
    const out = formatPage('<p>Just a fragment of text here.</p>', { url: 'https://e.example/', formats: { raw_html: false, enhanced_html: true, markdown: false, page_text: false } });
    expect(out.enhanced_html?.startsWith('<!DOCTYPE html>')).toBe(true);
    expect(out.enhanced_html).toContain('<p>Just a fragment of text here.</p>');
  });
});

describe('formatPage by page type', () => {
  it('keeps Adobe Experience Manager components: their cmp- prefix is not a consent platform', () => {
    const block = (i: number): string =>
      `<div class="cmp-container"><div class="cmp-text"><p>Service ${i}: our consultants plan, build and run your finance systems, from the ledger to the audit, with teams in every region.</p></div></div>`;
    const html = page(`<div class="root cmp-container"><h1 class="cmp-title">Consulting</h1>${[1, 2, 3, 4, 5].map(block).join('')}</div><div class="cmp-banner">We use cookies. Accept all?</div>`);
    const out = formatPage(html, opts('https://corp.example/services/consulting'));
    for (const i of [1, 2, 3, 4, 5]) expect(out.page_text).toContain(`Service ${i}: our consultants`);
    expect(out.page_text).not.toContain('We use cookies');
  });

  it('keeps the blocks of a service page named for what they show (a teaser), but prunes them on an article', () => {
    const intro = `<div class="intro"><h2>Bookkeeping for small firms</h2>${para(4)}</div>`;
    const teaser = '<div class="teaser"><h3>Payroll</h3><div>Pay your team on time, every time, from one screen.</div></div>';
    const html = page(`<div class="page">${intro}${teaser}</div><div class="footer-links"><a href="/a">About</a></div>`);
    expect(formatPage(html, opts('https://books.example/', { pageType: 'service' })).page_text).toContain('Pay your team on time');
    expect(formatPage(html, opts('https://books.example/', { pageType: 'article' })).page_text).not.toContain('Pay your team on time');
  });

  it('adds a product description the page hides but its JSON-LD declares', () => {
    const ld = JSON.stringify({
      '@context': 'https://schema.org',
      '@type': 'Product',
      name: 'Trail Mug',
      description: '<h4>MADE FOR THE TRAIL.</h4><p>Hand-thrown stoneware that keeps coffee hot for an hour, glazed in small batches and fired twice for a finish that survives the dishwasher.</p>',
      offers: { '@type': 'Offer', price: '24.00', priceCurrency: 'USD' },
    });
    const visible = `<main><h1>Trail Mug</h1><span class="price">$24.00</span><button>Add to cart</button><p>Ships in two days from our workshop in Vermont, packed in recycled paper.</p></main>`;
    const html = page(`${visible}<div class="tab-panel" hidden><p>Loading…</p></div>`, `<title>Trail Mug</title><script type="application/ld+json">${ld}</script>`);
    const out = formatPage(html, opts('https://shop.example/products/trail-mug'));
    expect(out.metadata).toMatchObject({ pageType: 'product' });
    expect(out.page_text).toContain('Hand-thrown stoneware that keeps coffee hot');
    expect(out.page_text).toContain('MADE FOR THE TRAIL.');
    expect(out.markdown).toContain('Hand-thrown stoneware');
    expect(out.page_text).not.toContain('<p>');
  });

  it('does not repeat a product description the page already shows', () => {
    const description = 'Hand-thrown stoneware that keeps coffee hot for an hour, glazed in small batches and fired twice for a finish that survives the dishwasher.';
    const ld = JSON.stringify({ '@type': 'Product', name: 'Trail Mug', description });
    const html = page(`<main><h1>Trail Mug</h1><span class="price">$24.00</span><button>Add to cart</button><p>${description}</p></main>`, `<title>Trail Mug</title><script type="application/ld+json">${ld}</script>`);
    const out = formatPage(html, opts('https://shop.example/products/trail-mug'));
    expect(out.page_text?.split('Hand-thrown stoneware').length).toBe(2);
  });

  it('keeps a results grid whose wrapper is named for search results, and drops the search box', () => {
    const card = (i: number): string => `<li class="tile"><a href="/product/${i}">Camp Tent ${i} for four people</a><span class="cost">$${100 + i}.00</span><div>Sleeping capacity: 4-person. Seasons: 3-season. Peak height: 6${i} in.</div></li>`;
    const grid = `<div id="search-page-wrapper"><div id="search-results"><ul class="grid">${Array.from({ length: 12 }, (_, i) => card(i)).join('')}</ul></div></div>`;
    // The shop's department menu outweighs the grid, so no "half the page's text" guard protects it.
    const departments = `<div class="departments">${Array.from({ length: 60 }, (_, i) => `<a href="/c/dept-${i}">Department number ${i} of the store</a>`).join(' ')}</div>`;
    const html = page(`<div class="site-search"><form><label>Search the shop for gear, clothing and more</label></form></div>${departments}<main>${grid}</main>`);
    const out = formatPage(html, opts('https://shop.example/c/camping-tents'));
    for (const i of [0, 5, 11]) expect(out.page_text).toContain(`Camp Tent ${i} for four people`);
    expect(out.page_text).not.toContain('Search the shop');
  });
});
