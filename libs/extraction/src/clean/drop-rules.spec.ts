// What cleaning drops and keeps by the drop rules (drop-rules.ts), on whole pages.
import { describe, expect, it } from '@jest/globals';
import { formatPage } from '../index.js';
import { STORY, TEXT_ONLY } from '#test/support/pages.js';
import { bodyOf, parseHtml, textContent } from '../dom.js';
import { cleanDocument } from './clean.js';

const page = (html: string): string => `<!doctype html><html><head><title>T</title></head><body>${html}</body></html>`;
const services = `<main>${Array.from({ length: 6 }, (_, i) => `<p>Paragraph ${i} of the page says what the service does, for whom, and at what price.</p>`).join('')}</main>`;
const cleanedBody = (html: string): string => {
  const doc = parseHtml(`<html><head><title>T</title></head><body>${html}</body></html>`);
  cleanDocument(doc, { url: 'https://site.example/', aggressive: true });
  return textContent(bodyOf(doc)).replace(/\s+/g, ' ').trim();
};

describe('hidden AMP components', () => {
  it('ignores an AMP lightbox that repeats a gallery, however long', () => {
    const captions = Array.from({ length: 30 }, (_, i) => `<p>Gallery caption ${i}, with words, commas, and more words describing a photo.</p>`).join('');
    const html = `<html><body><div id="main"><amp-lightbox layout="nodisplay" id="gallery">${captions}</amp-lightbox>${STORY}</div></body></html>`;
    const out = formatPage(html, { url: 'https://amp.example/a', formats: TEXT_ONLY }).page_text ?? '';
    expect(out).toContain('Paragraph 1 of the story');
    expect(out).not.toContain('Gallery caption');
  });
});

describe('ad words on content sections', () => {
  it('keeps a long text section whose class says it carries ad slots, and drops a real ad box', () => {
    const html = `<html><body><article><section class="report__intro">${STORY}${STORY}</section><section class="report__section report__section--ads">${STORY}${STORY}</section>
      <div class="ad-container"><p>Buy the new phone today, best price, free shipping and more offers.</p></div></article></body></html>`;
    const out = formatPage(html, { url: 'https://tests.example/r', formats: TEXT_ONLY }).page_text ?? '';
    expect(out.split('Paragraph 2 of the story').length - 1).toBe(4);
    expect(out).not.toContain('Buy the new phone');
  });
});

describe('chrome class words on prose', () => {
  it('keeps a long prose block whose class says "readmore" or "sidebar", but not a comment thread', () => {
    const long = Array.from({ length: 8 }, (_, i) => `<p>Sentence ${i} of the description, which tells the reader about the house, the garden and the village nearby.</p>`).join('');
    const comments = Array.from({ length: 8 }, (_, i) => `<p>Comment ${i}: I loved this place, the garden is lovely and the hosts were kind to us.</p>`).join('');
    const html = `<html><body><div class="object"><div class="intro">${STORY}${STORY}</div><div class="box js_readmore">${long}</div><div class="comments">${comments}</div></div></body></html>`;
    const out = formatPage(html, { url: 'https://rentals.example/h', formats: { ...TEXT_ONLY, enhanced_html: true } });
    expect(out.enhanced_html).toContain('Sentence 3 of the description');
    expect(out.enhanced_html).not.toContain('Comment 3:');
  });
});

describe('article headers', () => {
  it('keeps the lead in an article or recipe header, and still drops the site header', () => {
    const html = `<html><body><div class="site-header"><p>Subscribe to our site for updates and more news every day.</p></div>
      <div class="page"><div class="recipe-header"><p class="m-intro">Soft yeast muffins with a caramel almond crust, ready in under an hour.</p></div>
      <div class="content">${STORY}</div></div></body></html>`;
    const out = formatPage(html, { url: 'https://recipes.example/r', formats: TEXT_ONLY }).page_text ?? '';
    expect(out).toContain('Soft yeast muffins');
    expect(out).not.toContain('Subscribe to our site');
  });
});

