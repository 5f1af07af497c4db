import { describe, expect, it } from '@jest/globals';
import { formatPage, type FormatOptions } from './index.js';

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
