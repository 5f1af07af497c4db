import { describe, expect, it } from '@jest/globals';
import { formatPage, guessPageType, markdownToText, parseHtml, type FormatOptions } from './index.js';

const ALL = { raw_html: false, enhanced_html: false, markdown: true, page_text: true };
const opts = (url = 'https://site.example/t/topic/1'): FormatOptions => ({ url, formats: ALL });
const sentence = (i: number): string => `Sentence ${i} of a real post, with enough words, commas, and clauses to read like prose.`;
const page = (body: string, head = '<title>T</title>'): string => `<!doctype html><html><head>${head}</head><body>${body}</body></html>`;

describe('page content served in <noscript>', () => {
  it('reads a thread that a single-page app serves only inside <noscript>', () => {
    const posts = [1, 2, 3].map((i) => `<div class="topic-body crawler-post"><p>${sentence(i)} ${sentence(i + 10)} ${sentence(i + 20)}</p></div>`).join('');
    const html = page(`<noscript><img src="https://px.example/p.gif"></noscript><div id="app">Loading…</div><noscript data-path="/t/x"><div id="main-outlet">${posts}</div></noscript>`);
    const out = formatPage(html, opts());
    expect(out.page_text).toContain('Sentence 1 of a real post');
    expect(out.page_text).toContain('Sentence 23 of a real post');
  });

  it('still drops a short <noscript> notice', () => {
    const html = page(`<article>${[1, 2, 3, 4, 5].map((i) => `<p>${sentence(i)} ${sentence(i + 10)}</p>`).join('')}</article><noscript><p>Please enable JavaScript to view the comments.</p></noscript>`);
    expect(formatPage(html, opts()).page_text).not.toContain('enable JavaScript');
  });
});

const ld = (type: string, extra = ''): string => `<script type="application/ld+json">{"@context":"https://schema.org","@type":"${type}"${extra}}</script>`;
const typeOf = (html: string, url = 'https://site.example/a/b/c'): string | undefined =>
  (formatPage(html, { url, formats: { raw_html: false, enhanced_html: false, markdown: false, page_text: false } }).metadata as { pageType?: string }).pageType;
const prose = (n: number): string => Array.from({ length: n }, (_, i) => `<p>${sentence(i)} ${sentence(i + 1)}</p>`).join('');
const cards = (n: number, price = false): string =>
  `<ul>${Array.from({ length: n }, (_, i) => `<li class="card"><a href="/item/${i}">Item number ${i}, a fine thing</a>${price ? `<span class="price">$${i}.99</span>` : ''}</li>`).join('')}</ul>`;

