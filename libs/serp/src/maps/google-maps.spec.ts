import { describe, expect, it } from '@jest/globals';
import { createGoogleMapsProvider, parseGoogleMaps, stripXssi, viewportMetres } from './google-maps.js';
import type { MapsParams } from './types.js';

const google = createGoogleMapsProvider({ baseUrl: 'http://127.0.0.1:9/g' });

/** A place array with just the indexes the parser reads (layout of gosom's payloads). */
function placeArray(over: Record<number, unknown> = {}): unknown[] {
  const a: unknown[] = new Array(204).fill(null);
  a[2] = ['Old port', 'Limassol 3042'];
  a[4] = [null, null, '€€', null, null, null, null, 4.2, 396];
  a[7] = ['/url?q=https://kipriakon.example/&opi=1', 'kipriakon.example'];
  a[9] = [null, null, 34.67, 33.04];
  a[10] = '0x14e732fd76f0d90d:0xe5415928d6702b47';
  a[11] = 'Kipriakon';
  a[13] = ['Restaurant', 'Bar'];
  a[178] = [['25 101555']];
  a[203] = [[['Monday', 1, [2023, 9, 4], [['12:30–10 pm', [[12, 30], [22]]]], 0, 1], ['Sunday', 7, [2023, 9, 10], [['Closed']], 0, 2]]];
  for (const [k, v] of Object.entries(over)) a[Number(k)] = v;
  return a;
}
const searchPayload = (...places: unknown[][]) => `)]}'\n${JSON.stringify([['q', [['meta'], ...places.map((p) => [null, null, null, null, null, null, null, null, null, null, null, null, null, null, p])]]])}`;
const placePayload = (place: unknown[]) => `)]}'\n${JSON.stringify([null, [], null, null, null, null, place])}`;
const Q: MapsParams = { q: 'kipriakon' };

describe('Google Maps requests', () => {
  it('search: tbm=map with q, hl and the ll bias in the pb viewport', () => {
    const { url, headers } = google.buildSearchRequest({ q: 'coffee near me', hl: 'de', ll: { lat: 40.7455, lng: -74.0083, zoom: 14 } });
    const u = new URL(url);
    expect(u.origin + u.pathname).toBe('http://127.0.0.1:9/g/search');
    expect(u.searchParams.get('tbm')).toBe('map');
    expect(u.searchParams.get('q')).toBe('coffee near me');
    expect(u.searchParams.get('hl')).toBe('de');
    expect(u.searchParams.get('pb')).toContain(`!4m12!1m3!1d${viewportMetres(14)}!2d-74.0083!3d40.7455!`);
    expect(u.searchParams.get('pb')).toContain('!7i20!8i0');
    expect(headers['accept-language']).toMatch(/^de\b/);
    expect(headers['user-agent']).toMatch(/Mozilla/);
  });

  it('search without ll sends no viewport centre', () => {
    const pb = new URL(google.buildSearchRequest({ q: 'coffee' }).url).searchParams.get('pb') ?? '';
    expect(pb.startsWith('!4m8!2m3')).toBe(true);
    expect(pb).not.toContain('!2d');
    expect(new URL(google.buildSearchRequest({ q: 'coffee' }).url).searchParams.has('hl')).toBe(false);
  });

  it('higher zoom, smaller viewport', () => {
    expect(viewportMetres(3)).toBeCloseTo(15_028_131, 0);
    expect(viewportMetres(21)).toBeLessThan(viewportMetres(20));
  });

  it('lookup by cid asks the preview-place RPC for the zero-high-half feature id', () => {
    const r = google.buildLookupRequest({ q: 'x', cid: '16519582940102929223', hl: 'el' });
    if (!('url' in r)) throw new Error('expected a request');
    const u = new URL(r.url);
    expect(u.pathname).toBe('/g/maps/preview/place');
    expect(u.searchParams.get('hl')).toBe('el');
    expect(u.searchParams.get('pb')).toContain('!1s0x0:0xe5415928d6702b47!');
    expect(u.searchParams.get('q')).toBeNull(); // q is not sent in a lookup
  });

  it('lookup by ChIJ placeId uses the full feature id; placeId wins over cid', () => {
    const r = google.buildLookupRequest({ q: 'x', placeId: 'ChIJDdnwdv0y5xQRRytw1ihZQeU', cid: '1' });
    expect('url' in r && new URL(r.url).searchParams.get('pb')).toContain('!1s0x14e732fd76f0d90d:0xe5415928d6702b47!');
  });

  it('lookup with an unresolvable id is not_found without a request', () => {
    expect(google.buildLookupRequest({ q: 'x', placeId: 'EiRPbGQgcG9ydA' })).toEqual({ verdict: { kind: 'not_found', reason: expect.stringContaining('ChIJ') } });
    expect(google.buildLookupRequest({ q: 'x', cid: '99999999999999999999999' })).toMatchObject({ verdict: { kind: 'not_found' } });
  });
});

