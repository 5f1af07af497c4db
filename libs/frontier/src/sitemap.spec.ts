import { describe, expect, it } from '@jest/globals';
import { gzipSync } from 'node:zlib';
import { parseSitemap } from './sitemap.js';

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);

const URLSET = `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">
  <url><loc>https://example.com/</loc><lastmod>2024-05-01</lastmod></url>
  <url>
    <loc>
      https://example.com/a?x=1&amp;y=2
    </loc>
    <image:image><image:loc>https://cdn.example.com/a.png</image:loc></image:image>
  </url>
  <url><loc><![CDATA[https://example.com/cdata]]></loc></url>
  <url><loc>/relative</loc></url>
  <url><loc>mailto:x@example.com</loc></url>
</urlset>`;

describe('parseSitemap', () => {
  it('reads a urlset: locations (entities decoded, CDATA, whitespace trimmed), lastmod; image locations are not pages', () => {
    expect(parseSitemap(bytes(URLSET))).toEqual({
      kind: 'urlset',
      urls: [{ loc: 'https://example.com/', lastmod: '2024-05-01' }, { loc: 'https://example.com/a?x=1&y=2' }, { loc: 'https://example.com/cdata' }],
      sitemaps: [],
    });
  });

  it('reads a sitemap index', () => {
    const index = `<?xml version="1.0"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
      <sitemap><loc>https://example.com/sitemap-pages.xml</loc><lastmod>2024-01-01</lastmod></sitemap>
      <sitemap><loc>https://example.com/sitemap-posts.xml.gz</loc></sitemap>
    </sitemapindex>`;
    expect(parseSitemap(bytes(index))).toEqual({
      kind: 'index',
      urls: [],
      sitemaps: ['https://example.com/sitemap-pages.xml', 'https://example.com/sitemap-posts.xml.gz'],
    });
  });

  it('inflates a gzipped sitemap, detected by its magic bytes whatever the name', () => {
    const parsed = parseSitemap(gzipSync(bytes(URLSET)));
    expect(parsed.kind).toBe('urlset');
    expect(parsed.urls).toHaveLength(3);
  });

  it('refuses a gzip bomb (100 MB of zeros) without inflating it all', () => {
    const bomb = gzipSync(Buffer.alloc(100 * 1024 * 1024));
    expect(bomb.length).toBeLessThan(200_000);
    expect(parseSitemap(bomb)).toEqual({ kind: 'invalid', urls: [], sitemaps: [] });
    // The bound is the inflated size: a small one refuses a small sitemap too, and an uncompressed body over it.
    expect(parseSitemap(gzipSync(bytes(URLSET)), { maxBytes: 100 }).kind).toBe('invalid');
    expect(parseSitemap(bytes(URLSET), { maxBytes: 100 }).kind).toBe('invalid');
  });

  it('caps entries at maxUrls', () => {
    const many = `<urlset>${Array.from({ length: 30 }, (_, i) => `<url><loc>https://example.com/p${i}</loc></url>`).join('')}</urlset>`;
    const parsed = parseSitemap(bytes(many), { maxUrls: 10 });
    expect(parsed.urls.map((u) => u.loc)).toEqual(Array.from({ length: 10 }, (_, i) => `https://example.com/p${i}`));
  });

  it('reads plain-text sitemaps, one URL a line, skipping lines that are not http(s) URLs', () => {
    const text = '\uFEFFhttps://example.com/one\r\n\r\n  https://example.com/two  \nnot a url\nftp://example.com/x\nhttps://example.com/three';
    expect(parseSitemap(bytes(text))).toEqual({
      kind: 'urlset',
      urls: [{ loc: 'https://example.com/one' }, { loc: 'https://example.com/two' }, { loc: 'https://example.com/three' }],
      sitemaps: [],
    });
  });

  it("reads RSS and Atom feeds' item links", () => {
    const rss = `<?xml version="1.0"?><rss version="2.0"><channel><title>t</title><link>https://example.com/</link>
      <item><title>a</title><link>https://example.com/post-a</link></item>
      <item><title>b</title><link>https://example.com/post-b</link></item></channel></rss>`;
    expect(parseSitemap(bytes(rss)).urls.map((u) => u.loc)).toEqual(['https://example.com/post-a', 'https://example.com/post-b']);
    const atom = `<feed xmlns="http://www.w3.org/2005/Atom"><link href="https://example.com/" rel="self"/>
      <entry><link rel="edit" href="https://example.com/edit/1"/><link href="https://example.com/entry-1"/></entry>
      <entry><link rel="alternate" href="https://example.com/entry-2"/></entry></feed>`;
    expect(parseSitemap(bytes(atom))).toEqual({ kind: 'urlset', urls: [{ loc: 'https://example.com/entry-1' }, { loc: 'https://example.com/entry-2' }], sitemaps: [] });
  });

  it('keeps the entries closed before a malformed XML document breaks off, and drops the broken one', () => {
    const broken = `<urlset><url><loc>https://example.com/ok</loc></url><url><loc>https://example.com/cut`;
    expect(parseSitemap(bytes(broken))).toEqual({ kind: 'urlset', urls: [{ loc: 'https://example.com/ok' }], sitemaps: [] });
    const misnested = `<urlset><url><loc>https://example.com/a</url><url><loc>https://example.com/b</loc></url></urlset>`;
    expect(parseSitemap(bytes(misnested)).urls).toEqual([{ loc: 'https://example.com/b' }]);
  });

  it('calls what is not a sitemap invalid, and never throws', () => {
    expect(parseSitemap(bytes('<html><body><a href="https://example.com/">x</a></body></html>')).kind).toBe('invalid');
    expect(parseSitemap(bytes('')).kind).toBe('invalid');
    expect(parseSitemap(bytes('just words')).kind).toBe('invalid');
    expect(parseSitemap(new Uint8Array([0x1f, 0x8b, 1, 2, 3])).kind).toBe('invalid');
    expect(parseSitemap(new Uint8Array([0xff, 0xfe, 0x00, 0x3c]))).toEqual({ kind: 'invalid', urls: [], sitemaps: [] });
    expect(parseSitemap(bytes('<urlset></urlset>'))).toEqual({ kind: 'urlset', urls: [], sitemaps: [] });
  });
});
