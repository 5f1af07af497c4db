import { describe, expect, it } from '@jest/globals';
import { MAX_ROBOTS_BYTES, parseRobots, productToken } from './robots.js';

const ROBOTS = 'https://example.com/robots.txt';
const at = (path: string) => `https://example.com${path}`;
const robots = (body: string, ua = 'TrawlBot/1.0') => parseRobots(ROBOTS, 200, body, ua);

describe('parseRobots', () => {
  it('uses the longest matching rule, Allow winning a tie (RFC 9309 §2.2.2)', () => {
    const r = robots(['User-agent: *', 'Disallow: /private/', 'Allow: /private/public', 'Disallow: /a', 'Allow: /a'].join('\n'));
    expect(r.allowed(at('/private/x'))).toBe(false);
    expect(r.allowed(at('/private/public-note'))).toBe(true);
    expect(r.allowed(at('/private'))).toBe(true);
    expect(r.allowed(at('/a/b'))).toBe(true); // same length: Allow
    expect(r.allowed(at('/elsewhere'))).toBe(true);
  });

  it('takes a longer Disallow over a shorter Allow, whatever their order', () => {
    const r = robots(['User-agent: *', 'Disallow: /shop/cart/', 'Allow: /shop/'].join('\n'));
    expect(r.allowed(at('/shop/item'))).toBe(true);
    expect(r.allowed(at('/shop/cart/1'))).toBe(false);
  });

  it('matches `*` anywhere and `$` at the end', () => {
    const r = robots(['User-agent: *', 'Disallow: /*?sessionid=', 'Disallow: /*.pdf$', 'Disallow: /tmp*/cache'].join('\n'));
    expect(r.allowed(at('/page?sessionid=abc'))).toBe(false);
    expect(r.allowed(at('/page?a=1&sessionid=abc'))).toBe(true); // `?sessionid=` must follow the path directly
    expect(r.allowed(at('/page?q=1'))).toBe(true);
    expect(r.allowed(at('/files/report.pdf'))).toBe(false);
    expect(r.allowed(at('/files/report.pdf?download=1'))).toBe(true);
    expect(r.allowed(at('/tmp-2/x/cache'))).toBe(false);
  });

  it('picks the group of its product token, case-insensitively, combining repeated groups; `*` only when none matches', () => {
    const body = [
      'User-agent: *',
      'Disallow: /',
      '',
      'User-agent: OtherBot',
      'User-agent: trawlbot',
      'Disallow: /docs/',
      '',
      'User-agent: TRAWLBOT',
      'Disallow: /drafts/',
    ].join('\n');
    const trawl = robots(body, 'TrawlBot/2.1 (+https://trawl.example/bot)');
    expect(trawl.allowed(at('/'))).toBe(true);
    expect(trawl.allowed(at('/docs/a'))).toBe(false);
    expect(trawl.allowed(at('/drafts/a'))).toBe(false);
    const other = robots(body, 'SomeCrawler');
    expect(other.allowed(at('/'))).toBe(false);
    // A group that names the crawler with no rule allows everything, even when `*` disallows.
    expect(robots('User-agent: *\nDisallow: /\n\nUser-agent: TrawlBot\nDisallow:\n').allowed(at('/x'))).toBe(true);
  });

  it('reads Crawl-delay of the matching group in ms, fractional seconds too', () => {
    expect(robots('User-agent: *\nCrawl-delay: 2\n').crawlDelayMs()).toBe(2000);
    expect(robots('User-agent: *\nCrawl-delay: 0.5\n').crawlDelayMs()).toBe(500);
    expect(robots('User-agent: *\nCrawl-delay: soon\n').crawlDelayMs()).toBeNull();
    expect(robots('User-agent: *\nDisallow: /x\n').crawlDelayMs()).toBeNull();
    expect(robots('User-agent: *\nCrawl-delay: 5\n\nUser-agent: TrawlBot\nCrawl-delay: 1\n').crawlDelayMs()).toBe(1000);
  });

  it('lists every Sitemap line once, absolute, wherever it stands', () => {
    const r = robots(
      ['Sitemap: https://example.com/sitemap.xml', 'User-agent: *', 'Disallow: /x', 'Sitemap: /relative-sitemap.xml', 'sitemap: https://cdn.example.net/s.xml.gz', 'Sitemap: https://example.com/sitemap.xml', 'Sitemap: ftp://example.com/no'].join('\n'),
    );
    expect(r.sitemaps()).toEqual(['https://example.com/sitemap.xml', 'https://example.com/relative-sitemap.xml', 'https://cdn.example.net/s.xml.gz']);
    // Sitemap lines do not end a group.
    expect(r.allowed(at('/x'))).toBe(false);
  });

  it('compares percent-encoded unreserved characters decoded (RFC 9309 §2.2.2)', () => {
    const r = robots('User-agent: *\nDisallow: /%7Euser/\nDisallow: /caf%c3%a9\n');
    expect(r.allowed(at('/~user/x'))).toBe(false);
    expect(r.allowed(at('/%7euser/x'))).toBe(false);
    expect(r.allowed(at('/café'))).toBe(false);
  });

  it('treats 4xx as allow-all, 5xx, 429 and unreachable as disallow-all, but always allows /robots.txt', () => {
    for (const status of [404, 401, 403, 410, 301]) expect(parseRobots(ROBOTS, status, 'User-agent: *\nDisallow: /', 'TrawlBot').allowed(at('/x'))).toBe(true);
    for (const status of [500, 503, 429, null]) {
      const r = parseRobots(ROBOTS, status, '', 'TrawlBot');
      expect(r.allowed(at('/x'))).toBe(false);
      expect(r.allowed(at('/robots.txt'))).toBe(true);
      expect(r.sitemaps()).toEqual([]);
    }
    expect(robots('User-agent: *\nDisallow: /\n').allowed(at('/robots.txt'))).toBe(true);
  });

  it('answers false for a URL of another origin', () => {
    const r = robots('User-agent: *\nDisallow:\n');
    expect(r.allowed('https://other.example/x')).toBe(false);
    expect(r.allowed('http://example.com/x')).toBe(false);
    expect(r.allowed('https://example.com:443/x')).toBe(true);
  });

  it('ignores what lies past 500 KiB, without reading a cut line', () => {
    const filler = `# ${'x'.repeat(1000)}\n`.repeat(Math.ceil(MAX_ROBOTS_BYTES / 1003) - 1);
    const near = 'User-agent: *\nDisallow: /early\n' + filler;
    const body = `${near}${'#'.repeat(MAX_ROBOTS_BYTES - Buffer.byteLength(near) - 14)}\nDisallow: /late/and/long\n`;
    const r = robots(body);
    expect(Buffer.byteLength(body)).toBeGreaterThan(MAX_ROBOTS_BYTES);
    expect(r.allowed(at('/early'))).toBe(false);
    // The line crossing the bound would read `Disallow: /` if it were cut and parsed.
    expect(r.allowed(at('/late/and/long'))).toBe(true);
    expect(r.allowed(at('/other'))).toBe(true);
  });

  it('reads a file with a BOM and CRLF lines', () => {
    expect(robots('\uFEFFUser-agent: *\r\nDisallow: /x\r\n').allowed(at('/x'))).toBe(false);
  });
});

describe('productToken', () => {
  it('is the leading product name of a User-Agent', () => {
    expect(productToken('TrawlBot/1.0 (+https://x)')).toBe('TrawlBot');
    expect(productToken('my-crawler')).toBe('my-crawler');
    expect(productToken('/weird')).toBe('*');
  });
});
