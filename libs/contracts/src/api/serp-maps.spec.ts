/** `/serp-maps` parameters: what a client may send, and the 400 that names the parameter otherwise. */
import { describe, expect, it } from '@jest/globals';
import { TrawlError } from '../trawl-error.js';
import { parseQuery } from './query.js';
import { serpMapsParamsSchema } from './serp-maps.js';

const parse = (query: Record<string, string>) => parseQuery(serpMapsParamsSchema, query);

function rejection(query: Record<string, string>): string {
  try {
    parse(query);
  } catch (error) {
    expect(error).toBeInstanceOf(TrawlError);
    expect((error as TrawlError).code).toBe('INVALID_PARAMETER');
    return (error as TrawlError).message;
  }
  throw new Error(`expected ${JSON.stringify(query)} to be refused`);
}

describe('serpMapsParamsSchema', () => {
  it('accepts each of the eight combinations of §4.3', () => {
    const ll = '@40.7455096,-74.0083012,14z';
    const combos: Record<string, string>[] = [
      { q: 'coffee' },
      { q: 'coffee', hl: 'de' },
      { q: 'coffee', ll },
      { q: 'coffee', ll, hl: 'el' },
      { q: 'Kipriakon', placeId: 'ChIJDdnwdv0y5xQRRytw1ihZQeU' },
      { q: 'Kipriakon', placeId: 'ChIJDdnwdv0y5xQRRytw1ihZQeU', hl: 'en' },
      { q: 'Kipriakon', cid: '16519582940102929223' },
      { q: 'Kipriakon', cid: '16519582940102929223', hl: 'en' },
    ];
    for (const query of combos) expect(() => parse(query)).not.toThrow();
    expect(parse({ q: ' coffee ', ll, hl: 'EL' })).toEqual({
      q: 'coffee',
      hl: 'el',
      ll: { text: ll, value: { lat: 40.7455096, lng: -74.0083012, zoom: 14 } },
      placeId: undefined,
      cid: undefined,
    });
  });

  it.each([
    ['', /^q is required/],
    ['   ', /^q is required/],
  ])('refuses q=%j', (q, message) => expect(rejection({ q })).toMatch(message));

  it('refuses a missing q even in a lookup', () => expect(rejection({ cid: '123' })).toMatch(/^q is required/));

  it.each([
    '40.7,-74.0,14z', // no @
    '@40.7,-74.0', // no zoom
    '@40.7,-74.0,0z',
    '@40.7,-74.0,22z',
    '@40.7,-74.0,14',
    '@91,-74.0,14z',
    '@40.7,-181,14z',
    '@40.7, -74.0,14z',
    '@1e1,2,3z',
    '@40.7,-74.0,14z extra',
    '',
  ])('refuses ll=%j with a message naming ll', (ll) => expect(rejection({ q: 'x', ll })).toMatch(/^ll: /));

  it.each(['12a', '-5', '1.5', '0', '18446744073709551616', '123456789012345678901'])('refuses cid=%j', (cid) =>
    expect(rejection({ q: 'x', cid })).toMatch(/^cid /),
  );

  it.each(['english', 'e', 'en_US', '12'])('refuses hl=%j', (hl) => expect(rejection({ q: 'x', hl })).toMatch(/^hl /));

  it.each(['place id', 'ChIJ<script>', 'x'.repeat(513)])('refuses a malformed placeId (case %#)', (placeId) =>
    expect(rejection({ q: 'x', placeId })).toMatch(/^placeId /),
  );

  it('refuses a parameter given twice', () => expect(() => parseQuery(serpMapsParamsSchema, { q: ['a', 'b'] })).toThrow(/q was given more than once/));
});
