import { describe, expect, it } from '@jest/globals';
import { formatPage } from '../index.js';
import { bodyOf, findFirst, parseHtml } from '../dom.js';
import { extractMainContent } from '../selection/main-content.js';
import { profileOf } from '../profile.js';
import { renderText } from '../text.js';
import { atPath, pathOf, postGroup } from './post-group.js';

const TEXT = { raw_html: false, enhanced_html: false, markdown: false, page_text: true };
const opening = Array.from({ length: 8 }, (_, i) => `<p>Opening question part ${i}: my smoker runs hot, the temperature climbs, and the brisket dries out before noon.</p>`).join('');
const post = (i: number, body: string): string =>
  `<div class="post-wrap" id="wrap-${i}"><article class="post-box post-${i}"><div class="post-meta">member${i}</div><div class="post-body">${body}</div></article></div>`;

describe('a forum thread whose pick is its opening post', () => {
  it('widens to the run of posts', () => {
    const replies = [1, 2, 3].map((i) => post(i, `<p>Reply ${i}: close the bottom vent halfway, keep the lid shut and let the fire settle for an hour.</p>`)).join('');
    const html = `<html><head><title>Smoker runs hot</title></head><body><div class="thread">${post(0, opening)}${replies}</div></body></html>`;
    const out = formatPage(html, { url: 'https://forum.example/topic/smoker-runs-hot', formats: TEXT });
    expect(out.metadata).toMatchObject({ pageType: 'forum' });
    expect(out.page_text).toContain('Opening question part 7');
    expect(out.page_text).toContain('Reply 3: close the bottom vent');
  });
});

describe('postGroup', () => {
  const doc = parseHtml(`<html><body><main><div class="list"><div class="row a1"><p id="pick">first post text long enough to count here</p></div><div class="row a2"><p>second post text long enough to count as one</p></div><div class="row a3"><p>third post text long enough to count as one too</p></div></div><div class="pair"><div class="x"><p id="lone">a block</p></div><div class="x"><p>its only sibling, a single other block of text</p></div></div></main></body></html>`);
  const byId = (id: string): NonNullable<ReturnType<typeof findFirst>> => findFirst(doc, (e) => e.attribs.id === id) ?? (() => { throw new Error(id); })();

  it('finds the container of sibling blocks built from one template (numbered class names aside)', () => {
    expect(postGroup(byId('pick'))?.attribs.class).toBe('list');
  });
  it('needs at least two posts beside the pick', () => {
    expect(postGroup(byId('lone'))).toBeUndefined();
  });
  it('finds the same node in a copy of the tree by its path', () => {
    const copy = parseHtml(`<html><body><main><div class="list"><div class="row a1"><p id="pick">x</p></div></div></main></body></html>`);
    expect(atPath(copy, pathOf(byId('pick')))?.attribs.id).toBe('pick');
  });
});

describe('short posts of a thread', () => {
  it('are kept though their poster link and permalink make them link-heavy', () => {
    const reply = Array.from({ length: 2 }, (_, i) => `<p>Reply part ${i}: close the bottom vent halfway, keep the lid shut, and let the fire settle for an hour or so.</p>`).join('');
    const longPost = (i: number): string =>
      `<div class="post bg${i % 2}"><div class="inner"><p class="author"><a href="/member/${i}">member${i}</a> <a href="/p/${i}">Mon Jan 22, 2024</a></p><div class="content">${reply}</div></div></div>`;
    const shortPost = (i: number): string =>
      `<div class="post bg${i % 2}"><div class="inner"><p class="author"><a href="/member/${i}">member${i}</a> <a href="/p/${i}">Tue Jan 23, 2024 6:13 am</a></p><div class="content">Thanks, closing the vent halfway fixed it!</div></div></div>`;
    const doc = parseHtml(`<html><body><div class="topic">${longPost(1)}${shortPost(2)}${longPost(3)}${longPost(4)}${shortPost(5)}${longPost(6)}</div></body></html>`);
    const text = renderText(extractMainContent(bodyOf(doc), profileOf('forum')) ?? []);
    expect(text).toContain('Reply part 1');
    expect(text).toContain('Thanks, closing the vent halfway fixed it!');
  });
});

describe('the opening post of a thread', () => {
  it('belongs to the run of replies though it carries modifier classes of its own', () => {
    const doc = parseHtml(`<html><body><div class="block-body"><article class="message message--post message-threadStarterPost"><div class="message-content"><p id="opener">The opening post, with the question that started the thread.</p></div></article>${[1, 2, 3].map((i) => `<article class="message message--post"><div class="message-content"><p>Reply ${i}, long enough to count as a post of its own here.</p></div></article>`).join('')}</div></body></html>`);
    const opener = findFirst(doc, (e) => e.attribs.id === 'opener');
    expect(opener && postGroup(opener)?.attribs.class).toBe('block-body');
  });
});

