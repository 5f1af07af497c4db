// How selection picks and prunes the article: scoring, the blocks beside it, a landing page's blocks (see main-content.ts).
import { describe, expect, it } from '@jest/globals';
import { formatPage } from '../index.js';
import { STORY, TEXT_ONLY } from '#test/support/pages.js';

describe('list items in content scoring', () => {
  it('prefers the article over a long list of short items', () => {
    const archive = `<div class="archive-block"><ul>${Array.from({ length: 80 }, (_, i) => `<li>Month ${i}, 2019: 3 posts, 2 comments, 1 photo, 4 likes</li>`).join('')}</ul></div>`;
    const html = `<html><body><div class="col">${archive}</div><div class="col">${STORY}</div></body></html>`;
    const out = formatPage(html, { url: 'https://site.example/p', formats: TEXT_ONLY }).page_text ?? '';
    expect(out).toContain('Paragraph 2 of the story');
    expect(out).not.toContain('Month 7');
  });
});

describe('blocks next to the article', () => {
  it('takes the standfirst right before the article body when it reads as prose', () => {
    const html = `<html><body><div class="page"><div class="head-box"><span>Eine Einschätzung</span> liefert der Experte im Gespräch, mit Zahlen und Beispielen aus der Praxis.</div>
      <div class="story">${STORY}</div></div></body></html>`;
    const out = formatPage(html, { url: 'https://news.example/s', formats: TEXT_ONLY }).page_text ?? '';
    expect(out).toContain('liefert der Experte im Gespräch');
  });

  it('does not take a link block or a heading right before it', () => {
    const html = `<html><body><div class="page"><div class="crumbs"><a href="/a">Home</a> <a href="/b">News</a> <a href="/c">Economy and finance, all stories.</a></div>
      <div class="story">${STORY}</div></div></body></html>`;
    const out = formatPage(html, { url: 'https://news.example/s', formats: TEXT_ONLY }).page_text ?? '';
    expect(out).not.toContain('Economy and finance');
  });
});

describe('pruning a landing page', () => {
  it('keeps the blocks of a service page named for what they show (a teaser), but prunes them on an article', () => {
    const intro = `<div class="intro"><h2>Bookkeeping for small firms</h2>${STORY}</div>`;
    const teaser = '<div class="teaser"><h3>Payroll</h3><div>Pay your team on time, every time, from one screen.</div></div>';
    const html = `<html><head><title>T</title></head><body><div class="page">${intro}${teaser}</div><div class="footer-links"><a href="/a">About</a></div></body></html>`;
    expect(formatPage(html, { url: 'https://books.example/', formats: TEXT_ONLY, pageType: 'service' }).page_text).toContain('Pay your team on time');
    expect(formatPage(html, { url: 'https://books.example/', formats: TEXT_ONLY, pageType: 'article' }).page_text).not.toContain('Pay your team on time');
  });
});

describe('the block right before the article that holds the page heading', () => {
  it('is taken with the article, however long its lead: the title block of a reference page', () => {
    const code = Array.from({ length: 40 }, (_, i) => `const value${i} = widget.call("option-${i}");`).join('\n');
    const lead = `<p>The Widget API lets a page ask the service for widgets, change them, and remove them.</p>\n<p>It replaces the older gadget calls.</p><pre><code>${code}</code></pre>`;
    const sections = Array.from({ length: 30 }, (_, s) =>
      `<section><h2>Topic ${s}</h2>${Array.from({ length: 4 }, (_, i) => `<p>Topic ${s} paragraph ${i} walks through a call, its options, its errors, and its result.</p>`).join('')}</section>`,
    ).join('');
    const html = `<html><head><title>Widget API</title></head><body><main><div class="page-top"><h1>Widget API</h1><section>${lead}</section></div><div class="page-body">${sections}</div></main></body></html>`;
    const out = formatPage(html, { url: 'https://docs.example/widget', formats: { raw_html: false, enhanced_html: false, markdown: false, page_text: true } });
    expect(out.page_text).toContain('Topic 29 paragraph 3');
    expect(out.page_text).toContain('lets a page ask the service');
  });
});