describe('Google Maps payload parser', () => {
  it('reads every §2.3 field of a place array, omitting what is absent', () => {
    const { verdict, places } = parseGoogleMaps(searchPayload(placeArray(), placeArray({ 11: 'Second', 4: null, 7: null, 178: null, 203: null, 13: [] })), Q);
    expect(verdict).toEqual({ kind: 'ok' });
    expect(places[0]).toEqual({
      position: 1,
      title: 'Kipriakon',
      address: 'Old port, Limassol 3042',
      rating: 4.2,
      ratingCount: 396,
      phoneNumber: '25 101555',
      website: 'https://kipriakon.example/',
      type: 'Restaurant',
      types: ['Restaurant', 'Bar'],
      priceLevel: '€€',
      placeId: 'ChIJDdnwdv0y5xQRRytw1ihZQeU', // derived from the feature id when [78] is absent
      cid: '16519582940102929223',
      latitude: 34.67,
      longitude: 33.04,
      openingHours: { Monday: '12:30–10 pm', Sunday: 'Closed' },
    });
    expect(Object.keys(places[1]).sort()).toEqual(['address', 'cid', 'latitude', 'longitude', 'placeId', 'position', 'title']);
  });

  it('keys hours by English weekday from the weekday number or the date, whatever the language', () => {
    const legacy = placeArray({ 203: null, 34: [null, [['Σάββατο', ['9:00 π.μ.–11:30 μ.μ.'], null, null, '2024-10-12'], ['Κυριακή', ['9\u202fAM–1\u202fPM', '5–9'], null, null, '2024-10-13']]] });
    expect(parseGoogleMaps(placePayload(legacy), Q).places[0].openingHours).toEqual({ Saturday: '9:00 π.μ.–11:30 μ.μ.', Sunday: '9 AM–1 PM, 5–9' });
  });

  it('prefers the payload place id and the root cid of a place payload', () => {
    const p = placeArray({ 78: 'ChIJpayload', 10: null });
    const body = `)]}'\n${JSON.stringify([null, [], null, null, null, null, p, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, [null, null, null, [[null, null, null, null, null, null, null, null, null, null, null, null, null, [[[null, '42']]]]]]])}`;
    expect(parseGoogleMaps(body, Q).places[0]).toMatchObject({ placeId: 'ChIJpayload', cid: '42' });
  });

  it('a lookup returns exactly the asked place, or not_found', () => {
    const body = searchPayload(placeArray({ 10: '0x1:0x2', 11: 'Other' }), placeArray());
    expect(parseGoogleMaps(body, { q: '', cid: '16519582940102929223' }).places.map((p) => [p.position, p.title])).toEqual([[1, 'Kipriakon']]);
    expect(parseGoogleMaps(body, { q: '', placeId: 'ChIJDdnwdv0y5xQRRytw1ihZQeU', cid: '16519582940102929223' }).places).toHaveLength(1);
    expect(parseGoogleMaps(body, { q: '', placeId: 'ChIJDdnwdv0y5xQRRytw1ihZQeU', cid: '3' }).verdict.kind).toBe('not_found');
    expect(parseGoogleMaps(body, { q: '', cid: '7' }).verdict.kind).toBe('not_found');
    expect(parseGoogleMaps(`)]}'\n[]`, { q: '', cid: '7' }).verdict.kind).toBe('not_found');
  });

  it('a search with no result list is ok and empty', () => {
    expect(parseGoogleMaps(`)]}'\n[["nothing here",null]]`, Q)).toEqual({ verdict: { kind: 'ok' }, places: [] });
  });

  it('classifies block and error pages', () => {
    expect(parseGoogleMaps('<html><form action="https://consent.google.com/save">', Q).verdict).toMatchObject({ kind: 'blocked', reason: 'consent' });
    expect(parseGoogleMaps('<html><form id="captcha-form" action="/sorry/index">', Q).verdict).toMatchObject({ kind: 'blocked', reason: 'captcha' });
    expect(parseGoogleMaps('<!doctype html><title>Error 500</title>', Q).verdict).toMatchObject({ kind: 'blocked', reason: 'unknown' });
    expect(parseGoogleMaps('', Q).verdict.kind).toBe('blocked');
    expect(parseGoogleMaps(`)]}'\n{"not":"maps"}`, Q).verdict.kind).toBe('blocked');
    expect(parseGoogleMaps('42', Q).verdict.kind).toBe('blocked');
  });

  it('strips the XSSI guard and the older {"d": …} envelope', () => {
    expect(stripXssi(")]}'\n[1]")).toBe('[1]');
    expect(stripXssi(`{"c":0,"d":")]}'\\n[2]"}/*""*/`)).toBe('[2]');
    expect(parseGoogleMaps(`{"c":0,"d":${JSON.stringify(searchPayload(placeArray()))}}/*""*/`, Q).places).toHaveLength(1);
  });

  it('never throws on truncated or mangled payloads', () => {
    const body = searchPayload(placeArray(), placeArray({ 2: 'not an array', 4: 'x', 9: [null, null, 'lat', {}], 13: [1, null], 203: [[['Funday', 9, 'x', 'y']]] }));
    for (let cut = 0; cut < body.length; cut += 97) {
      const r = parseGoogleMaps(body.slice(0, cut), Q);
      expect(['ok', 'blocked']).toContain(r.verdict.kind);
    }
    const mangled = parseGoogleMaps(body, Q).places[1];
    // wrongly typed values are dropped, not coerced
    expect(Object.keys(mangled).sort()).toEqual(['cid', 'phoneNumber', 'placeId', 'position', 'title', 'website'].sort());
  });
});
