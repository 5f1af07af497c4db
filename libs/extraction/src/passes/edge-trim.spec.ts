import { describe, expect, it } from '@jest/globals';
import { formatPage, type OutputFormats } from '../index.js';

const TEXT: OutputFormats = { raw_html: false, enhanced_html: false, markdown: false, page_text: true };
const prose = (i: number): string =>
  `<p>Paragraph ${i} of the story, with words, commas, and sentences enough to read like real prose in an article body.</p>`;
const body = Array.from({ length: 5 }, (_, i) => prose(i)).join('');
const text = (article: string): string =>
  formatPage(`<html><head><title>T</title></head><body><article>${article}</article></body></html>`, { url: 'https://news.example/a', formats: TEXT }).page_text ?? '';

describe('edge trimming of the selected article', () => {
  it('drops a trailing "further reading" heading and its list of links to other articles', () => {
    const out = text(`${body}<h3>Weitere Beiträge</h3><p><a href="/x">Another story about something else</a></p><p><a href="/y">And one more story to read</a></p>`);
    expect(out).toContain('Paragraph 4 of the story');
    expect(out).not.toContain('Weitere Beiträge');
    expect(out).not.toContain('Another story');
  });

  it('drops a trailing label whose content was removed, and a bare date line at the start', () => {
    const out = text(`<p>23.10.2018</p>${body}<p><strong>Kontakt:</strong></p>`);
    expect(out).not.toMatch(/23\.10\.2018/);
    expect(out).not.toContain('Kontakt:');
    expect(out.startsWith('Paragraph 0')).toBe(true);
  });

  it('keeps a closing paragraph that holds a link within prose, and headings followed by text', () => {
    const out = text(`<h2>Background</h2>${body}<p>More details are in <a href="/report">the full report</a>, which the agency published on Monday.</p>`);
    expect(out).toContain('Background');
    expect(out).toContain('the full report');
  });

  it('never trims more than a small share of the article', () => {
    const links = Array.from({ length: 6 }, (_, i) => `<p><a href="/l${i}">A linked teaser number ${i} with a long title that goes on</a></p>`).join('');
    const out = text(`${prose(0)}${prose(1)}${links}`);
    expect(out).toContain('A linked teaser number 0');
  });
});

describe('inline markup templates', () => {
  it('reads a post body that the page keeps in a <script type="text/template"> (Blogger)', () => {
    const html = `<html><body><div class="post-body" itemprop="articleBody"><script type="text/template">${body}</script></div></body></html>`;
    expect(formatPage(html, { url: 'https://blog.example/p', formats: TEXT }).page_text).toContain('Paragraph 3 of the story');
  });

  it('ignores widget templates with placeholders and JSON in template scripts', () => {
    const widget = `<script type="text/template"><div class="card"><p>{{ title }} — ${'filler words '.repeat(30)}</p></div></script>`;
    const json = `<script type="text/html">{"quote":"<p>${'quoted words '.repeat(30)}</p>"}</script>`;
    const out = text(`${body}${widget}${json}`);
    expect(out).not.toContain('{{ title }}');
    expect(out).not.toContain('quoted words');
  });
});

describe('list items in content scoring', () => {
  it('prefers the article over a long list of short items', () => {
    const archive = `<div class="archive-block"><ul>${Array.from({ length: 80 }, (_, i) => `<li>Month ${i}, 2019: 3 posts, 2 comments, 1 photo, 4 likes</li>`).join('')}</ul></div>`;
    const html = `<html><body><div class="col">${archive}</div><div class="col">${body}</div></body></html>`;
    const out = formatPage(html, { url: 'https://site.example/p', formats: TEXT }).page_text ?? '';
    expect(out).toContain('Paragraph 2 of the story');
    expect(out).not.toContain('Month 7');
  });
});

describe('headline and hidden AMP components in page_text', () => {
  it('leaves out the heading that repeats the title, not a short heading sharing a word with it', () => {
    const html = `<html><head><title>Holiday markets open: how to find the best ones near you - Shop News</title></head><body><article>
      <h2>Markets</h2><h1>Holiday markets open: how to find the best ones near you</h1>${body}</article></body></html>`;
    const out = formatPage(html, { url: 'https://shop.example/m', formats: { ...TEXT, markdown: true } });
    expect(out.page_text).not.toContain('how to find the best ones');
    expect(out.page_text).toContain('Markets');
    expect(out.markdown).toContain('# Holiday markets open');
  });

  it('ignores an AMP lightbox that repeats a gallery, however long', () => {
    const captions = Array.from({ length: 30 }, (_, i) => `<p>Gallery caption ${i}, with words, commas, and more words describing a photo.</p>`).join('');
    const html = `<html><body><div id="main"><amp-lightbox layout="nodisplay" id="gallery">${captions}</amp-lightbox>${body}</div></body></html>`;
    const out = formatPage(html, { url: 'https://amp.example/a', formats: TEXT }).page_text ?? '';
    expect(out).toContain('Paragraph 1 of the story');
    expect(out).not.toContain('Gallery caption');
  });
});

