import { describe, expect, it } from '@jest/globals';
import { formatPage } from '../index.js';
import { bodyOf, parseHtml, textContent, type Element } from '../dom.js';
import { removeInnerBoilerplate } from './inner-boilerplate.js';

const TEXT = { raw_html: false, enhanced_html: false, markdown: false, page_text: true };
const para = (n: number, tag = 'Body'): string =>
  Array.from({ length: n }, (_, i) => `<p>${tag} paragraph ${i} of the article, with enough words, commas, and sentences to read like real prose. It keeps going for a while.</p>`).join('');
const text = (body: string): string =>
  formatPage(`<!doctype html><html><head><title>T</title></head><body>${body}</body></html>`, { url: 'https://site.example/a', formats: TEXT }).page_text ?? '';

const removeInner = (body: string, cardKindShare?: number): string => {
  const root = bodyOf(parseHtml(`<html><body>${body}</body></html>`)) as Element;
  removeInnerBoilerplate([root], false, cardKindShare);
  return textContent(root);
};

describe('boilerplate inside the article container', () => {
  it('drops bylines, meta lines, share bars, tag lists and related boxes by their class words', () => {
    const out = text(`<article class="post">
      <div class="entry-meta">Posted by Jane Doe on March 3</div>
      ${para(4)}
      <div class="shareBar"><span>Share this on Facebook and Twitter please</span></div>
      <ul class="post_tags"><li>politics</li><li>economy</li></ul>
      <div class="jp-relatedposts"><p>Another story you might want to read about something else entirely</p></div>
      <div class="author-box"><p>Jane Doe writes about economics for this site and lives in Berlin.</p></div>
    </article>`);
    expect(out).toContain('Body paragraph 3');
    for (const junk of ['Posted by', 'Share this', 'politics', 'Another story', 'writes about economics']) expect(out).not.toContain(junk);
  });

  it('keeps the caption of a figure that holds a quotation: it says who is quoted', () => {
    const out = text(`<article>${para(5)}<figure><blockquote><p>They answered every question within the hour, and the migration took a weekend.</p></blockquote><figcaption><span>Dana Rivers</span> <span>Head of Operations, Northwind</span></figcaption></figure></article>`);
    expect(out).toContain('within the hour');
    expect(out).toContain('Dana Rivers');
    expect(out).toContain('Head of Operations, Northwind');
  });

  it("keeps a service page's promos (its offers) and the authors of its quotes, and drops them inside an article", () => {
    const body = `<div>${para(4)}<div class="promo-card"><h3>Payroll for agencies</h3><p>Contractors and staff in one run.</p></div><div class="quote"><p>It saved our finance team a day a week.</p><div class="quote__author">Sam Okafor, CFO at Tallyhouse</div></div></div>`;
    const inner = (landing: boolean): string => {
      const root = bodyOf(parseHtml(`<html><body>${body}</body></html>`)) as Element;
      removeInnerBoilerplate([root], false, undefined, landing);
      return textContent(root);
    };
    expect(inner(true)).toContain('Contractors and staff in one run.');
    expect(inner(true)).toContain('Sam Okafor, CFO at Tallyhouse');
    expect(inner(false)).not.toContain('Contractors and staff in one run.');
    expect(inner(false)).not.toContain('Sam Okafor');
  });

  it('drops photo credits and short captions but keeps gallery captions that carry the text', () => {
    const article = text(`<article>${para(5)}<figure><img src="/a.jpg"><figcaption>The harbour at dawn (Photo: J. Doe)</figcaption></figure></article>`);
    expect(article).not.toContain('harbour at dawn');
    const gallery = text(
      `<article><p>Ten costume ideas for this year.</p>${Array.from({ length: 10 }, (_, i) => `<figure><img src="/${i}.jpg"><figcaption>Costume ${i}: what you need is a red jumper, a white collar and a black headband, and then some patience.</figcaption></figure>`).join('')}</article>`,
    );
    expect(gallery).toContain('Costume 7: what you need');
  });

  it('drops free-standing photo credits, figure labels and source lines but keeps sentences that cite an agency', () => {
    const out = text(`<article><p>Titelbild: Jane Roe</p>${para(3)}<p><span>Judy Eddy/WENN.com</span></p>
      <p>The commission said no link had been found, <span>according to Reuters</span>.</p><p><em>Crédits photos : Bestimage</em></p><p><span>Abbildung 4: klassische Schwachschicht.</span></p>${para(1, 'Tail')}<p><em>Quelle: Landesregierung</em></p></article>`);
    expect(out).not.toContain('Titelbild');
    expect(out).not.toContain('WENN.com');
    expect(out).not.toContain('Bestimage');
    expect(out).not.toContain('Schwachschicht');
    expect(out).not.toContain('Landesregierung');
    expect(out).toContain('according to Reuters');
  });

  it('keeps comment threads when they are the page content (forum), drops them under an article', () => {
    // (a forum engine's camelCase names: the thread survives cleaning, and the inner pass must not empty it)
    const forum = text(`<div class="thread">${Array.from({ length: 6 }, (_, i) => `<div class="ForumComment">${para(1, `Post ${i}`)}</div>`).join('')}</div>`);
    expect(forum).toContain('Post 5 paragraph 0');
    const blog = text(`<article>${para(6)}<div id="comments"><div class="comment">${para(1, 'Reader')}</div></div></article>`);
    expect(blog).toContain('Body paragraph 5');
    expect(blog).not.toContain('Reader paragraph');
  });

  it('drops date lines and "see also" teasers but keeps dates inside sentences', () => {
    const out = text(`<article>
      <p class="dateline-x">Updated: <time datetime="2020-04-03">03.04.2020</time></p>
      ${para(3)}
      <p>The law passed on <time datetime="2020-01-02">2 January</time>, after a long debate in parliament and elsewhere.</p>
      <p><strong>Lesen Sie auch:</strong> <a href="/x">Ein anderer Artikel</a></p>
      ${para(1, 'Mid')}
      <p><strong>Lea también:</strong> <a href="/y">Otro artículo</a></p>
      <p><strong>Zum Weiterlesen:</strong> <a href="/z">Noch ein Artikel</a></p>
      ${para(2, 'Tail')}
    </article>`);
    expect(out).not.toContain('03.04.2020');
    expect(out).toContain('passed on 2 January');
    expect(out).not.toContain('Lesen Sie auch');
    expect(out).not.toContain('Lea también');
    expect(out).not.toContain('Zum Weiterlesen');
    expect(out).toContain('Tail paragraph 1');
  });

  it('does not treat page-builder wrappers named "widget" as boilerplate', () => {
    const out = text(`<div class="elementor-section"><div class="elementor-widget-container"><div class="elementor-text-editor">${para(4)}</div></div></div><aside class="widget">Archive links</aside>`);
    expect(out).toContain('Body paragraph 3');
  });
});