describe('the byline of each post', () => {
  it('stays with the post: who wrote it and when', () => {
    const reply = (i: number): string =>
      `<li class="postbit"><div class="postdetails"><a href="/members/${i}">poster${i}</a> <a href="/p/${i}">11-29-2024, 0${i}:03 AM</a></div><div class="postbody"><p>Reply ${i}: move the site to a host with a data centre closer to your visitors, and measure again after a week.</p></div></li>`;
    const doc = parseHtml(`<html><body><ol class="posts">${[1, 2, 3, 4].map(reply).join('')}</ol></body></html>`);
    const text = renderText(extractMainContent(bodyOf(doc), profileOf('forum')) ?? []);
    expect(text).toContain('Reply 4: move the site');
    expect(text).toContain('11-29-2024, 04:03 AM');
  });
});

describe('the body of a short post beside its poster panel', () => {
  it('is kept, however deep in the post and however short beside its byline, though its permalink and the quote it answers make it link-heavy', () => {
    const post = (i: number, body: string): string =>
      `<article class="message message--post"><div class="message-inner"><div class="message-wrap"><div class="message-cell message-cell--user"><a href="/members/${i}">poster${i}</a></div>` +
      `<div class="message-cell message-cell--main"><a href="/posts/${i}">Mar 2, 2024</a> <a href="/posts/${i}">#${i}</a><div class="message-content"><div class="message-body"><div class="bb-wrapper">${body}</div></div></div></div></div></div></article>`;
    const long = (i: number): string => `<p>Reply ${i}: a longer answer that explains how to size the expansion tank for a closed loop, with the pressure you set it to.</p>`;
    const short = `<blockquote><a href="/members/1">poster1 said:</a> <a href="/goto/1">size the tank</a></blockquote>Thanks, that worked for me.`;
    const doc = parseHtml(`<html><body><div class="block-body">${post(1, long(1))}${post(2, short)}${post(3, long(3))}${post(4, long(4))}</div></body></html>`);
    const text = renderText(extractMainContent(bodyOf(doc), profileOf('forum')) ?? []);
    expect(text).toContain('Reply 4: a longer answer');
    expect(text).toContain('Thanks, that worked for me.');
  });
});

describe("the poster's panel beside each post", () => {
  const post = (i: number, panel: string): string =>
    `<article class="message message--post"><div class="message-inner"><div class="message-cell message-cell--user">${panel}</div>` +
    `<div class="message-cell message-cell--main"><a href="/posts/${i}">Mar 2, 2024</a><div class="message-content"><p>Reply ${i}: bleed the radiators from the top floor down, then top the pressure back up to one and a half bar.</p></div></div></div></article>`;
  const thread = (panel: (i: number) => string): string =>
    renderText(extractMainContent(bodyOf(parseHtml(`<html><body><div class="block-body">${[1, 2, 3, 4].map((i) => post(i, panel(i))).join('')}</div></body></html>`)), profileOf('forum')) ?? []);

  it('keeps the name of who wrote the post', () => {
    const text = thread((i) => `<h4 class="message-name"><a href="/members/${i}" class="username">heating_fan${i}</a></h4>`);
    expect(text).toContain('heating_fan3');
    expect(text).toContain('Reply 3: bleed the radiators');
  });
  it('leaves a panel that prints more than the name (rank, badges, links) to pruning', () => {
    const text = thread((i) => `<a href="/members/${i}" class="username">heating_fan${i}</a> <a href="/ranks">Senior Member</a> <a href="/badges">Gold Supporter</a>`);
    expect(text).not.toContain('Gold Supporter');
  });
});

describe('an opening post with its attached photos', () => {
  it('is a post, not a gallery: kept though it has more images than paragraphs', () => {
    const sentence = (i: number): string => `Step ${i}: I took the back panel off, found the twelve volt wire on the right plug and spliced the new lamp into it. `;
    const photos = [1, 2, 3].map((i) => `<div class="attachment"><img src="/a/${i}.jpg" alt=""></div>`).join('');
    const opener = `<div class="opening-card"><div class="card-body">${[1, 2, 3, 4, 5].map(sentence).join('')}${photos}</div></div>`;
    const reply = (i: number): string => `<div class="reply-card"><div class="card-body"><p>Reply ${i}: nice work, did the trim clips survive taking the panel off, or did you need new ones from the dealer?</p></div></div>`;
    const doc = parseHtml(`<html><body><div class="thread-body">${opener}<div class="replies">${[1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map(reply).join('')}</div></div></body></html>`);
    const text = renderText(extractMainContent(bodyOf(doc), profileOf('forum')) ?? []);
    expect(text).toContain('Reply 10: nice work');
    expect(text).toContain('Step 5: I took the back panel off');
  });
});