describe('article headers and leads', () => {
  it('keeps the lead in an article or recipe header, and still drops the site header', () => {
    const html = `<html><body><div class="site-header"><p>Subscribe to our site for updates and more news every day.</p></div>
      <div class="page"><div class="recipe-header"><p class="m-intro">Soft yeast muffins with a caramel almond crust, ready in under an hour.</p></div>
      <div class="content">${body}</div></div></body></html>`;
    const out = formatPage(html, { url: 'https://recipes.example/r', formats: TEXT }).page_text ?? '';
    expect(out).toContain('Soft yeast muffins');
    expect(out).not.toContain('Subscribe to our site');
  });

  it('drops the publication stamp under the headline and a dek that the body repeats', () => {
    const dek = 'The top picks for events, competitions and fun for the month of October.';
    const html = `<html><head><title>Things to do</title></head><body><article><div class="detail-header-dek"><p>${dek}</p></div>
      <div class="body"><h1>Things to do in October</h1><p>Published Tue, Nov 19 2019 7:05 AM EST</p><p>${dek}</p>${body}</div></article></body></html>`;
    const out = formatPage(html, { url: 'https://mag.example/n', formats: TEXT }).page_text ?? '';
    expect(out).not.toContain('Published Tue');
    expect(out.split(dek).length - 1).toBe(1);
  });

  it('keeps paragraphs that repeat each other inside one container', () => {
    const same = '<p>Lorem ipsum dolor sit amet, consectetur adipisicing elit, sed do eiusmod tempor incididunt ut labore.</p>';
    const out = text(same.repeat(4));
    expect(out.split('Lorem ipsum').length - 1).toBe(4);
  });
});

describe('blocks next to the article', () => {
  it('takes the standfirst right before the article body when it reads as prose', () => {
    const html = `<html><body><div class="page"><div class="head-box"><span>Eine Einschätzung</span> liefert der Experte im Gespräch, mit Zahlen und Beispielen aus der Praxis.</div>
      <div class="story">${body}</div></div></body></html>`;
    const out = formatPage(html, { url: 'https://news.example/s', formats: TEXT }).page_text ?? '';
    expect(out).toContain('liefert der Experte im Gespräch');
  });

  it('does not take a link block or a heading right before it', () => {
    const html = `<html><body><div class="page"><div class="crumbs"><a href="/a">Home</a> <a href="/b">News</a> <a href="/c">Economy and finance, all stories.</a></div>
      <div class="story">${body}</div></div></body></html>`;
    const out = formatPage(html, { url: 'https://news.example/s', formats: TEXT }).page_text ?? '';
    expect(out).not.toContain('Economy and finance');
  });
});

describe('ad words on content sections', () => {
  it('keeps a long text section whose class says it carries ad slots, and drops a real ad box', () => {
    const html = `<html><body><article><section class="report__intro">${body}${body}</section><section class="report__section report__section--ads">${body}${body}</section>
      <div class="ad-container"><p>Buy the new phone today, best price, free shipping and more offers.</p></div></article></body></html>`;
    const out = formatPage(html, { url: 'https://tests.example/r', formats: TEXT }).page_text ?? '';
    expect(out.split('Paragraph 2 of the story').length - 1).toBe(4);
    expect(out).not.toContain('Buy the new phone');
  });
});

describe('leads outside the article element', () => {
  it('finds the standfirst in an article header that sits outside the <article> holding the body', () => {
    const html = `<html><body><main><header class="entry-header"><h1>Always tired?</h1><div class="lead"><p>Many people feel tired all the time in winter, and the reasons are often simple.</p></div></header>
      <div class="wrap"><article class="post"><div class="entry-content">${body}</div></article></div></main></body></html>`;
    const out = formatPage(html, { url: 'https://mag.example/t', formats: TEXT }).page_text ?? '';
    expect(out).toContain('Many people feel tired');
  });

  it('takes the subheadline under the headline, not a site tagline under a linked site name', () => {
    const sub = 'The governor signed the bill after a long night of debate in the chamber';
    const html = `<html><body><div class="top"><h1><a href="/">Blog of things</a></h1><h2>The blog of small and large things, since 2004</h2></div>
      <div class="page"><div class="head"><div class="article-header"><h1>Bill signed</h1><h2>${sub}</h2></div></div>
      <div class="content"><div class="photo"><img src="/a.jpg" alt=""></div><div class="article-body">${body}</div></div></div></body></html>`;
    const out = formatPage(html, { url: 'https://news.example/b', formats: TEXT }).page_text ?? '';
    expect(out).toContain(sub);
    expect(out).not.toContain('since 2004');
  });
});

describe('chrome class words on prose', () => {
  it('keeps a long prose block whose class says "readmore" or "sidebar", but not a comment thread', () => {
    const long = Array.from({ length: 8 }, (_, i) => `<p>Sentence ${i} of the description, which tells the reader about the house, the garden and the village nearby.</p>`).join('');
    const comments = Array.from({ length: 8 }, (_, i) => `<p>Comment ${i}: I loved this place, the garden is lovely and the hosts were kind to us.</p>`).join('');
    const html = `<html><body><div class="object"><div class="intro">${body}${body}</div><div class="box js_readmore">${long}</div><div class="comments">${comments}</div></div></body></html>`;
    const out = formatPage(html, { url: 'https://rentals.example/h', formats: { ...TEXT, enhanced_html: true } });
    expect(out.enhanced_html).toContain('Sentence 3 of the description');
    expect(out.enhanced_html).not.toContain('Comment 3:');
  });
});