describe('class words that name no chrome', () => {
  it('keeps Adobe Experience Manager components: their cmp- prefix is not a consent platform', () => {
    const block = (i: number): string =>
      `<div class="cmp-container"><div class="cmp-text"><p>Service ${i}: our consultants plan, build and run your finance systems, from the ledger to the audit, with teams in every region.</p></div></div>`;
    const html = page(`<div class="root cmp-container"><h1 class="cmp-title">Consulting</h1>${[1, 2, 3, 4, 5].map(block).join('')}</div><div class="cmp-banner">We use cookies. Accept all?</div>`);
    const out = formatPage(html, { url: 'https://corp.example/services/consulting', formats: TEXT_ONLY });
    for (const i of [1, 2, 3, 4, 5]) expect(out.page_text).toContain(`Service ${i}: our consultants`);
    expect(out.page_text).not.toContain('We use cookies');
  });

  it('keeps a results grid whose wrapper is named for search results, and drops the search box', () => {
    const card = (i: number): string => `<li class="tile"><a href="/product/${i}">Camp Tent ${i} for four people</a><span class="cost">$${100 + i}.00</span><div>Sleeping capacity: 4-person. Seasons: 3-season. Peak height: 6${i} in.</div></li>`;
    const grid = `<div id="search-page-wrapper"><div id="search-results"><ul class="grid">${Array.from({ length: 12 }, (_, i) => card(i)).join('')}</ul></div></div>`;
    // The shop's department menu outweighs the grid, so no "half the page's text" guard protects it.
    const departments = `<div class="departments">${Array.from({ length: 60 }, (_, i) => `<a href="/c/dept-${i}">Department number ${i} of the store</a>`).join(' ')}</div>`;
    const html = page(`<div class="site-search"><form><label>Search the shop for gear, clothing and more</label></form></div>${departments}<main>${grid}</main>`);
    const out = formatPage(html, { url: 'https://shop.example/c/camping-tents', formats: TEXT_ONLY });
    for (const i of [0, 5, 11]) expect(out.page_text).toContain(`Camp Tent ${i} for four people`);
    expect(out.page_text).not.toContain('Search the shop');
  });
});

describe('a block named like chrome that holds the page heading', () => {
  it('is kept when its text has few links: the hero', () => {
    const out = cleanedBody(`<div class="hero-banner"><h1>Cloud backups for small firms</h1><p>Every file, every night, restored in minutes</p></div>${services}`);
    expect(out).toContain('Cloud backups for small firms');
    expect(out).toContain('restored in minutes');
  });
  it('is dropped when it is links around a heading: the site header', () => {
    const out = cleanedBody(`<div class="banner"><h1><a href="/">Brand</a></h1><a href="/a">Products and services</a> <a href="/b">Pricing plans</a></div>${services}`);
    expect(out).not.toContain('Pricing plans');
  });
});

describe('class words inside code', () => {
  it("keeps a code block's comment tokens, which name chrome words", () => {
    const out = cleanedBody(`<div class="doc">${STORY}<pre><span class="hljs-comment"># reapply your stashed changes</span>\ngit stash pop\n<span class="token comment related">// show the reference log</span></pre></div><div class="comments"><p>A reader's comment.</p></div>`);
    expect(out).toContain('# reapply your stashed changes');
    expect(out).toContain('// show the reference log');
    expect(out).not.toContain("A reader's comment");
  });
});

describe('ids that spell a heading', () => {
  it("keeps a documentation section whose id is its long title's slug, with a comment word in it, and drops a short one", () => {
    const section = `<section id="use-trimmed-interleaved-replies-in-email-discussions"><span id="interleaved-replies"></span><h2>Use trimmed interleaved replies in email discussions</h2>${STORY}</section>`;
    const out = cleanedBody(`<div class="document">${STORY}${section}<div id="recent-replies"><h3>Recent replies</h3><p>Your email address will not be published, the required fields are marked.</p></div></div>`);
    expect(out).toContain('Use trimmed interleaved replies');
    expect(out.split('Paragraph 1 of the story').length - 1).toBe(2);
    expect(out).not.toContain('Your email address will not be published');
  });
});

