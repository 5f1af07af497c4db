import { describe, expect, it } from '@jest/globals';
import { clockText, weeklyOpeningHours } from './osm-hours.js';
import { createOsmProvider, humanizeTag, parseNominatim, viewboxFor } from './osm.js';
import type { MapsParams } from './types.js';

const osm = createOsmProvider({ nominatimBaseUrl: 'http://127.0.0.1:9/nominatim', overpassBaseUrl: 'http://127.0.0.1:9/overpass' });
const LICENCE = 'Data © OpenStreetMap contributors, ODbL 1.0. http://osm.org/copyright';

// Shapes as in Nominatim's docs/api/Output.md (format=jsonv2: `category`, `place_rank`, `addresstype`, `name`).
const cafe = {
  place_id: 109181291, licence: LICENCE, osm_type: 'node', osm_id: 240022283, lat: '48.2104128', lon: '16.3654606',
  category: 'amenity', type: 'cafe', place_rank: 30, importance: 0.3547, addresstype: 'amenity', name: 'Café Central',
  display_name: 'Café Central, 14, Herrengasse, Innere Stadt, Wien, 1010, Österreich',
  address: { amenity: 'Café Central', house_number: '14', road: 'Herrengasse', suburb: 'Innere Stadt', city: 'Wien', postcode: '1010', country: 'Österreich', country_code: 'at' },
  extratags: {
    cuisine: 'coffee_shop;cake', phone: '+43 1 5333763;+43 1 5333764', website: 'https://www.cafecentral.wien/',
    opening_hours: 'Mo-Fr 09:00-17:00; Sa 10:00-14:00; Su off', wheelchair: 'yes', image: 'https://upload.wikimedia.example/central.jpg',
  },
  namedetails: { name: 'Café Central', 'name:en': 'Cafe Central' },
  boundingbox: ['48.2103628', '48.2104628', '16.3654106', '16.3655106'],
};
const pharmacy = {
  place_id: 5520911, licence: LICENCE, osm_type: 'way', osm_id: 23871944, lat: '48.2081743', lon: '16.3738189',
  category: 'amenity', type: 'pharmacy', place_rank: 30, importance: 0.11, addresstype: 'amenity', name: 'Apotheke zum Heiligen Geist',
  display_name: 'Apotheke zum Heiligen Geist, 18, Operngasse, Wieden, Wien, 1040, Österreich',
  address: { amenity: 'Apotheke zum Heiligen Geist', road: 'Operngasse', city: 'Wien', country_code: 'at' },
  extratags: { 'contact:phone': '+43 1 5867365', 'contact:website': 'apotheke-operngasse.example', opening_hours: '24/7' },
  namedetails: { name: 'Apotheke zum Heiligen Geist' },
  boundingbox: ['48.2081', '48.2082', '16.3737', '16.3739'],
};
const bench = {
  place_id: 7, licence: LICENCE, osm_type: 'relation', osm_id: 1644, lat: '48.2', lon: '16.4', category: 'leisure', type: 'park',
  place_rank: 24, importance: 0.2, addresstype: 'park', name: 'Stadtpark', display_name: 'Stadtpark, Wien, Österreich',
  extratags: { opening_hours: 'Mo-Fr 25:00-99; Tu sometimes', website: 'javascript:alert(1)' },
};
const Q: MapsParams = { q: 'cafe wien' };

