import { describe, expect, it } from '@jest/globals';
import { parseHtml } from './dom.js';
import { extractMetadataFromDocument } from './metadata.js';
import { pageAddress } from './page-address.js';

const SAVED = 'file:///home/me/pages/lamp.html';
const at = (head: string, body = '', given = SAVED): string => {
  const doc = parseHtml(`<html><head>${head}</head><body>${body}</body></html>`);
  return pageAddress(given, extractMetadataFromDocument(doc, given), doc);
};
const links = (origin: string, n: number): string => Array.from({ length: n }, (_, i) => `<a href="${origin}/p/${i}">Item ${i}</a>`).join('');

describe('pageAddress', () => {
  it('keeps the address a page was fetched from', () => {
    expect(at('<link rel="canonical" href="https://shop.example/item/1">', '', 'https://mirror.example/lamp')).toBe('https://mirror.example/lamp');
  });

  it('reads a saved page at its absolute canonical link, or og:url', () => {
    expect(at('<link rel="canonical" href="https://shop.example/item/1">')).toBe('https://shop.example/item/1');
    expect(at('<meta property="og:url" content="https://shop.example/item/2">')).toBe('https://shop.example/item/2');
  });

  it('reads a canonical link without scheme over https', () => {
    expect(at('<link rel="canonical" href="//shop.example/item/3?ref=a">')).toBe('https://shop.example/item/3?ref=a');
  });

  it("places a canonical path on the site the page's feed and language links name", () => {
    const head = '<link rel="canonical" href="/forum/viewtopic.php?t=9"><link rel="alternate" type="application/rss+xml" href="https://forum.example/feed.php">';
    expect(at(head, links('https://other.example', 20))).toBe('https://forum.example/forum/viewtopic.php?t=9');
  });

  it('with no address declared, puts the file path on the host most of its links go to', () => {
    const body = links('https://docs.example', 12) + links('https://social.example', 2);
    expect(at('<link rel="icon" href="https://cdn.example/i.png">', body)).toBe('https://docs.example/home/me/pages/lamp.html');
  });

  it('keeps the file address when no host dominates the links, or there are few', () => {
    expect(at('', links('https://a.example', 4) + links('https://b.example', 4) + links('https://c.example', 4))).toBe(SAVED);
    expect(at('', links('https://a.example', 3))).toBe(SAVED);
    expect(at('<link rel="stylesheet" href="https://cdn.example/site.css">', '', '')).toBe('');
  });
});
