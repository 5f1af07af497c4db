import { describe, expect, it } from '@jest/globals';
import { parseHtml, parseHtmlWithin, serialize } from './dom.js';
import { formatPage } from './format-page.js';
import { MAX_NESTING_DEPTH, TOO_DEEP_MESSAGE } from './nesting-depth.js';

const ALL = { raw_html: false, enhanced_html: true, markdown: true, page_text: true };

describe('parseHtmlWithin', () => {
  it('parses as parseHtml does when the page nests within the cap, implied closes and void elements not adding depth', () => {
    const page = '<html><body><p>a<p>b<p>c<br><img><ul><li>x<li>y</ul></body></html>';
    expect(parseHtmlWithin(page, 4)).toEqual({ doc: expect.anything(), tooDeep: false });
    expect(serialize(parseHtmlWithin(page, 4).doc)).toBe(serialize(parseHtml(page)));
    expect(parseHtmlWithin(page, 3).tooDeep).toBe(true);
    expect(parseHtmlWithin('<div><div><span>x</span></div></div><div></div>', 3).tooDeep).toBe(false);
    expect(parseHtmlWithin('plain text', 0).tooDeep).toBe(false);
  });

  // A full parse of them is quadratic (about a minute): the test's own timeout is the bound, not a speed claim.
  it('stops at once on 100k nested elements', () => {
    expect(parseHtmlWithin('<div>'.repeat(100_000) + '</div>'.repeat(100_000), MAX_NESTING_DEPTH).tooDeep).toBe(true);
    expect(parseHtmlWithin('<div>'.repeat(MAX_NESTING_DEPTH), MAX_NESTING_DEPTH).tooDeep).toBe(false);
  }, 30_000);
});

describe('formatPage on a page nested past the cap', () => {
  it('returns no formats and says why, instead of an empty page that would be charged', () => {
    const deep = `${'<div>'.repeat(100_000)}<p>The deepest paragraph.</p>${'</div>'.repeat(100_000)}`;
    expect(formatPage(deep, { url: 'https://example.com/', formats: ALL })).toEqual({ metadata: {}, unextractable: TOO_DEEP_MESSAGE });
  });

  it('extracts a page nested up to the cap', () => {
    const deep = `${'<div>'.repeat(MAX_NESTING_DEPTH - 3)}<p>The deepest paragraph.</p>${'</div>'.repeat(MAX_NESTING_DEPTH - 3)}`;
    const page = formatPage(`<html><body>${deep}</body></html>`, { url: 'https://example.com/', formats: ALL });
    expect(page.unextractable).toBeUndefined();
    expect(page.page_text).toContain('The deepest paragraph.');
  });
});