describe('page type (metadata.pageType)', () => {
  it('reads a declared article', () => {
    expect(typeOf(page(`<article>${prose(4)}</article>`, ld('NewsArticle', ',"datePublished":"2025-01-01"')))).toBe('article');
  });
  it('reads a forum thread from DiscussionForumPosting', () => {
    expect(typeOf(page(prose(2), ld('DiscussionForumPosting')))).toBe('forum');
  });
  it('reads a forum thread from its posts on a forum path', () => {
    const posts = [1, 2, 3].map((i) => `<div class="post">${prose(1)}<span>#${i}</span></div>`).join('');
    expect(typeOf(page(posts), 'https://site.example/t/some-topic/123')).toBe('forum');
  });
  it('reads a forum thread from its posts on a site whose name says forum, whatever its path or declared type', () => {
    const posts = [1, 2, 3].map((i) => `<div class="post">${prose(1)}<span>#${i}</span></div>`).join('');
    expect(typeOf(page(posts, ld('Article')), 'https://www.fishingforum.example/beginners/4821-first-rod.html')).toBe('forum');
  });
  it('reads a forum thread from posts its engine numbers by id, whatever their class (SMF `msg123`, phpBB `p123`)', () => {
    const posts = [1, 2, 3].map((i) => `<div class="windowbg" id="msg${4100 + i}">${prose(1)}<span>#${i}</span></div>`).join('');
    expect(typeOf(page(posts), 'https://site.example/community/index.php?topic=41.0')).toBe('forum');
  });
  it('does not take an FAQ block for a forum', () => {
    expect(typeOf(page(`<article>${prose(4)}</article>`, ld('FAQPage') + ld('Article')))).toBe('article');
  });
  it('reads a product from JSON-LD and a cart button', () => {
    expect(typeOf(page(`<h1>Kettle</h1>${prose(1)}<button>Add to cart</button>`, ld('Product')))).toBe('product');
  });
  it('reads a product with og:type product and a cart button, whatever its rails of other products', () => {
    const head = `<title>Kettle</title><meta property="og:type" content="product">${ld('Product')}`;
    expect(typeOf(page(`<h1>Kettle</h1>${prose(1)}<button>Add to cart</button>${cards(16, true)}`, head))).toBe('product');
    const group = `<title>Kettles</title><meta property="og:type" content="product.group">${ld('Product')}`;
    expect(typeOf(page(`<h1>Kettles</h1>${prose(1)}<button>Add to cart</button>${cards(16, true)}`, group))).toBe('collection');
  });
  it('reads an undeclared product from its item path and a cart button, whatever its rails', () => {
    const body = `<h1>Kettle</h1>${prose(1)}<button>Add to cart</button>${cards(16, true)}`;
    expect(typeOf(page(body), 'https://shop.example/Steel-Kettle/dp/B00KETTLE1')).toBe('product');
    expect(typeOf(page(body), 'https://shop.example/product/steel-kettle/')).toBe('product');
    // A category under /products/ is not one item.
    expect(typeOf(page(body), 'https://shop.example/products/kettles/')).toBe('collection');
  });
  it('reads an undeclared product from its price and one buy button, not a shelf that offers a button per card', () => {
    const buy = '<span class="price">$49</span><button>Add to cart</button>';
    expect(typeOf(page(`<h1>Steel kettle</h1>${prose(2)}${buy}<div class="sticky-bar">${buy}</div>`), 'https://shop.example/kitchen/steel-kettle.html')).toBe('product');
    const shelf = Array.from({ length: 6 }, (_, i) => `<div class="tile"><h2>Kettle ${i}</h2>${buy}</div>`).join('');
    expect(typeOf(page(`<h1>Kettles</h1>${prose(2)}${shelf}`), 'https://shop.example/kitchen/kettles.html')).not.toBe('product');
    // A front page showing its best seller is the site's, not the item's.
    expect(typeOf(page(`<h1>Steel kettle</h1>${prose(2)}${buy}`), 'https://kettle.example/')).not.toBe('product');
  });
  it('reads a category that counts the products it shows, however few of them carry a buy button', () => {
    const buy = '<span class="price">$149</span><button>Add to cart</button>';
    const pair = [1, 2].map((i) => `<div class="tile"><h2><a href="/bread-makers/model-${i}">Bread maker ${i}</a></h2>${buy}</div>`).join('');
    expect(typeOf(page(`<h1>Bread makers</h1><div class="count">Showing 2 of 2 products</div>${pair}`), 'https://shop.example/appliances/bread-makers/')).toBe('collection');
  });
  it('reads documentation from a docs sidebar', () => {
    expect(typeOf(page(`<nav class="docs-sidebar">${cards(5)}</nav><main>${prose(3)}</main>`))).toBe('documentation');
  });
  it('reads a collection from Open Graph product.group, whatever its cards, buy buttons or dates', () => {
    const head = '<title>Video games</title><meta property="og:type" content="product.group">';
    expect(typeOf(page(`<h1>Video games</h1>${cards(6)}`, head), 'https://shop.example/c/video-games/-/N-5xtg5')).toBe('collection');
    const dated = `${head}<meta property="article:published_time" content="2024-01-02">`;
    expect(typeOf(page(`<h1>Video games</h1><button>Add to cart</button><span class="price">$9</span>${cards(2)}`, dated), 'https://shop.example/c/video-games')).toBe('collection');
  });
  it("reads a collection from a path to one of a shop's collections with a run of cards, even one declared a CollectionPage", () => {
    const grid = `<h1>Sneakers</h1>${prose(4)}${cards(7)}`;
    expect(typeOf(page(grid, `<title>T</title>${ld('CollectionPage')}`), 'https://shop.example/collections/mens-sneakers')).toBe('collection');
    // An editor's singular /collection/ gathers picks in an article; a path below the collection is one of its items.
    expect(typeOf(page(grid), 'https://mag.example/collection/best-sneakers')).not.toBe('collection');
    expect(typeOf(page(`<h1>Sneakers</h1>${prose(4)}${cards(3)}`), 'https://shop.example/collections/mens-sneakers')).not.toBe('collection');
  });
  it('reads a collection from a grid of priced cards', () => {
    expect(typeOf(page(`<h1>Desks</h1>${cards(12, true)}`))).toBe('collection');
  });
  it('reads a collection from a grid whose cards each declare a product, priced by unnamed spans', () => {
    const grid = `<div class="results">${Array.from(
      { length: 12 },
      (_, i) =>
        `<article class="c-${i % 3}"><a href="/shoes/runner-${i}">Runner ${i}. Color grey. On sale for $${i}8.00.</a>` +
        `<script type="application/ld+json">{"@type":"Product","name":"Runner ${i}","offers":{"@type":"Offer","price":"${i}8.00"}}</script></article>`,
    ).join('')}</div>`;
    expect(typeOf(page(`<h1>Running shoes</h1>${grid}`), 'https://shop.example/running-shoes')).toBe('collection');
    // One product declared beside a few cards of others is still that product's page.
    expect(typeOf(page(`<h1>Runner</h1>${prose(1)}<span class="price">$80</span>${cards(9)}`, ld('Product')), 'https://shop.example/runner')).toBe('product');
  });
  it('reads a listing from a category path with a run of cards, however much its teasers say; not an entry filed there', () => {
    const body = `<h1>Gadgets</h1>${prose(8)}${cards(7)}`;
    expect(typeOf(page(body), 'https://mag.example/magazine/category/gadgets')).toBe('listing');
    expect(typeOf(page(body), 'https://courses.example/students/course-catalog/data-science')).toBe('listing');
    expect(typeOf(page(body), 'https://parts.example/catalogs/fasteners/')).toBe('listing');
    expect(typeOf(page(body), 'https://mag.example/topics/gadgets/best-phone-chargers')).not.toBe('listing');
    expect(typeOf(page(`<h1>Gadgets</h1>${prose(8)}${cards(3)}`), 'https://mag.example/magazine/category/gadgets')).not.toBe('listing');
  });
  it('reads a listing from a grid of cards without prices', () => {
    expect(typeOf(page(`<h1>Latest news</h1>${cards(12)}`))).toBe('listing');
  });
  it('reads a listing from a feed of <article> entries whose classes name their own categories', () => {
    const topics = ['garden', 'kitchen', 'travel', 'budget', 'health', 'style', 'pets', 'books'];
    const entries = topics
      .map((t, i) => `<article class="excerpt post type-post category-${t} tag-${t}-tips"><h2><a href="/blog/${t}-${i}/">Our best ${t} ideas for the season</a></h2></article>`)
      .join('');
    const html = page(`<h1>Start here</h1>${prose(2)}<div class="posts">${entries}</div>`);
    expect(typeOf(html, 'https://site.example/category/start-here/')).toBe('listing');
    // One <article> beside a long text is the article, whatever rail of teasers follows it.
    expect(typeOf(page(`<article>${prose(12)}</article><div>${entries}</div>`), 'https://site.example/category/start-here/')).not.toBe('listing');
  });
  it('reads a service page near the root without a date', () => {
    expect(typeOf(page(`<section><h2>What we do</h2>${prose(1)}</section><section><h2>Why us</h2>${prose(1)}</section>`), 'https://site.example/consulting/')).toBe('service');
  });
  it('takes a page with a <time> for an article', () => {
    expect(typeOf(page(`<time datetime="2019-05-21">May 21</time>${prose(2)}`), 'https://site.example/2019/05/21/a-post.html')).toBe('article');
  });
  it('takes a page without article metadata, a date, or much prose for a service page', () => {
    expect(typeOf(page(prose(5)), 'https://site.example/solutions/migration')).toBe('service');
  });
  it('reports an undeclared page with a dozen paragraphs or a deep path as an article', () => {
    expect(typeOf(page(prose(14)), 'https://site.example/solutions/migration')).toBe('article');
    expect(typeOf(page(prose(2)), 'https://site.example/blog/2019/a-post')).toBe('article');
  });
  it('selects a page dated only by its WebPage metadata like an undeclared article, and one that shows a date as an article', () => {
    const head = `<title>T</title>${ld('WebPage', ',"datePublished":"2024-03-01"')}`;
    expect(guessPageType(parseHtml(page(prose(5), head)), 'https://site.example/service')).toEqual({ type: 'article', selectAs: 'service', proseLike: true });
    expect(guessPageType(parseHtml(page(`<time datetime="2024-03-01">March 1</time>${prose(5)}`, head)), 'https://site.example/service')).toEqual({ type: 'article', selectAs: 'article', proseLike: false });
  });
  it('does not take a /learn/ path alone for documentation', () => {
    expect(typeOf(page(prose(5)), 'https://site.example/learn/what-is-a-ledger')).not.toBe('documentation');
    expect(typeOf(page(prose(5)), 'https://site.example/docs/ledger')).toBe('documentation');
  });
  it('reports an undated page whose Open Graph type is article as an article, selected as a landing page', () => {
    const head = '<title>T</title><meta property="og:type" content="article">';
    expect(typeOf(page(prose(5), head), 'https://site.example/solutions/migration')).toBe('article');
    expect(guessPageType(parseHtml(page(prose(5), head)), 'https://site.example/solutions/migration')).toEqual({ type: 'article', selectAs: 'service', proseLike: false });
    expect(guessPageType(parseHtml(page(prose(14))), 'https://site.example/solutions/migration')).toEqual({ type: 'article', selectAs: 'service', proseLike: true });
  });
});

