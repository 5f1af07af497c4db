import { describe, expect, it } from '@jest/globals';
import { z } from 'zod';
import { TrawlError } from '../trawl-error.js';
import { crawlParamsSchema } from './crawl.js';
import { flag, integer, parseInput, parseQuery } from './query.js';
import { serpSearchParamsSchema } from './serp-search.js';

function errorOf(fn: () => unknown): { code: string; message: string } {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(TrawlError);
    return { code: (error as TrawlError).code, message: (error as TrawlError).message };
  }
  throw new Error('expected a TrawlError');
}

describe('parseQuery: the query-string layer over typed schemas', () => {
  const schema = z.object({ on: flag(false), n: integer('n', 1, 10, 3), names: z.array(z.string()).default([]) });

  it('coerces by the declared type: booleans, integers, comma-separated lists', () => {
    expect(parseQuery(schema, { on: 'true', n: '7', names: 'a, b' })).toEqual({ on: true, n: 7, names: ['a', 'b'] });
    expect(parseQuery(schema, {})).toEqual({ on: false, n: 3, names: [] });
  });

  it('ignores unknown parameters, including names of Object.prototype members (a 500 before: they were looked up as fields)', () => {
    const query = Object.assign(Object.create(null) as Record<string, string>, { n: '2', foo: 'x', constructor: '1', toString: '1', hasOwnProperty: '1', valueOf: '1' });
    query['__proto__'] = '1';
    expect(parseQuery(schema, query)).toEqual({ on: false, n: 2, names: [] });
  });

  it('takes booleans exactly as true or false, nothing else', () => {
    for (const value of ['TRUE', ' True ', 'yes', '1']) {
      expect(errorOf(() => parseQuery(schema, { on: value }))).toEqual({ code: 'INVALID_PARAMETER', message: 'on must be true or false' });
    }
  });

  it('names the parameter for integers out of range or not digits, repeated parameters and empty list entries', () => {
    expect(errorOf(() => parseQuery(schema, { n: '11' })).message).toBe('n must be an integer from 1 to 10');
    expect(errorOf(() => parseQuery(schema, { n: '2.5' })).message).toBe('n must be an integer from 1 to 10');
    expect(errorOf(() => parseQuery(schema, { n: ['1', '2'] })).message).toBe('n was given more than once');
    expect(errorOf(() => parseQuery(schema, { names: 'a,,b' })).message).toMatch(/^names has an empty entry/);
  });

  it('takes an empty value of a parameter with a default as that default (the contract is silent: do not refuse)', () => {
    expect(parseQuery(schema, { on: '', n: '', names: 'a' })).toEqual({ on: false, n: 3, names: ['a'] });
    expect(parseQuery(schema, { on: '  ', n: ' ' })).toEqual({ on: false, n: 3, names: [] });
    expect(parseQuery(serpSearchParamsSchema, { q: 'coffee', gl: '', hl: '', type: '', page: '', num: '', tbs: '' })).toEqual({
      q: 'coffee', gl: 'us', hl: 'en', page: 1, num: 10, type: 'search',
    });
    const crawl = parseQuery(crawlParamsSchema(3), { urls: 'https://a.example/', render_js: '', markdown: '', enhanced_html: '' });
    expect(crawl).toMatchObject({ render_js: false, markdown: true, enhanced_html: true });
    // A required parameter has no default: empty is still missing.
    expect(errorOf(() => parseQuery(serpSearchParamsSchema, { q: '' })).message).toBe('q is required');
    expect(errorOf(() => parseQuery(crawlParamsSchema(3), { urls: '' })).message).toMatch(/^urls is required/);
  });

  it('reads gl=uk as gb, as the engines do (uk is reserved for the United Kingdom, not assigned)', () => {
    expect(parseQuery(serpSearchParamsSchema, { q: 'x', gl: 'uk' }).gl).toBe('gb');
    expect(parseQuery(serpSearchParamsSchema, { q: 'x', gl: 'UK' }).gl).toBe('gb');
    expect(parseQuery(crawlParamsSchema(3), { urls: 'https://a.example/', geolocation: 'uk' }).geolocation).toBe('gb');
  });

  it('validates typed input (MCP arguments) with the same schema and messages', () => {
    expect(parseInput(schema, { on: true, n: 2 })).toEqual({ on: true, n: 2, names: [] });
    expect(errorOf(() => parseInput(schema, { on: 'true' })).code).toBe('INVALID_PARAMETER');
  });

  it('the same /crawl schema reads a query string and a JSON list', () => {
    const crawl = crawlParamsSchema(3);
    const fromQuery = parseQuery(crawl, { urls: 'https://a.example/x,https://a.example/x#frag', page_text: 'true' });
    const fromJson = parseInput(crawl, { urls: ['https://a.example/x'], page_text: true });
    expect(fromQuery).toEqual(fromJson);
    expect(fromQuery.urls).toEqual(['https://a.example/x']);
    expect(errorOf(() => parseQuery(crawl, { urls: 'a,b,c,d'.split(',').map((h) => `https://${h}.example/`).join(',') })).message).toBe(
      'urls has 4 URLs; the maximum is 3 per request',
    );
  });

  it('/serp-search defaults and enums come from one schema', () => {
    expect(parseQuery(serpSearchParamsSchema, { q: ' coffee ' })).toEqual({ q: 'coffee', gl: 'us', hl: 'en', page: 1, num: 10, type: 'search' });
    expect(errorOf(() => parseQuery(serpSearchParamsSchema, { q: 'x', type: 'videos' })).message).toBe(
      'type must be one of search, news, images, places, shopping',
    );
  });
});
