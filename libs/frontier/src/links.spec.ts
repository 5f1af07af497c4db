import { describe, expect, it } from '@jest/globals';
import { canonicalKey, documentBase, followableLinks, MAX_LINKS_PER_PAGE } from './links.js';

const keep = { ignoreQuery: false };

describe('followableLinks', () => {
  it('resolves hrefs against the base, normalises them to keys, once each in document order', () => {
    const links = followableLinks(
      [{ href: 'b' }, { href: '/c#part' }, { href: 'HTTP://EXAMPLE.com/a/b' }, { href: '//cdn.example.net/x' }, { href: '/c' }],
      'http://example.com/a/',
      keep,
    );
    expect(links).toEqual(['http://example.com/a/b', 'http://example.com/c', 'http://cdn.example.net/x']);
  });

  it('leaves out rel=nofollow (a token of rel, any case) and non-http links', () => {
    const links = followableLinks(
      [
        { href: '/kept', rel: 'noopener' },
        { href: '/sponsored', rel: 'noopener NoFollow' },
        { href: 'javascript:void(0)' },
        { href: 'mailto:a@example.com' },
        { href: 'tel:+1' },
        { href: 'http://[broken/' },
      ],
      'http://example.com/',
      keep,
    );
    expect(links).toEqual(['http://example.com/kept']);
  });

  it('keeps the canonical link passed among the anchors, and drops queries with ignoreQuery', () => {
    const links = followableLinks([{ href: '/a?ref=x' }, { href: '/a', rel: 'canonical' }], 'http://example.com/', { ignoreQuery: true });
    expect(links).toEqual(['http://example.com/a']);
  });

  it('takes at most MAX_LINKS_PER_PAGE distinct links', () => {
    const hrefs = Array.from({ length: MAX_LINKS_PER_PAGE + 50 }, (_, i) => ({ href: `/p/${i}` }));
    expect(followableLinks(hrefs, 'http://example.com/', keep)).toHaveLength(MAX_LINKS_PER_PAGE);
  });
});

describe('documentBase', () => {
  it('honours an http(s) <base href>, resolved against the page URL, and ignores any other', () => {
    expect(documentBase('http://example.com/a/b', '/docs/')).toBe('http://example.com/docs/');
    expect(documentBase('http://example.com/a/b', 'https://cdn.example.net/x/')).toBe('https://cdn.example.net/x/');
    expect(documentBase('http://example.com/a/b', 'javascript:alert(1)')).toBe('http://example.com/a/b');
    expect(documentBase('http://example.com/a/b', undefined)).toBe('http://example.com/a/b');
    expect(followableLinks([{ href: 'c' }], documentBase('http://example.com/a/b', '/docs/'), keep)).toEqual(['http://example.com/docs/c']);
  });
});

describe('canonicalKey', () => {
  it('is the key of the canonical href, or null', () => {
    expect(canonicalKey(' /a/index.html ', 'http://example.com/a?ref=1', keep)).toBe('http://example.com/a/');
    expect(canonicalKey(undefined, 'http://example.com/', keep)).toBeNull();
    expect(canonicalKey('mailto:x', 'http://example.com/', keep)).toBeNull();
  });
});