describe('sections a generator ids by their titles', () => {
  const section = (slug: string, title: string): string => `<section id="${slug}"><h2>${title}</h2>${STORY}</section>`;

  it('keeps a short section id that spells its title when its sibling sections are id\'d by theirs, and drops a lone comment box', () => {
    const doc = `<div class="body">${section('submit-a-patch', 'Submit a patch')}${section('respond-to-review-comments', 'Respond to review comments')}${section('sign-your-work', 'Sign your work')}</div>`;
    const out = cleanedBody(`${doc}<div id="comments"><h2>Comments</h2><p>Your email address will not be published, the required fields are marked.</p></div>`);
    expect(out).toContain('Respond to review comments');
    expect(out.split('Paragraph 1 of the story').length - 1).toBe(3);
    expect(out).not.toContain('Your email address will not be published');
  });

  it("reads a generator's prefixed ids and a subsection's parent the same way", () => {
    const out = cleanedBody(`<div class="body"><section id="s-more-on-fields"><h3>More on fields</h3>${STORY}<section id="s-widgets"><span id="widgets"></span><h4>Widgets</h4><p>Each form field has a corresponding widget class.</p></section><section id="s-field-data"><h4>Field data</h4>${STORY}</section></section></div>`);
    expect(out).toContain('Each form field has a corresponding widget class');
  });

  it("keeps an article's headings id'd by their titles, whatever words the titles use", () => {
    const headings = ['What is social shopping', 'Why use social shopping', 'Social shopping on video apps'].map((t) => `<h2 id="${t.toLowerCase().replace(/ /g, '-')}">${t}</h2>${STORY}`).join('');
    const out = cleanedBody(`<div class="post">${headings}</div>`);
    expect(out).toContain('Why use social shopping');
  });

  it('drops a short comment section whose siblings are not named for their titles', () => {
    const out = cleanedBody(`<div class="body"><section id="intro"><h2>About the author</h2>${STORY}</section><section id="review-comments"><h2>Review comments</h2><p>Great post, thanks!</p></section><section id="more"><h2>Read next</h2>${STORY}</section></div>`);
    expect(out).not.toContain('Great post, thanks');
  });
});

describe("a chapter's table of contents", () => {
  const entries = ['intro', 'types', 'multicolumn', 'ordering', 'unique'].map((p, i) => `<dt><a href="indexes-${p}.html">11.${i + 1}. Indexes ${p}</a></dt><dd><a href="indexes-${p}.html#notes">11.${i + 1}.1. Notes on ${p}</a></dd>`).join('');

  const menu = Array.from({ length: 8 }, (_, i) => `<a href="/docs/page-${i}.html">Manual page ${i} of the reference</a>`).join(' ');

  it('is the chapter page: kept under its heading when its links lead to the chapter\'s pages', () => {
    const out = cleanedBody(`<div class="chapter" id="INDEXES"><div class="titlepage"><h2>Chapter 11. Indexes</h2></div><div class="toc"><p><strong>Table of Contents</strong></p><dl class="toc">${entries}</dl></div></div><nav>${menu}</nav><div class="sidebar">${menu}</div>`);
    expect(out).toContain('11.3. Indexes multicolumn');
    expect(out).not.toContain('Manual page');
  });

  it("is dropped when it lists the article's own headings", () => {
    const own = ['intro', 'types', 'multicolumn', 'ordering'].map((h) => `<li><a href="#${h}">Section on ${h}</a></li>`).join('');
    const out = cleanedBody(`<div class="post"><h1>Indexes</h1><div class="toc"><ul>${own}</ul></div>${STORY}</div>`);
    expect(out).toContain('Paragraph 1 of the story');
    expect(out).not.toContain('Section on multicolumn');
  });
});

describe("a script's state printed as JSON", () => {
  const state = JSON.stringify({ painterId: 'AsinGridWidget', hostPageType: 'BROWSE', asins: Array.from({ length: 12 }, (_, i) => `B0CXGXT6W${i}`), sortOrder: 'featured' });

  it('is dropped: data, not text anyone reads', () => {
    const out = cleanedBody(`<div class="grid-state">${state.replace(/"/g, '&quot;')}</div><p>Wireless earbuds with noise cancelling, and the cases that charge them.</p>`);
    expect(out).not.toContain('painterId');
    expect(out).toContain('Wireless earbuds');
  });

  it('stays in a code sample, and a sentence that starts with a brace stays', () => {
    const sentence = `{"see":"below"} is how the API answers; ${'the rest of this paragraph explains each field at length. '.repeat(4)}`;
    const out = cleanedBody(`<pre>${state}</pre><p>${sentence}</p>`);
    expect(out).toContain('painterId');
    expect(out).toContain('is how the API answers');
  });
});
