import { describe, expect, it } from '@jest/globals';
import { mergeLinks, rankLinks, searchWords } from './map-links.js';
import { siteQuery } from './map.service.js';

const scope = (allowSubdomains: boolean) => ({ start: 'https://www.example.com/', allowSubdomains, allowExternal: false, include: [], exclude: [], maxUrlLength: 2048 });
const keys = { ignoreQuery: true };

describe('mergeLinks', () => {
  it('keys each URL once in the order given, keeps the first title and description known, and drops what is out of scope', () => {
    const links = mergeLinks(
      [
        { url: 'https://www.example.com/' },
        { url: 'https://example.com/a?utm_source=x', title: '  A \n page ' },
        { url: 'https://www.example.com/a#top', title: 'Another title', description: 'About A' },
        { url: 'https://blog.example.com/post' },
        { url: 'https://elsewhere.example/b' },
        { url: 'mailto:x@example.com' },
      ],
      scope(false),
      keys,
      100,
    );
    expect(links).toEqual([
      { url: 'https://www.example.com/' },
      { url: 'https://example.com/a', title: 'A page' },
      { url: 'https://www.example.com/a', title: 'Another title', description: 'About A' },
    ]);
    expect(mergeLinks([{ url: 'https://blog.example.com/post' }], scope(true), keys, 100)).toEqual([{ url: 'https://blog.example.com/post' }]);
  });

  it('stops at max distinct links, still titling those it has', () => {
    const links = mergeLinks([{ url: 'https://example.com/1' }, { url: 'https://example.com/2' }, { url: 'https://example.com/1', title: 'One' }], scope(false), keys, 1);
    expect(links).toEqual([{ url: 'https://example.com/1', title: 'One' }]);
  });
});

describe('rankLinks', () => {
  const links = [
    { url: 'https://example.com/' },
    { url: 'https://example.com/blog/install-notes' },
    { url: 'https://example.com/docs/install' },
    { url: 'https://example.com/docs/api', title: 'API reference' },
    { url: 'https://example.com/caf%C3%A9', title: 'Our café' },
  ];

  it('puts links matching more words first, equal scores in the order found', () => {
    expect(rankLinks(links, 'Docs INSTALL').map((l) => l.url.slice(19))).toEqual(['/docs/install', '/blog/install-notes', '/docs/api', '/', '/caf%C3%A9']);
    expect(rankLinks(links, 'reference').map((l) => l.url.slice(19))[0]).toBe('/docs/api');
    expect(rankLinks(links, 'café')[0].url).toBe('https://example.com/caf%C3%A9');
  });

  it('leaves the order alone without words', () => {
    expect(rankLinks(links, undefined)).toBe(links);
    expect(rankLinks(links, '   ')).toBe(links);
    expect(searchWords('a  b a')).toEqual(['a', 'b']);
  });
});

describe('siteQuery', () => {
  it('names the host without www., or its registrable domain with include_subdomains', () => {
    expect(siteQuery({ url: 'https://www.docs.example.co.uk/x', search: 'install', include_subdomains: false })).toBe('site:docs.example.co.uk install');
    expect(siteQuery({ url: 'https://www.docs.example.co.uk/x', include_subdomains: true })).toBe('site:example.co.uk');
    expect(siteQuery({ url: 'http://127.0.0.1:8080/', include_subdomains: true })).toBe('site:127.0.0.1');
  });
});