describe('Nominatim requests', () => {
  it('search: jsonv2 with extratags, address and name details, 20 results, hl and the ll viewbox', () => {
    const { url, headers } = osm.buildSearchRequest({ q: 'cafe', hl: 'de', ll: { lat: 40.7455, lng: -74.0083, zoom: 14 } });
    const u = new URL(url);
    expect(u.origin + u.pathname).toBe('http://127.0.0.1:9/nominatim/search');
    expect(Object.fromEntries(u.searchParams)).toEqual({
      q: 'cafe', format: 'jsonv2', extratags: '1', addressdetails: '1', namedetails: '1', viewbox: viewboxFor({ lat: 40.7455, lng: -74.0083, zoom: 14 }),
      bounded: '0', 'accept-language': 'de', limit: '20',
    });
    expect(headers['user-agent']).toMatch(/^Trawl\//);
    expect(headers['accept-language']).toBe('de');
  });

  it('search without ll or hl sends neither viewbox nor accept-language', () => {
    const u = new URL(osm.buildSearchRequest({ q: 'cafe' }).url);
    expect(u.searchParams.has('viewbox')).toBe(false);
    expect(u.searchParams.has('accept-language')).toBe(false);
  });

  it('viewbox: left,top,right,bottom around the centre, narrower at higher zoom, clamped', () => {
    const [l, t, r, b] = viewboxFor({ lat: 40.7455, lng: -74.0083, zoom: 14 }).split(',').map(Number);
    expect(r - l).toBeCloseTo(0.0879, 3);
    expect(t - b).toBeCloseTo(0.05, 2);
    expect((l + r) / 2).toBeCloseTo(-74.0083, 5);
    expect((t + b) / 2).toBeCloseTo(40.7455, 5);
    const [l15, , r15] = viewboxFor({ lat: 40.7455, lng: -74.0083, zoom: 15 }).split(',').map(Number);
    expect(r15 - l15).toBeCloseTo((r - l) / 2, 5);
    expect(viewboxFor({ lat: 89, lng: 170, zoom: 1 })).toMatch(/^-?\d+(\.\d+)?,90,180,/);
  });

  it('lookup by N/W/R placeId; cid and other ids are not_found without a request', () => {
    const r = osm.buildLookupRequest({ q: 'x', placeId: 'W23871944', hl: 'en' });
    if (!('url' in r)) throw new Error('expected a request');
    const u = new URL(r.url);
    expect(u.pathname).toBe('/nominatim/lookup');
    expect(u.searchParams.get('osm_ids')).toBe('W23871944');
    expect(u.searchParams.get('extratags')).toBe('1');
    expect(u.searchParams.has('q')).toBe(false);
    for (const placeId of ['ChIJDdnwdv0y5xQRRytw1ihZQeU', 'N', 'n123', 'X1', 'N0', 'N12,W3']) {
      expect(osm.buildLookupRequest({ q: 'x', placeId })).toMatchObject({ verdict: { kind: 'not_found' } });
    }
    expect(osm.buildLookupRequest({ q: 'x', cid: '123' })).toMatchObject({ verdict: { kind: 'not_found', reason: expect.stringContaining('no cid') } });
  });
});

describe('Nominatim parser', () => {
  it('maps a POI with extratags to a place', () => {
    const { verdict, places } = parseNominatim(JSON.stringify([cafe, pharmacy]), Q);
    expect(verdict).toEqual({ kind: 'ok' });
    expect(places[0]).toEqual({
      position: 1,
      title: 'Café Central',
      address: '14, Herrengasse, Innere Stadt, Wien, 1010, Österreich',
      phoneNumber: '+43 1 5333763',
      website: 'https://www.cafecentral.wien/',
      type: 'Cafe',
      types: ['Cafe', 'Coffee shop', 'Cake'],
      placeId: 'N240022283',
      latitude: 48.2104128,
      longitude: 16.3654606,
      openingHours: {
        Monday: '9 AM–5 PM', Tuesday: '9 AM–5 PM', Wednesday: '9 AM–5 PM', Thursday: '9 AM–5 PM', Friday: '9 AM–5 PM',
        Saturday: '10 AM–2 PM', Sunday: 'Closed',
      },
      thumbnailUrl: 'https://upload.wikimedia.example/central.jpg',
    });
    expect(places[1]).toMatchObject({
      position: 2, placeId: 'W23871944', phoneNumber: '+43 1 5867365', website: 'https://apotheke-operngasse.example', type: 'Pharmacy',
    });
    expect(Object.values(places[1].openingHours ?? {})).toEqual(new Array(7).fill('Open 24 hours'));
  });

  it('a malformed opening_hours value is omitted, never thrown; unsafe URLs are dropped', () => {
    const { places } = parseNominatim(JSON.stringify([bench]), Q);
    expect(places[0]).toEqual({
      position: 1, title: 'Stadtpark', address: 'Wien, Österreich', type: 'Park', types: ['Park'], placeId: 'R1644', latitude: 48.2, longitude: 16.4,
    });
  });

  it('lookup returns exactly the asked OSM object or not_found', () => {
    expect(parseNominatim(JSON.stringify([cafe]), { q: '', placeId: 'N240022283' }).places.map((p) => p.placeId)).toEqual(['N240022283']);
    expect(parseNominatim(JSON.stringify([cafe]), { q: '', placeId: 'W240022283' }).verdict.kind).toBe('not_found');
    expect(parseNominatim('[]', { q: '', placeId: 'N1' }).verdict.kind).toBe('not_found');
  });

  it('an empty search is ok; errors and block pages are blocked', () => {
    expect(parseNominatim('[]', Q)).toEqual({ verdict: { kind: 'ok' }, places: [] });
    expect(parseNominatim('{"error":{"code":400,"message":"Nominatim needs a query"}}', Q).verdict).toMatchObject({ kind: 'blocked', detail: expect.stringContaining('needs a query') });
    expect(parseNominatim('<html><h1>Access blocked</h1>See the usage policy</html>', Q).verdict).toMatchObject({ kind: 'blocked', reason: 'rate_limited' });
    expect(parseNominatim('<html><title>429 Too Many Requests</title>', Q).verdict).toMatchObject({ kind: 'blocked', reason: 'rate_limited' });
    expect(parseNominatim('not json', Q).verdict.kind).toBe('blocked');
    expect(parseNominatim('', Q).verdict.kind).toBe('blocked');
    expect(parseNominatim('{"a":1}', Q).verdict.kind).toBe('blocked');
  });

  it('skips junk entries and tolerates wrongly typed fields', () => {
    const body = JSON.stringify([null, 1, 'x', {}, { ...cafe, lat: 'north', lon: 999, extratags: 'no', osm_type: 'area', name: '' }]);
    const { verdict, places } = parseNominatim(body, Q);
    expect(verdict.kind).toBe('ok');
    expect(places).toEqual([{ position: 1, title: 'Café Central', address: '14, Herrengasse, Innere Stadt, Wien, 1010, Österreich', type: 'Cafe', types: ['Cafe'] }]);
  });

  it('humanizes tag values', () => {
    expect(humanizeTag('fast_food')).toBe('Fast food');
    expect(humanizeTag('yes')).toBeUndefined();
    expect(humanizeTag('')).toBeUndefined();
  });
});

describe('OSM opening_hours → per-weekday text', () => {
  it.each([
    ['Mo-Fr 09:00-17:00; Sa 10:00-14:00; Su off', { Monday: '9 AM–5 PM', Friday: '9 AM–5 PM', Saturday: '10 AM–2 PM', Sunday: 'Closed' }],
    ['24/7', { Monday: 'Open 24 hours', Sunday: 'Open 24 hours' }],
    ['Mo-Su 00:00-24:00', { Wednesday: 'Open 24 hours' }],
    ['Mo-Fr 08:30-12:00,13:00-17:30', { Tuesday: '8:30 AM–12 PM, 1 PM–5:30 PM', Saturday: 'Closed' }],
    ['Fr 18:00-02:00', { Thursday: 'Closed', Friday: '6 PM–2 AM', Saturday: 'Closed' }],
    ['Mo-Fr 09:00-17:00; PH off', { Monday: '9 AM–5 PM', Sunday: 'Closed' }],
    ['Mo-Fr 08:00-12:00 "by appointment"', { Monday: '8 AM–12 PM (by appointment)' }],
    ['off', { Monday: 'Closed', Sunday: 'Closed' }],
  ])('%s', (value, expected) => {
    const hours = weeklyOpeningHours(value);
    expect(Object.keys(hours ?? {})).toEqual(['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday']);
    expect(hours).toMatchObject(expected);
  });

  it.each(['Mo-Fr 25:00-99', 'Mo-Fr 09:00-', 'sometimes', 'Jul-Aug Mo-Fr 09:00-17:00', '', '   '])('omits %j', (value) => {
    expect(weeklyOpeningHours(value)).toBeUndefined();
  });

  it('formats clock times the way §2.3 shows them', () => {
    expect([0, 9, 12, 17].map((h) => clockText(new Date(2024, 2, 4, h)))).toEqual(['12 AM', '9 AM', '12 PM', '5 PM']);
    expect(clockText(new Date(2024, 2, 4, 9, 5))).toBe('9:05 AM');
  });
});
