// Content a page holds where cleaning would drop it: a single-page app's <noscript>, a template script (see clean.ts).
import { describe, expect, it } from '@jest/globals';
import { formatPage, type OutputFormats } from '../index.js';
import { page, pageOptions, sentence } from '#test/support/pages.js';

describe('page content served in <noscript>', () => {
  it('reads a thread that a single-page app serves only inside <noscript>', () => {
    const posts = [1, 2, 3].map((i) => `<div class="topic-body crawler-post"><p>${sentence(i)} ${sentence(i + 10)} ${sentence(i + 20)}</p></div>`).join('');
    const html = page(`<noscript><img src="https://px.example/p.gif"></noscript><div id="app">Loading…</div><noscript data-path="/t/x"><div id="main-outlet">${posts}</div></noscript>`);
    const out = formatPage(html, pageOptions());
    expect(out.page_text).toContain('Sentence 1 of a real post');
    expect(out.page_text).toContain('Sentence 23 of a real post');
  });

  it('still drops a short <noscript> notice', () => {
    const html = page(`<article>${[1, 2, 3, 4, 5].map((i) => `<p>${sentence(i)} ${sentence(i + 10)}</p>`).join('')}</article><noscript><p>Please enable JavaScript to view the comments.</p></noscript>`);
    expect(formatPage(html, pageOptions()).page_text).not.toContain('enable JavaScript');
  });
});

const TEXT: OutputFormats = { raw_html: false, enhanced_html: false, markdown: false, page_text: true };
const body = Array.from({ length: 5 }, (_, i) => `<p>Paragraph ${i} of the story, with words, commas, and sentences enough to read like real prose in an article body.</p>`).join('');
const text = (article: string): string =>
  formatPage(`<html><head><title>T</title></head><body><article>${article}</article></body></html>`, { url: 'https://news.example/a', formats: TEXT }).page_text ?? '';

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

