// The page type read from what a page declares and how it is built (see page-type.ts).
import { describe, expect, it } from '@jest/globals';
import { formatPage, guessPageType, parseHtml } from '../index.js';
import { page, prose } from '#test/support/pages.js';

const ld = (type: string, extra = ''): string => `<script type="application/ld+json">{"@context":"https://schema.org","@type":"${type}"${extra}}</script>`;
const typeOf = (html: string, url = 'https://site.example/a/b/c'): string | undefined =>
  (formatPage(html, { url, formats: { raw_html: false, enhanced_html: false, markdown: false, page_text: false } }).metadata as { pageType?: string }).pageType;
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
