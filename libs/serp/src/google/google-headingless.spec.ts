import { describe, expect, it } from '@jest/globals';
import type { OrganicResult } from '../types.js';
import { parseGoogleSerp } from './google-provider.js';

const organic = (main: string) => {
  const { verdict, result } = parseGoogleSerp(`<html><body><div id="main">${main}</div></body></html>`, { type: 'search', page: 1, num: 10 });
  return { verdict, parser: result?.parser, results: (result?.serp_search_results ?? []) as OrganicResult[] };
};

describe('Google results titled by no heading tag', () => {
  it('a link made of a title, a hidden label and the URL line is titled by its title part; its block gives the snippet', () => {
    const card = (host: string, title: string) => `<div class="c"><div><a href="https://${host}/page"><br><div class="h">Web results</div>`
      + `<div class="t">${title}</div><div><span>${host}</span><cite>https://${host} › page</cite></div></a></div>`
      + `<div class="s">Snippet about ${title}.</div></div>`;
    const { verdict, parser, results } = organic(['alpha.example', 'beta.example', 'gamma.example'].map((h, i) => card(h, `Page number ${i + 1} title`)).join(''));
    expect(verdict).toEqual({ kind: 'ok' });
    expect(parser).toBe('fallback');
    expect(results.map((r) => [r.title, r.link, r.snippet])).toEqual([
      ['Page number 1 title', 'https://alpha.example/page', 'Snippet about Page number 1 title.'],
      ['Page number 2 title', 'https://beta.example/page', 'Snippet about Page number 2 title.'],
      ['Page number 3 title', 'https://gamma.example/page', 'Snippet about Page number 3 title.'],
    ]);
  });

  it('a one-line link opening a block that shows its URL is the title; sitelinks, menus and thumbnails after it are not', () => {
    const block = (host: string) => `<div class="g"><a href="https://${host}/v"><img alt=""><span>2:19</span></a><div class="r"><a href="https://${host}/">Home of ${host}</a></div>`
      + `<div class="s"><cite>https://${host}/</cite><a href="https://webcache.googleusercontent.com/search?q=cache:x">Cached</a>`
      + `<span>About ${host}.</span></div><table><tr><td><a href="https://${host}/about">About</a></td><td><a href="https://${host}/jobs">Jobs</a></td></tr></table></div>`;
    const { results } = organic(block('one.example') + block('two.example'));
    expect(results.map((r) => [r.title, r.link])).toEqual([['Home of one.example', 'https://one.example/'], ['Home of two.example', 'https://two.example/']]);
  });

  it("Google's own pages count where the URL line shows them, not as furniture beside a bare host line", () => {
    const own = '<div class="g"><div><a href="https://www.google.com/maps">Google Maps</a></div><cite>https://www.google.com/maps</cite><span>Find local businesses.</span></div>';
    const furniture = '<div class="k"><a href="https://www.google.com/intl/en/about/">About Google</a><div>google.com</div><div>Our company.</div></div>';
    const other = '<div class="g"><div><a href="https://other.example/">Other page here</a></div><cite>other.example</cite><span>Other.</span></div>';
    expect(organic(own + furniture + other).results.map((r) => r.link)).toEqual(['https://www.google.com/maps', 'https://other.example/']);
  });

  it('leaves a page with heading titles to the layout reader', () => {
    const { parser, results } = organic('<div class="g"><a href="https://a.example/"><h3>A</h3></a><div class="VwiC3b">a</div></div>');
    expect(parser).toBeUndefined();
    expect(results.map((r) => r.title)).toEqual(['A']);
  });
});
