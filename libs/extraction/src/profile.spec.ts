// A page's profile: its type and the modes cleaning, selection and the passes read from it (see profile.ts).
import { describe, expect, it } from '@jest/globals';
import { parseHtml } from './dom.js';
import { pageProfile, profileOf } from './profile.js';

const page = (body: string, head = ''): string => `<html><head>${head}</head><body>${body}</body></html>`;

describe('pageProfile', () => {
  it('takes a declared type as it is, and derives the modes from it', () => {
    expect(pageProfile(parseHtml(page('<p>Hello</p>')), 'https://site.example/', { declared: 'forum' })).toMatchObject({ type: 'forum', selectAs: 'forum', forum: true, landing: false, feed: false });
    expect(profileOf('service')).toMatchObject({ landing: true, sectionRuns: false });
    expect(profileOf('article')).toMatchObject({ landing: false, sectionRuns: true });
    expect(profileOf('listing')).toMatchObject({ feed: true });
  });

  it('selects a story under a tree of nested replies as a forum, and reports the type it declares', () => {
    const reply = (depth: number): string =>
      depth === 0 ? '' : `<div class="comment"><p>A reply at depth ${depth}, with enough words in it to count as part of the discussion here.</p>${reply(depth - 1)}</div>`;
    const ld = '<script type="application/ld+json">{"@type":"NewsArticle","datePublished":"2024-01-01"}</script>';
    const profile = pageProfile(parseHtml(page(`<h1>A story</h1><p>Short.</p><div class="comments">${reply(5)}${reply(5)}</div>`, ld)), 'https://news.example/s/1');
    expect(profile).toMatchObject({ type: 'article', selectAs: 'forum', forum: true });
  });

  it('reads a product description from the structured data only when asked', () => {
    const ld = `<script type="application/ld+json">{"@type":"Product","description":"${'A sturdy kettle of brushed steel. '.repeat(4)}"}</script>`;
    const doc = parseHtml(page('<h1>Kettle</h1>', ld));
    expect(pageProfile(doc, 'https://shop.example/p/kettle', { declared: 'product', description: true }).description).toContain('A sturdy kettle');
    expect(pageProfile(doc, 'https://shop.example/p/kettle', { declared: 'product' }).description).toBeUndefined();
  });
});
