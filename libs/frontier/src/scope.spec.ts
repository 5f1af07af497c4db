import { describe, expect, it } from '@jest/globals';
import { ErrorCode, TrawlError } from '#contracts';
import { compilePatterns, inScope, type CrawlScope } from './scope.js';

const scope = (over: Partial<CrawlScope> = {}): CrawlScope => ({
  start: 'https://blog.example.co.uk/posts/',
  allowSubdomains: false,
  allowExternal: false,
  include: [],
  exclude: [],
  maxUrlLength: 2048,
  ...over,
});

describe('inScope', () => {
  it('keeps the start host (any port, scheme, www. or not) and refuses other hosts', () => {
    expect(inScope('https://blog.example.co.uk/about', scope())).toEqual({ ok: true });
    expect(inScope('http://blog.example.co.uk:8080/x', scope())).toEqual({ ok: true });
    expect(inScope('https://www.blog.example.co.uk/x', scope())).toEqual({ ok: true });
    expect(inScope('https://shop.example.co.uk/', scope())).toEqual({ ok: false, reason: 'external' });
    expect(inScope('https://other.org/', scope())).toEqual({ ok: false, reason: 'external' });
  });

  it('takes subdomains of the registrable domain (public suffix list) only with allowSubdomains', () => {
    const s = scope({ allowSubdomains: true });
    expect(inScope('https://shop.example.co.uk/', s)).toEqual({ ok: true });
    expect(inScope('https://example.co.uk/', s)).toEqual({ ok: true });
    expect(inScope('https://a.b.example.co.uk/', s)).toEqual({ ok: true });
    // co.uk is a public suffix: another-example.co.uk is another site.
    expect(inScope('https://another-example.co.uk/', s)).toEqual({ ok: false, reason: 'external' });
    expect(inScope('https://example.com/', s)).toEqual({ ok: false, reason: 'external' });
  });

  it('treats private suffixes as suffixes: two github.io sites are two sites', () => {
    const s = scope({ start: 'https://alice.github.io/', allowSubdomains: true });
    expect(inScope('https://bob.github.io/', s)).toEqual({ ok: false, reason: 'external' });
    expect(inScope('https://docs.alice.github.io/', s)).toEqual({ ok: true });
  });

  it('gives IP hosts no subdomains: only the same address is the start host', () => {
    const s = scope({ start: 'http://127.0.0.2:8080/', allowSubdomains: true });
    expect(inScope('http://127.0.0.2:8080/a', s)).toEqual({ ok: true });
    expect(inScope('http://127.0.0.3:8080/a', s)).toEqual({ ok: false, reason: 'external' });
    expect(inScope('http://[::1]/', scope({ start: 'http://[::1]:80/' }))).toEqual({ ok: true });
  });

  it('takes any host with allowExternal', () => {
    expect(inScope('https://other.org/x', scope({ allowExternal: true }))).toEqual({ ok: true });
  });

  it('matches include/exclude against the path plus the query, exclude first', () => {
    const s = scope({ include: compilePatterns(['^/posts/'], 'includePaths'), exclude: compilePatterns(['\\?page=\\d+$', '/drafts/'], 'excludePaths') });
    expect(inScope('https://blog.example.co.uk/posts/a', s)).toEqual({ ok: true });
    expect(inScope('https://blog.example.co.uk/about', s)).toEqual({ ok: false, reason: 'not-included' });
    expect(inScope('https://blog.example.co.uk/posts/?page=2', s)).toEqual({ ok: false, reason: 'excluded' });
    expect(inScope('https://blog.example.co.uk/posts/drafts/x', s)).toEqual({ ok: false, reason: 'excluded' });
    // The host is not part of what patterns see.
    expect(inScope('https://blog.example.co.uk/x', scope({ include: [/example/] }))).toEqual({ ok: false, reason: 'not-included' });
  });

  it('refuses URLs over the length cap', () => {
    expect(inScope(`https://blog.example.co.uk/${'a'.repeat(100)}`, scope({ maxUrlLength: 64 }))).toEqual({ ok: false, reason: 'too-long' });
  });
});

describe('compilePatterns', () => {
  const rejected = (patterns: string[]): TrawlError => {
    try {
      compilePatterns(patterns, 'includePaths');
    } catch (error) {
      return error as TrawlError;
    }
    throw new Error('accepted');
  };

  it('compiles patterns, dropping empty ones', () => {
    const res = compilePatterns(['^/blog/.*$', '', 'docs'], 'includePaths');
    expect(res).toHaveLength(2);
    expect([res[0].test('/blog/a'), res[0].test('/docs/'), res[1].test('/docs/')]).toEqual([true, false, true]);
  });

  it('refuses an invalid regex, naming the parameter and the index', () => {
    const error = rejected(['ok', '(unclosed']);
    expect(error).toBeInstanceOf(TrawlError);
    expect(error.code).toBe(ErrorCode.INVALID_PARAMETER);
    expect(error.message).toMatch(/^includePaths\[1\]: not a valid regular expression/);
  });

  it('refuses a pattern over 500 characters and more than 100 patterns', () => {
    expect(rejected(['a'.repeat(501)]).message).toMatch(/^includePaths\[0\]: at most 500 characters/);
    expect(compilePatterns(['a'.repeat(500)], 'x')).toHaveLength(1);
    expect(rejected(Array.from({ length: 101 }, () => 'a')).message).toMatch(/^includePaths: at most 100 patterns/);
  });

  it('runs every pattern in linear time: what backtracks catastrophically in JavaScript answers at once', () => {
    // (\w|\d)+$ passes a star-height check; V8 spent minutes on 30 characters of it.
    for (const evil of ['(\\w|\\d)+$', '(a+)+$', '^(\\w+\\s?)*$', '(.*,)*x', '.*.*.*x']) {
      const [re] = compilePatterns([evil], 'excludePaths');
      const t0 = performance.now();
      expect(re.test(`${'1'.repeat(2000)}!`)).toBe(false);
      expect(performance.now() - t0).toBeLessThan(1000);
    }
  });

  it('matches as JavaScript does on the patterns people write', () => {
    const subjects = ['/blog/2024/post-1', '/docs/api/v2/', '/shop/item?id=7&page=3', '/a/b.html', '/Blog/x'];
    for (const p of ['^/blog/', '^/docs/(api|guide)/v\\d+/$', '\\?(.*&)?page=\\d+$', '\\.html$', '^/(?<section>[a-z]+)/', 'blog', '^/[^/]+/[^/]+$', '\\/a\\/']) {
      const [re] = compilePatterns([p], 'includePaths');
      expect(subjects.map((s) => re.test(s))).toEqual(subjects.map((s) => new RegExp(p).test(s)));
    }
  });

  it('refuses what needs backtracking: lookarounds and backreferences', () => {
    for (const pattern of ['^/(?!private)', '(?<=/)docs', '(a)\\1']) {
      const error = rejected([pattern]);
      expect(error.code).toBe(ErrorCode.INVALID_PARAMETER);
      expect(error.message).toMatch(/^includePaths\[0\]: lookarounds and backreferences are not supported/);
    }
  });
});
