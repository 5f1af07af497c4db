import { describe, expect, it } from '@jest/globals';
import { urlKey } from './url-key.js';

const keep = { ignoreQuery: false };
const key = (raw: string, base?: string) => urlKey(raw, base, keep);

describe('urlKey', () => {
  it('lower-cases scheme and host, drops the default port and the fragment, gives an empty path "/"', () => {
    expect(key('HTTP://Example.COM:80#top')).toBe('http://example.com/');
    expect(key('hTTpS://Example.com:443/A/B#x')).toBe('https://example.com/A/B');
    expect(key('http://example.com:8080/a')).toBe('http://example.com:8080/a');
    expect(key('https://example.com:80/')).toBe('https://example.com:80/');
  });

  it('puts IDN hosts in punycode and IPs in canonical form, and drops a trailing dot of the host', () => {
    expect(key('http://Bücher.example/straße')).toBe('http://xn--bcher-kva.example/stra%C3%9Fe');
    expect(key('http://[2001:DB8:0:0:0:0:0:1]:8080/x')).toBe('http://[2001:db8::1]:8080/x');
    expect(key('http://[::1]/')).toBe('http://[::1]/');
    expect(key('http://0x7f.1/')).toBe('http://127.0.0.1/');
    expect(key('http://example.com./a')).toBe('http://example.com/a');
  });

  it('resolves dot segments, encoded ones included, and never climbs above the root', () => {
    expect(key('http://example.com/a/b/../c/./d')).toBe('http://example.com/a/c/d');
    expect(key('../../../x', 'http://example.com/a/b/c')).toBe('http://example.com/x');
    expect(key('http://example.com/a/%2e%2E/b')).toBe('http://example.com/b');
  });

  it('normalises percent-encoding: unreserved characters decoded, other hex upper-cased', () => {
    expect(key('http://example.com/%7Euser/%7efile')).toBe('http://example.com/~user/~file');
    expect(key('http://example.com/a%2fb%3a')).toBe('http://example.com/a%2Fb%3A');
    expect(key('http://example.com/%41%2D%5F')).toBe('http://example.com/A-_');
    expect(key('http://example.com/a b')).toBe('http://example.com/a%20b');
    expect(key('http://example.com/?q=%7e%2f')).toBe('http://example.com/?q=~%2F');
  });

  it('drops a trailing index document, whatever its case, and keeps the directory slash', () => {
    expect(key('http://example.com/docs/index.html')).toBe('http://example.com/docs/');
    expect(key('http://example.com/index.htm')).toBe('http://example.com/');
    expect(key('http://example.com/a/INDEX.PHP?x=1')).toBe('http://example.com/a/?x=1');
    expect(key('http://example.com/a/default.aspx')).toBe('http://example.com/a/');
    expect(key('http://example.com/index.html/more')).toBe('http://example.com/index.html/more');
    expect(key('http://example.com/myindex.html')).toBe('http://example.com/myindex.html');
  });

  it('sorts query parameters by name, keeps repeated ones in their order, drops empty pieces and an empty query', () => {
    expect(key('http://example.com/p?b=2&a=1')).toBe('http://example.com/p?a=1&b=2');
    expect(key('http://example.com/p?b=1&a=2&a=1')).toBe('http://example.com/p?a=2&a=1&b=1');
    expect(key('http://example.com/p?')).toBe('http://example.com/p');
    expect(key('http://example.com/p?&&a=1&')).toBe('http://example.com/p?a=1');
    expect(key('http://example.com/p?flag&a=')).toBe('http://example.com/p?a=&flag');
  });

  it('drops tracking parameters and keeps the rest; ignoreQuery drops the whole query', () => {
    expect(key('http://example.com/p?utm_source=x&UTM_Medium=y&gclid=1&fbclid=2&id=7')).toBe('http://example.com/p?id=7');
    expect(key('http://example.com/p?utm_source=news')).toBe('http://example.com/p');
    expect(key('http://example.com/p?ref=home')).toBe('http://example.com/p?ref=home');
    expect(urlKey('http://example.com/p?id=7#x', undefined, { ignoreQuery: true })).toBe('http://example.com/p');
  });

  it('resolves relative and protocol-relative hrefs against the base', () => {
    expect(key('//Other.example/x', 'https://example.com/a/b')).toBe('https://other.example/x');
    expect(key('c?d=1', 'http://example.com/a/b')).toBe('http://example.com/a/c?d=1');
    expect(key('/root', 'http://example.com/a/b')).toBe('http://example.com/root');
    expect(key('#frag', 'http://example.com/a/b?x=1')).toBe('http://example.com/a/b?x=1');
    expect(key('', 'http://example.com/a')).toBe('http://example.com/a');
    expect(key('  /spaced  ', 'http://example.com/')).toBe('http://example.com/spaced');
  });

  it('refuses non-http(s) schemes, invalid URLs and URLs carrying credentials', () => {
    for (const raw of ['javascript:alert(1)', 'java\nscript:void(0)', 'mailto:a@example.com', 'tel:+123', 'data:text/html,hi', 'ftp://example.com/', 'file:///etc/passwd']) {
      expect(key(raw, 'http://example.com/')).toBeNull();
    }
    expect(key('/relative')).toBeNull();
    expect(key('http://')).toBeNull();
    expect(key('http://exa mple.com/')).toBeNull();
    expect(key('http://user:pass@example.com/')).toBeNull();
    expect(key('http://user@example.com/')).toBeNull();
  });

  it('is idempotent: a key is its own key', () => {
    const raws = [
      'HTTP://Bücher.example:80/a/../%7Eb/index.html?z=1&utm_source=x&a=%2f#f',
      'http://[2001:db8::1]/x?b&a',
      'https://example.com/%E2%82%AC?q=a+b',
    ];
    for (const raw of raws) {
      const once = key(raw)!;
      expect(key(once)).toBe(once);
    }
  });
});
