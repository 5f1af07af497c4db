import { describe, expect, it } from '@jest/globals';
import { bodyOf, parseHtml } from '../dom.js';
import { formatPage } from '../index.js';
import { largestReplyTree } from './reply-tree.js';

const words = ['The gearbox', 'My old mill', 'A cheap lathe', 'Every vise', 'That bandsaw', 'Our drill press'];
const reply = (i: number, inner = ''): string =>
  `<li class="comments_subtree"><div class="comment"><div class="byline"><a href="/u/${i}">user${i}</a></div><div class="comment_text"><p>${words[i]} needs care, oil, patience and a steady hand, or it wears out long before its time, as I found out.${i === 0 ? ' I learned that over ten years of weekend work in a cold garage, one broken part after another, and I still keep a notebook of what failed.' : ''}</p></div></div>${inner ? `<ol class="comments">${inner}</ol>` : ''}</li>`;
const tree = `<ol class="comments">${reply(0, reply(1, reply(2, reply(3))))}${reply(4, reply(5))}</ol>`;
const story = `<div class="story"><h1><a href="https://elsewhere.example/post">Keeping old machines running</a></h1><span>via someone, 3 hours ago</span></div>`;
const html = `<!doctype html><html><head><title>Keeping old machines running</title></head><body><div id="inside">${story}${tree}</div></body></html>`;

describe('a story under a tree of nested replies', () => {
  it('measures the share of the page the tree holds', () => {
    expect(largestReplyTree(bodyOf(parseHtml(html))).share).toBeGreaterThan(0.8);
    expect(largestReplyTree(bodyOf(parseHtml(`<html><body><div class="comment"><p>one flat comment with some words</p></div></body></html>`))).share).toBe(0);
  });

  it('is read as a thread: every reply, at every depth, is the content', () => {
    const out = formatPage(html, { url: 'https://news.example/s/abc123/keeping_old_machines', formats: { raw_html: false, enhanced_html: false, markdown: false, page_text: true } });
    for (const w of words) expect(out.page_text).toContain(w);
  });

  it('is not read into a product page: a tree of customer questions there is beside what is sold', () => {
    const product = `<!doctype html><html><head><title>Bench vise</title><meta property="og:type" content="product"></head><body><main><h1>Bench vise</h1><p class="price">$89.00</p><button>Add to cart</button><div class="description"><p>A cast-iron bench vise with four-inch jaws, a swivel base and an anvil, for the home workshop.</p></div>${tree}</main></body></html>`;
    const out = formatPage(product, { url: 'https://shop.example/products/bench-vise', formats: { raw_html: false, enhanced_html: false, markdown: false, page_text: true } });
    expect(out.metadata).toMatchObject({ pageType: 'product' });
    expect(out.page_text).toContain('A cast-iron bench vise with four-inch jaws');
  });
});


describe('a story under a list of top-level comments, each with its own replies', () => {
  const comment = (i: number, inner = ''): string =>
    `<li class="comment"><div class="comment-body"><a href="/~u${i}">u${i}</a><p>Comment ${i}: the old kernel code builds fine with a modern compiler once the warnings are sorted out.</p></div>${inner ? `<ul>${inner}</ul>` : ''}</li>`;
  const list = `<ul class="listing">${[0, 1, 2, 3, 4, 5].map((i) => comment(i, i === 0 ? comment(10, comment(11)) : comment(20 + i))).join('')}</ul>`;
  const intro = `<div class="intro"><p>${'A short summary of a mailing-list thread about rewriting the kernel in another language. '.repeat(4)}</p></div>`;
  const nav = `<div class="nav">${Array.from({ length: 30 }, (_, i) => `<a href="/s/${i}">Section ${i}</a>`).join(' ')}</div>`;

  it('takes the list for the tree, though no one comment with its replies holds much of the page', () => {
    const { tree, share } = largestReplyTree(bodyOf(parseHtml(`<html><body>${nav}${intro}${list}</body></html>`)));
    expect(tree?.attribs.class).toBe('listing');
    expect(share).toBeGreaterThan(0.4);
  });
});
