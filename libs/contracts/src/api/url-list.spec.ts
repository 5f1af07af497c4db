import { describe, expect, it } from '@jest/globals';
import { TrawlError } from '../trawl-error.js';
import { crawlParamsSchema } from './crawl.js';
import { headfulBrowserParamsSchema } from './headful-browser.js';
import { parseInput, parseQuery } from './query.js';
import { withRejected } from './url-list.js';

function messageOf(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(TrawlError);
    return (error as TrawlError).message;
  }
  throw new Error('expected a TrawlError');
}

describe('urls: one malformed entry fails that URL, not the call', () => {
  it('keeps the well-formed URLs and carries each malformed entry with its error and its place', () => {
    const { urls } = parseQuery(crawlParamsSchema(10), { urls: 'https://a.example/,not a url,https://b.example/x#f,ftp://c.example/' });
    expect([...urls]).toEqual(['https://a.example/', 'https://b.example/x']);
    expect(urls.rejected).toEqual([
      { url: 'not a url', error: expect.stringMatching(/^INVALID_URL: "not a url" is not a valid absolute URL/), at: 1 },
      { url: 'ftp://c.example/', error: 'INVALID_URL: "ftp://c.example/" must use http or https', at: 3 },
    ]);
    expect(withRejected(['A', 'B'], urls, (r) => `x:${r.url}`)).toEqual(['A', 'x:not a url', 'B', 'x:ftp://c.example/']);
  });

  it('the same on /headful-browser and from a JSON list (MCP)', () => {
    const { urls } = parseInput(headfulBrowserParamsSchema(5), { urls: ['nope', 'https://a.example/'] });
    expect([...urls]).toEqual(['https://a.example/']);
    expect(urls.rejected).toEqual([{ url: 'nope', error: expect.stringMatching(/^INVALID_URL: /), at: 0 }]);
  });

  it('no well-formed URL at all is still a 400 naming urls (nothing to crawl)', () => {
    expect(messageOf(() => parseQuery(crawlParamsSchema(10), { urls: 'not a url' }))).toMatch(/^urls: "not a url" is not a valid absolute URL/);
    expect(messageOf(() => parseQuery(crawlParamsSchema(10), { urls: 'nope,ftp://x.example/' }))).toMatch(/^urls: "nope"/);
    expect(messageOf(() => parseQuery(headfulBrowserParamsSchema(5), { urls: 'ftp://x.example/' }))).toBe('urls: "ftp://x.example/" must use http or https');
  });

  it('counts malformed entries towards the maximum, and a list with none carries no rejected entries', () => {
    expect(messageOf(() => parseQuery(crawlParamsSchema(2), { urls: 'https://a.example/,x,y' }))).toBe('urls has 3 URLs; the maximum is 2 per request');
    const { urls } = parseQuery(crawlParamsSchema(2), { urls: 'https://a.example/' });
    expect(urls.rejected).toBeUndefined();
    expect(withRejected(['A'], urls, () => 'never')).toEqual(['A']);
  });
});
