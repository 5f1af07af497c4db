import { describe, expect, it } from '@jest/globals';
import { formatLl, parseLl } from './ll.js';

describe('parseLl', () => {
  it.each([
    ['@40.7455096,-74.0083012,14z', { lat: 40.7455096, lng: -74.0083012, zoom: 14 }],
    ['@0,0,1z', { lat: 0, lng: 0, zoom: 1 }],
    ['@-90,180,21z', { lat: -90, lng: 180, zoom: 21 }],
    ['@90.0,-180.000,3z', { lat: 90, lng: -180, zoom: 3 }],
    ['@34.67,33.04,9z', { lat: 34.67, lng: 33.04, zoom: 9 }],
  ])('accepts %s', (raw, value) => {
    expect(parseLl(raw)).toEqual({ ok: true, value });
  });

  it.each([
    ['', 'empty'],
    ['40.7,-74.0,14z', 'missing @'],
    ['%4040.7,-74.0,14z', 'still URL-encoded'],
    ['@40.7,-74.0', 'missing zoom'],
    ['@40.7,-74.0,14', 'zoom without z'],
    ['@40.7,-74.0,14Z', 'upper-case Z'],
    ['@40.7,-74.0,0z', 'zoom 0'],
    ['@40.7,-74.0,22z', 'zoom 22'],
    ['@40.7,-74.0,14.5z', 'fractional zoom'],
    ['@40.7,-74.0,014z', 'zoom with leading zero'],
    ['@40.7,-74.0,-3z', 'negative zoom'],
    ['@40.7,-74.0,1000m', 'metres form'],
    ['@90.0001,0,3z', 'latitude above 90'],
    ['@-91,0,3z', 'latitude below -90'],
    ['@0,180.5,3z', 'longitude above 180'],
    ['@0,-181,3z', 'longitude below -180'],
    ['@1e1,2,3z', 'exponent'],
    ['@+40.7,-74.0,14z', 'plus sign'],
    ['@.5,1,3z', 'no integer part'],
    ['@5.,1,3z', 'no fraction digits'],
    ['@ 40.7,-74.0,14z', 'space'],
    ['@40.7, -74.0,14z', 'space after comma'],
    ['@40.7,-74.0,14z ', 'trailing space'],
    ['@40,7,-74,0,14z', 'decimal commas'],
    ['@40.7;-74.0;14z', 'semicolons'],
    ['@NaN,0,3z', 'NaN'],
    ['@Infinity,0,3z', 'Infinity'],
    ['@40.7,-74.0,14z,extra', 'trailing text'],
    ['@@40.7,-74.0,14z', 'double @'],
    ['@1234,0,3z', 'four integer digits'],
    ['@0x10,0,3z', 'hex'],
  ])('rejects %j (%s) with a message naming ll', (raw) => {
    const r = parseLl(raw);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.param).toBe('ll');
      expect(r.error.message).toMatch(/^ll: /);
    }
  });

  it('says which part is out of range', () => {
    const lat = parseLl('@95,0,3z');
    const zoom = parseLl('@1,2,30z');
    const zero = parseLl('@1,2,0z');
    expect(!lat.ok && lat.error.message).toContain('latitude');
    expect(!zoom.ok && zoom.error.message).toContain('zoom');
    expect(!zero.ok && zero.error.message).toBe('ll: zoom 0z is outside 1z..21z');
  });

  it('formats back to the canonical text', () => {
    expect(formatLl({ lat: 40.5, lng: -74, zoom: 14 })).toBe('@40.5,-74,14z');
  });
});
