/**
 * Specification conformance, `GET /serp-maps` (spec §4.3, §2.3, §8): every parameter combination the spec lists,
 * sent as written, against the real gateway and workers with a Nominatim-shaped upstream on 127.0.0.1
 * (MAPS_PROVIDER=osm). 30 credits per request, whatever the number of places — a lookup of no place included.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { key, startHarness, type Harness } from '../support/harness.js';
import { expectEach, expectError, expectShape } from './support/shape.js';
import { COST, PLACE, SERP_MAPS_COMBINATIONS, SERP_MAPS_RESPONSE } from './support/spec.js';

let trawl: Harness;
let nominatim: FixtureServer;
let apiKey: string;
let accountId: string;

const CAFE = {
  place_id: 1, osm_type: 'node', osm_id: 123, lat: '40.7451', lon: '-74.0081', category: 'amenity', type: 'cafe', name: 'Chelsea Beans',
  display_name: 'Chelsea Beans, 401, West 14th Street, New York, 10014, United States',
  address: { amenity: 'Chelsea Beans', house_number: '401', road: 'West 14th Street', city: 'New York', postcode: '10014', country: 'United States', country_code: 'us' },
  extratags: { opening_hours: 'Mo-Fr 08:00-18:00', phone: '+1 212 555 0100', website: 'chelseabeans.example' },
  namedetails: { name: 'Chelsea Beans' },
};

/** One example value per parameter (the spec's own `ll` format, an OSM node id Nominatim has, a decimal cid). */
const VALUES: Record<string, string> = { q: 'coffee', hl: 'en', ll: '@40.7455096,-74.0083012,14z', placeId: 'N123', cid: '16519582940102929223' };

async function maps(query: string) {
  const before = (await trawl.admin.report(accountId)).account.balance;
  const res = await trawl.get(`/serp-maps?${query}`, key(apiKey));
  const after = (await trawl.admin.report(accountId)).account.balance;
  return { ...res, charged: before - after };
}

function expectMapsAnswer(res: { status: number; body: any; charged: number }) {
  expect(res.status).toBe(200);
  expectShape(res.body, SERP_MAPS_RESPONSE);
  expectEach(res.body.serp_maps_results, PLACE, 'serp_maps_results');
  expect(res.body.credits).toBe(COST.serpMaps);
  expect(res.charged).toBe(COST.serpMaps);
}

beforeAll(async () => {
  const json = (res: import('node:http').ServerResponse, body: unknown) => void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  nominatim = await startFixtureServer({
    '/search': (_req, res) => json(res, [CAFE]),
    '/lookup': (req, res) => json(res, new URL(req.url!, 'http://x').searchParams.get('osm_ids') === 'N123' ? [CAFE] : []),
  });
  trawl = await startHarness({ MAPS_PROVIDER: 'osm', NOMINATIM_BASE_URL: nominatim.url, NOMINATIM_MIN_INTERVAL_MS: '10' });
  ({ apiKey, accountId } = await trawl.createAccount('pro'));
});

afterAll(async () => {
  await trawl?.close();
  await nominatim?.close();
});

describe('/serp-maps parameter combinations (§4.3), each 200 with §2.3 fields and 30 credits', () => {
  it.each(SERP_MAPS_COMBINATIONS.map((names) => [names.join('+'), names] as const))('%s', async (_label, names) => {
    const query = names.map((name) => `${name}=${encodeURIComponent(VALUES[name])}`).join('&');
    const res = await maps(query);
    expectMapsAnswer(res);
    expect(res.body.parameters).toEqual(Object.fromEntries(names.map((name) => [name, VALUES[name]])));
  });
});

describe('/serp-maps rules of §4.3 and §8', () => {
  it('a search answers places in §2.3 shape, ranked from 1', async () => {
    const res = await maps('q=coffee');
    expectMapsAnswer(res);
    expect(res.body.serp_maps_results[0]).toMatchObject({ position: 1, title: 'Chelsea Beans', latitude: 40.7451, longitude: -74.0081 });
  });

  it('a placeId / cid lookup that finds no place: 200, empty serp_maps_results, 30 credits ("regardless of result count")', async () => {
    for (const query of ['q=coffee&placeId=N999', 'q=coffee&cid=42']) {
      const res = await maps(query);
      expectMapsAnswer(res);
      expect(res.body.serp_maps_results).toEqual([]);
    }
  });

  it('ll: the @ sent raw or URL-encoded, zoom 1z to 21z', async () => {
    for (const ll of ['@40.7455,-74.0083,14z', '%4040.7455,-74.0083,14z', '@40.7,-74,1z', '@40.7,-74,21z']) {
      expectMapsAnswer(await maps(`q=coffee&ll=${ll.startsWith('%') ? ll : encodeURIComponent(ll)}`));
    }
  });

  it.each([
    ['missing q', 'hl=en', /\bq\b/],
    ['zoom 0z', `q=coffee&ll=${encodeURIComponent('@40.7,-74,0z')}`, /^ll/],
    ['zoom 22z', `q=coffee&ll=${encodeURIComponent('@40.7,-74,22z')}`, /^ll/],
  ])('%s: 400 naming the parameter, charged nothing', async (_what, query, message) => {
    const res = await maps(query);
    expectError(res, 400, 'INVALID_PARAMETER');
    expect(res.body.error.message).toMatch(message);
    expect(res.charged).toBe(0);
  });
});