describe('type-aware selection', () => {
  // A service page: one long section that an article-style pick would choose alone, and many short ones beside it.
  const sections = [
    `<section class="hero"><h2>Consulting that ships</h2><p>We help teams plan, build and run their platforms.</p></section>`,
    `<section class="story">${prose(2)}</section>`,
    ...['Strategy', 'Delivery', 'Operations', 'Training', 'Support', 'Audits', 'Security', 'Data', 'Hiring', 'Design'].map(
      (t) => `<section class="feature"><h3>${t}</h3><p>Our ${t.toLowerCase()} offer covers what your team needs to succeed with cloud platforms and data.</p></section>`,
    ),
  ].join('');
  const html = page(`<header><a href="/">Home</a></header><main>${sections}</main><footer>© Site</footer>`);

  it('keeps every section of a service page', () => {
    const text = formatPage(html, { ...opts('https://site.example/consulting/'), pageType: 'service' }).page_text ?? '';
    expect(text).toContain('Sentence 2 of a real post');
    for (const t of ['Consulting that ships', 'Strategy', 'Operations', 'Support', 'Our audits offer covers']) expect(text).toContain(t);
  });

  it('keeps the article pick on an article', () => {
    const text = formatPage(html, { ...opts('https://site.example/consulting/'), pageType: 'article' }).page_text ?? '';
    expect(text).not.toContain('Our audits offer covers');
  });
});

