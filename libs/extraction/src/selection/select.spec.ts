// Selection by page type: how far a pick widens, and what a thread keeps (see select.ts).
import { describe, expect, it } from '@jest/globals';
import { formatPage } from '../index.js';
import { page, pageOptions, prose, sentence } from '#test/support/pages.js';

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
    const text = formatPage(html, { ...pageOptions('https://site.example/consulting/'), pageType: 'service' }).page_text ?? '';
    expect(text).toContain('Sentence 2 of a real post');
    for (const t of ['Consulting that ships', 'Strategy', 'Operations', 'Support', 'Our audits offer covers']) expect(text).toContain(t);
  });

  it('keeps the article pick on an article', () => {
    const text = formatPage(html, { ...pageOptions('https://site.example/consulting/'), pageType: 'article' }).page_text ?? '';
    expect(text).not.toContain('Our audits offer covers');
  });
});

describe('forum threads', () => {
  const replies = [1, 2, 3, 4].map((i) => `<div class="comment"><span class="author">user${i}</span><p>Reply ${i}: ${sentence(i)} ${sentence(i + 5)}</p></div>`).join('');
  const html = page(`<div class="question"><h1>How do I pick a telescope?</h1>${prose(3)}</div><div class="comments">${replies}</div>`);

  it('keeps the posts of a thread whose replies are classed "comment"', () => {
    const text = formatPage(html, { ...pageOptions(), pageType: 'forum' }).page_text ?? '';
    expect(text).toContain('Sentence 2 of a real post');
    for (const i of [1, 2, 3, 4]) expect(text).toContain(`Reply ${i}:`);
  });

  it('still drops the comments under an article', () => {
    expect(formatPage(html, { ...pageOptions(), pageType: 'article' }).page_text).not.toContain('Reply 3:');
  });
});

