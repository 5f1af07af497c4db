// A thread's Markdown: a section per post, headed by its author and date (see forum.ts).
import { describe, expect, it } from '@jest/globals';
import { formatPage } from '../index.js';
import { page, pageOptions, sentence } from '#test/support/pages.js';

describe('forum Markdown', () => {
  const post = (i: number, who: string): string =>
    `<div class="topic-body crawler-post"><div class="crawler-post-meta"><span class="creator" itemprop="author">${who}</span> <time datetime="2024-09-0${i}">September ${i}, 2024, 11:15pm</time></div><div class="post"><p>Post ${i}: ${sentence(i)} ${sentence(i + 10)}</p></div></div>`;
  const html = page(`<div id="main-outlet"><h1>Docker resolver question</h1>${post(1, 'alice')}${post(2, 'bob')}${post(3, 'carol')}</div>`);

  it('gives each post a section headed by its author and date', () => {
    const out = formatPage(html, { ...pageOptions(), pageType: 'forum' });
    const md = out.markdown ?? '';
    expect(md).toMatch(/^## alice · September 1, 2024, 11:15pm\n\nPost 1:/m);
    expect(md).toMatch(/^## bob · September 2, 2024, 11:15pm\n\nPost 2:/m);
    expect(md).toMatch(/^## carol · September 3, 2024, 11:15pm\n\nPost 3:/m);
    expect(md.split('\n---\n')).toHaveLength(4);
    // page_text keeps who wrote what, in reading order
    expect(out.page_text).toMatch(/alice\s+September 1, 2024, 11:15pm\s+Post 1:/);
  });

  it('converts an article with comment-like blocks as one document', () => {
    expect(formatPage(html, { ...pageOptions(), pageType: 'article' }).markdown).not.toMatch(/^## alice/m);
  });
});