describe('product pages', () => {
  it('widen to the product details but drop rails of links to other products', () => {
    const rail = `<div class="carousel">${Array.from({ length: 8 }, (_, i) => `<div class="tile"><a href="/p/${i}">Other product number ${i} in stock</a></div>`).join('')}</div>`;
    const details = ['Materials', 'Care', 'Sizing', 'Shipping', 'Returns', 'Warranty'].map((t) => `<div class="panel"><h3>${t}</h3><p>${t} details for this kettle: stainless steel, 1.7 litres, boils in three minutes.</p></div>`).join('');
    const html = page(`<div class="pdp"><h1>Kettle</h1><div class="desc">${prose(2)}</div></div>${rail}<div class="tabs">${details}</div>`);
    const text = formatPage(html, { ...opts('https://site.example/products/kettle'), pageType: 'product' }).page_text ?? '';
    expect(text).toContain('Warranty details for this kettle');
    expect(text).not.toContain('Other product number 3');
  });

  it("keep the product's name in the text, where an article's headline is left to metadata", () => {
    const body = (heading: string) => `<main><h1>${heading}</h1><p>${sentence(1)} ${sentence(2)}</p><p>${sentence(3)} ${sentence(4)}</p><span class="price">$89</span><button>Add to cart</button></main>`;
    const product = formatPage(page(body('Linen desk lamp'), '<title>Linen desk lamp | Lampworks</title>'), opts('https://shop.example/product/linen-desk-lamp'));
    expect(product.metadata.pageType).toBe('product');
    expect(product.page_text).toMatch(/^Linen desk lamp\n/);
    const article = formatPage(page(body('Why linen shades soften light').replace(/<span class="price">.*<\/button>/, ''), '<title>Why linen shades soften light</title>'), opts('https://blog.example/2024/05/linen-shades'));
    expect(article.page_text).not.toContain('Why linen shades soften light');
  });

  it('add the description their JSON-LD declares when the page hides it, decoded when the shop wrote it URL-encoded', () => {
    const description = 'An elegant sofa with a curved frame, deep seats and a linen cover that comes off for washing.|Made to order.';
    const ld = `<script type="application/ld+json">{"@type":"Product","name":"Atelier sofa","description":"${encodeURIComponent(description)}"}</script>`;
    const html = page(`<div class="pdp"><h1>Atelier sofa</h1><p>${sentence(1)} ${sentence(2)}</p><span class="price">$2,400</span><button>Add to cart</button></div>`, `<title>Atelier sofa</title>${ld}`);
    const text = formatPage(html, opts('https://shop.example/product/atelier-sofa')).page_text ?? '';
    expect(text).toContain('An elegant sofa with a curved frame, deep seats');
    expect(text).not.toContain('%20');
  });
});

