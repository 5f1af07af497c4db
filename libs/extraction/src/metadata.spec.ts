import { describe, expect, it } from '@jest/globals';
import { extractMetadata } from './metadata.js';

describe('extractMetadata', () => {
  it('reads JSON-LD, Open Graph, <html lang> and canonical link', () => {
    const html = `<html lang="de"><head><title>Der Titel | Zeitung</title>
      <meta property="og:site_name" content="Zeitung"><meta name="description" content="Kurz gesagt.">
      <link rel="canonical" href="/artikel/1">
      <script type="application/ld+json">{"@context":"https://schema.org","@type":"NewsArticle","headline":"Der Titel","datePublished":"2024-03-01T10:00:00Z","author":[{"@type":"Person","name":"Ada Muster"}]}</script>
      </head><body><p>x</p></body></html>`;
    expect(extractMetadata(html, 'https://zeitung.example/a?b=1')).toEqual({
      title: 'Der Titel',
      description: 'Kurz gesagt.',
      language: 'de',
      canonicalUrl: 'https://zeitung.example/artikel/1',
      publishedDate: '2024-03-01T10:00:00Z',
      author: 'Ada Muster',
      siteName: 'Zeitung',
    });
  });

  it('falls back to meta tags, <time> and the <title> without the site suffix', () => {
    const html = `<html><head><title>How we rebuilt the search index - Example Blog</title><meta name="author" content="By Jo Doe">
      <meta property="article:published_time" content="2023-05-06"></head><body><time datetime="2020-01-01">x</time></body></html>`;
    const m = extractMetadata(html, 'https://e.com/');
    expect(m.title).toBe('How we rebuilt the search index');
    expect(m.author).toBe('Jo Doe');
    expect(m.publishedDate).toBe('2023-05-06');
  });

  it('returns an empty object for empty or broken input', () => {
    expect(extractMetadata('', 'https://e.com/')).toEqual({});
    expect(extractMetadata('<script type="application/ld+json">{broken</script>', 'x')).toEqual({});
  });
});
