import { describe, expect, it } from '@jest/globals';
import { pathPattern, trapPattern } from './traps.js';

describe('pathPattern', () => {
  it('gives a calendar one shape whatever the day', () => {
    expect(pathPattern('http://a.example/calendar/2024/05/01')).toBe('/calendar/{n}/{n}/{n}');
    expect(pathPattern('http://a.example/calendar/2031/12/31')).toBe('/calendar/{n}/{n}/{n}');
    expect(pathPattern('http://a.example/events/2024-05-01/list')).toBe('/events/{date}/list');
  });

  it('replaces UUIDs, hex ids and long tokens by {id}, and digit runs inside words by {n}', () => {
    expect(pathPattern('http://a.example/s/9f8e7d6c5b4a3f2e')).toBe('/s/{id}');
    expect(pathPattern('http://a.example/u/123e4567-e89b-12d3-a456-426614174000/x')).toBe('/u/{id}/x');
    expect(pathPattern('http://a.example/t/aGVsbG8gd29ybGQ1dGhpcw')).toBe('/t/{id}');
    expect(pathPattern('http://a.example/page-12/item_7.html')).toBe('/page-{n}/item_{n}.html');
    expect(pathPattern('http://a.example/product-12345-blue-shirt')).toBe('/product-{n}-blue-shirt');
  });

  it('leaves words alone: slugs keep their shape', () => {
    expect(pathPattern('http://a.example/docs/getting-started')).toBe('/docs/getting-started');
    expect(pathPattern('http://a.example/deadbeef/facade')).toBe('/deadbeef/facade');
    expect(pathPattern('http://a.example/')).toBe('/');
  });

  it('keeps query keys (sorted, once) and drops their values', () => {
    expect(pathPattern('http://a.example/list?page=7&sort=asc&page=8')).toBe('/list?page&sort');
    expect(pathPattern('http://a.example/list?sessionid=abc123')).toBe('/list?sessionid');
    expect(pathPattern('http://a.example/f?p1=a&p2=b')).toBe('/f?p{n}');
  });
});

describe('trapPattern', () => {
  it('is the path pattern of a URL that can share it, and empty for a URL that is the only one of its pattern', () => {
    expect(trapPattern('http://a.example/calendar/2024/05/01')).toBe('/calendar/{n}/{n}/{n}');
    expect(trapPattern('http://a.example/list?sessionid=abc123')).toBe('/list?sessionid');
    expect(trapPattern('http://a.example/search?q=shoes')).toBe('/search?q');
    expect(trapPattern('http://a.example/docs/getting-started')).toBe('');
    expect(trapPattern('http://a.example/')).toBe('');
  });
});