describe('captions of a product grid inside a form', () => {
  it('keeps the cards when their captions carry the grid text, though a <form> wraps them all', () => {
    const cards = Array.from({ length: 12 }, (_, i) => `<div class="cell"><a href="/p/${i}"><img src="/i/${i}.jpg" alt=""></a><div class="caption center">Projector model ${i} laser 4K, manufacturer Brand, item number PX-${i}, price $${i}99.00</div></div>`).join('');
    const out = removeInner(`<form action="/cart"><div class="grid">${cards}</div></form>`);
    expect(out).toContain('Projector model 0 laser');
    expect(out).toContain('Projector model 11 laser');
  });

  it('still drops a photo caption inside an article', () => {
    const out = removeInner(`<div>${para(4)}<div class="caption">Photo of the minister at the podium</div></div>`);
    expect(out).not.toContain('minister at the podium');
  });
});

describe('forum signatures', () => {
  it('drops the signature under each post and keeps the posts', () => {
    const post = (i: number): string => `<div class="post">${para(2, `Post ${i}`)}<div class="post-signature">Running 3 Mac apps on a 2020 iMac with 32 GB of RAM</div></div>`;
    const out = formatPage(`<!doctype html><html><head><title>T</title></head><body><div class="thread">${[1, 2, 3].map(post).join('')}</div></body></html>`, { url: 'https://forum.example/t/topic/1', formats: TEXT }).page_text ?? '';
    expect(out).toContain('Post 3 paragraph 1');
    expect(out).not.toContain('2020 iMac');
  });
});

describe('a block whose class says "meta" but holds a heading', () => {
  it('is a section of the page, not its metadata', () => {
    const out = removeInner(`<main>
      <section class="meta-block-section"><div class="meta-block"><h2>Live TV</h2><p>Explore channels and packages for every household.</p></div></section>
      <div class="post-meta">Posted by Jane Doe on March 3</div>
      ${para(4)}
    </main>`);
    expect(out).toContain('Explore channels and packages');
    expect(out).not.toContain('Posted by');
  });
});

describe('a block whose class says "nav" but holds a section of text', () => {
  it('is a section an in-page menu points at, not the menu', () => {
    const out = removeInner(`<main>
      <div class="lm-navSource"><h2>Manage your contacts</h2><p>The free tool keeps every contact, deal and note in one place, so the whole team sees the same history of each customer, from the first call to the renewal.</p></div>
      <div class="sub-nav"><h3>Menu</h3><ul><li><a href="/a">Contacts and deals overview</a></li><li><a href="/b">Email marketing campaigns</a></li></ul></div>
      ${para(4)}
    </main>`);
    expect(out).toContain('keeps every contact, deal and note');
    expect(out).not.toContain('Email marketing campaigns');
  });
});