describe('forum threads', () => {
  const replies = [1, 2, 3, 4].map((i) => `<div class="comment"><span class="author">user${i}</span><p>Reply ${i}: ${sentence(i)} ${sentence(i + 5)}</p></div>`).join('');
  const html = page(`<div class="question"><h1>How do I pick a telescope?</h1>${prose(3)}</div><div class="comments">${replies}</div>`);

  it('keeps the posts of a thread whose replies are classed "comment"', () => {
    const text = formatPage(html, { ...opts(), pageType: 'forum' }).page_text ?? '';
    expect(text).toContain('Sentence 2 of a real post');
    for (const i of [1, 2, 3, 4]) expect(text).toContain(`Reply ${i}:`);
  });

  it('still drops the comments under an article', () => {
    expect(formatPage(html, { ...opts(), pageType: 'article' }).page_text).not.toContain('Reply 3:');
  });
});

describe('forum Markdown', () => {
  const post = (i: number, who: string): string =>
    `<div class="topic-body crawler-post"><div class="crawler-post-meta"><span class="creator" itemprop="author">${who}</span> <time datetime="2024-09-0${i}">September ${i}, 2024, 11:15pm</time></div><div class="post"><p>Post ${i}: ${sentence(i)} ${sentence(i + 10)}</p></div></div>`;
  const html = page(`<div id="main-outlet"><h1>Docker resolver question</h1>${post(1, 'alice')}${post(2, 'bob')}${post(3, 'carol')}</div>`);

  it('gives each post a section headed by its author and date', () => {
    const out = formatPage(html, { ...opts(), pageType: 'forum' });
    const md = out.markdown ?? '';
    expect(md).toMatch(/^## alice · September 1, 2024, 11:15pm\n\nPost 1:/m);
    expect(md).toMatch(/^## bob · September 2, 2024, 11:15pm\n\nPost 2:/m);
    expect(md).toMatch(/^## carol · September 3, 2024, 11:15pm\n\nPost 3:/m);
    expect(md.split('\n---\n')).toHaveLength(4);
    // page_text keeps who wrote what, in reading order
    expect(out.page_text).toMatch(/alice\s+September 1, 2024, 11:15pm\s+Post 1:/);
  });

  it('converts an article with comment-like blocks as one document', () => {
    expect(formatPage(html, { ...opts(), pageType: 'article' }).markdown).not.toMatch(/^## alice/m);
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
