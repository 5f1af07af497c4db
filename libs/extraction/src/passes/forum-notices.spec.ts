import { describe, expect, it } from '@jest/globals';
import { formatPage } from '../index.js';

const TEXT = { raw_html: false, enhanced_html: false, markdown: false, page_text: true };
const sentence = (i: number, who: string): string => `${who} wrote sentence ${i}, with commas, detail, and enough words to read as a real post.`;
const post = (i: number): string => `<article class="post" id="post-${i}"><a href="/u/${i}">user${i}</a><div class="post-body"><p>${sentence(1, `Poster ${i}`)} ${sentence(2, `Poster ${i}`)}</p></div></article>`;
const thread = (between: string): string =>
  `<html><head><title>Oiling the ways</title><script type="application/ld+json">{"@type":"DiscussionForumPosting","headline":"Oiling the ways"}</script></head>` +
  `<body><main><h1>Oiling the ways</h1><div class="posts">${post(1)}${between}${post(2)}${post(3)}</div></main></body></html>`;
const read = (html: string): string => formatPage(html, { url: 'https://board.example/threads/oiling-the-ways.41/', formats: TEXT }).page_text ?? '';

describe('notices on a forum thread', () => {
  it('are left out: alerts, notices and what the board says to guests', () => {
    const out = read(
      thread(
        '<div class="alert alert-warning">Hello! It looks like you are interested in this conversation, but you do not have an account yet.</div>' +
          '<div class="blockStatus-notice">Not open for further replies.</div><div class="cGuestTeaser">Create an account or sign in to comment.</div>' +
          '<div role="alert">This topic has been deleted.</div>',
      ),
    );
    expect(out).toContain('Poster 1 wrote sentence 2');
    expect(out).toContain('Poster 3 wrote sentence 1');
    expect(out).not.toContain('do not have an account');
    expect(out).not.toContain('further replies');
    expect(out).not.toContain('sign in to comment');
    expect(out).not.toContain('has been deleted');
  });

  it('keep a post whose theme names it a notice when it is most of the thread', () => {
    const html =
      `<html><head><title>Rules</title><script type="application/ld+json">{"@type":"DiscussionForumPosting","headline":"Rules"}</script></head><body><main>` +
      `<div class="notice-post"><p>${sentence(1, 'The moderator')} ${sentence(2, 'The moderator')} ${sentence(3, 'The moderator')}</p></div></main></body></html>`;
    expect(read(html)).toContain('The moderator wrote sentence 3');
  });
});