describe('cards named by their taxonomy', () => {
  it('keeps the captions of product cards whose class names their tags, and still drops their category lines', () => {
    const cards = Array.from(
      { length: 8 },
      (_, i) => `<li class="product type-product product_tag-camping product_tag-storage-${i % 2 ? 'bags' : 'boxes'}"><a href="/p/${i}"><img src="/i/${i}.jpg" alt=""></a>
        <div class="product-caption"><h2>Canvas gear bag number ${i}</h2><p>A heavy canvas bag that keeps the tools of the trade in order, item ${i}.</p></div>
        <div class="posted-in">Storage</div></li>`,
    ).join('');
    const out = removeInner(`<ul class="products">${cards}</ul>`);
    expect(out).toContain('Canvas gear bag number 0');
    expect(out).toContain('keeps the tools of the trade in order, item 7');
    expect(out).not.toContain('Storage');
  });

  it('still drops the parts of a single block kept for its size', () => {
    const slides = Array.from({ length: 6 }, (_, i) => `<div class="promo-slide"><p>Free shipping on orders over ${i + 4}0 in region ${i}, see the shipping page.</p></div>`).join('');
    const out = removeInner(`<div class="promo-bar">${slides}</div><div>${para(3)}</div>`);
    expect(out).toContain('Body paragraph 0');
    expect(out).not.toContain('Free shipping');
  });
});

describe('a part of the card template on a listing', () => {
  const jobs = Array.from(
    { length: 6 },
    (_, i) => `<li class="new-listing"><a href="/jobs/${i}"><span class="company">Company ${i}</span><div class="new-listing__categories"><span>Senior full-stack engineer number ${i}, remote</span></div><span class="region">Anywhere</span></a></li>`,
  ).join('');
  const page = `<h1>Full-stack jobs</h1><p>The latest remote full-stack jobs, updated every day by the hiring companies themselves.</p><ul>${jobs}</ul>`;

  it('is kept when it holds half the text of a listing', () => {
    expect(removeInner(page, 0.5)).toContain('Senior full-stack engineer number 5');
  });

  it('is removed among the prose of an article', () => {
    expect(removeInner(page)).not.toContain('Senior full-stack engineer number 5');
  });
});

describe('the date and author lines of an index of entries', () => {
  const entry = (i: number, link: boolean): string =>
    `<p class="entry-title">${link ? `<a href="/blog/post-${i}">Post number ${i}</a>` : `<b>Post number ${i}</b>`}, <span class="date">${i + 1} March 2026</span><br><span class="author">Writer ${i}</span></p>` +
    `<p class="entry-summary">Summary ${i} of what the post explains, in a sentence or two.</p>`;

  it('stay with each entry that links to its post', () => {
    const out = removeInner(Array.from({ length: 6 }, (_, i) => entry(i, true)).join(''));
    expect(out).toContain('4 March 2026');
    expect(out).toContain('Writer 5');
  });

  it('go when the blocks link to nothing (quoted customers, signed testimonials)', () => {
    const out = removeInner(Array.from({ length: 6 }, (_, i) => entry(i, false)).join(''));
    expect(out).not.toContain('Writer 5');
  });
});

describe('the ratings of the cards of a listing', () => {
  const recipe = (i: number): string =>
    `<article class="recipe-card"><a href="/recipes/${i}"><h3>Air fryer recipe number ${i}</h3></a>`
    + `<div class="recipe-rating"><span>${10 + i} reviews / 4.${i} average</span></div></article>`;
  const feed = (body: string): string => {
    const root = bodyOf(parseHtml(`<html><body>${body}</body></html>`)) as Element;
    removeInnerBoilerplate([root], false, 0.5, false, true);
    return textContent(root);
  };

  it("stay with each card: what a reader compares the items by", () => {
    expect(feed(`<h1>Air fryer recipes</h1>${Array.from({ length: 5 }, (_, i) => recipe(i)).join('')}`)).toContain('14 reviews / 4.4 average');
  });

  it("go as an article's rating widget, and outside a run of cards", () => {
    const widget = '<div class="post-rating"><span>Rate this article: 4.8 from 120 votes</span></div>';
    expect(removeInner(`${para(3)}${widget}`)).not.toContain('Rate this article');
    expect(feed(`${para(3)}${widget}`)).not.toContain('Rate this article');
  });
});

describe('the date inside the teaser link of each entry of an index', () => {
  const entry = (i: number): string =>
    `<div class="item"><h2 class="title"><a href="/2026/03/0${i + 1}/story-${i}">Story number ${i}</a></h2>`
    + `<p class="teaser"><a href="/2026/03/0${i + 1}/story-${i}"><time datetime="2026-03-0${i + 1}"><span class="date">March ${i + 1}, 2026 • </span></time>`
    + `What story ${i} found, in a sentence of the teaser that runs on for a while.</a></p></div>`;

  it('stays with the entry (its link is three levels up from the date)', () => {
    expect(removeInner(Array.from({ length: 5 }, (_, i) => entry(i)).join(''))).toContain('March 5, 2026');
  });
});

describe('code inside the article container', () => {
  it("keeps a code block's comments and tokens, whatever the highlighter names them", () => {
    const code = `<pre><code class="hljs"><span class="hljs-comment"># see available branches and their authors</span>
git branch -a
<span class="token comment">// share the stash with the related branch</span></code></pre>`;
    const out = removeInner(`${para(3)}${code}<div class="share-bar"><span>Share this on Facebook and Twitter please</span></div>`);
    expect(out).toContain('# see available branches and their authors');
    expect(out).toContain('// share the stash with the related branch');
    expect(out).not.toContain('Share this on Facebook');
  });
});
