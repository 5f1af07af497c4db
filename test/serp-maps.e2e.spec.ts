/**
 * `/serp-maps` end to end: the standalone app against fixture upstreams on 127.0.0.1 — a Google Maps stand-in serving
 * the captured gosom payloads from ../shared/corpus (skipped, with a message, when absent), and a Nominatim stand-in
 * serving Nominatim-shaped JSON (MAPS_PROVIDER=osm). The fixtures record every request they receive, so the tests
 * see what reached the upstream: `q`, `hl`, the `ll` bias, the lookup identifiers, the User-Agent.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { CORPUS_DIR } from './support/env.js';
import { corpusPresent } from './support/requires.js';
import { startFixtureServer, type FixtureServer } from './support/fixture-server.js';
import { key, startHarness, type Harness } from './support/harness.js';
import { pollUntil } from './support/poll.js';
import { startRecordingProxy, type RecordingProxy } from './support/recording-proxy.js';

interface Seen {
  path: string;
  params: URLSearchParams;
  headers: IncomingMessage['headers'];
  at: number;
}

function recorder(seen: Seen[], req: IncomingMessage): URLSearchParams {
  const url = new URL(req.url!, 'http://x');
  seen.push({ path: url.pathname, params: url.searchParams, headers: req.headers, at: Date.now() });
  return url.searchParams;
}

/** Leaves exactly `left` credits in the account (through the ledger, as real usage would). */
async function drainTo(trawl: Harness, accountId: string, left: number) {
  const { account } = await trawl.admin.report(accountId);
  const id = randomUUID();
  await trawl.ledger.reserve(accountId, id, account.balance - left, 60_000);
  await trawl.ledger.settle(id, account.balance - left);
}

const balance = async (trawl: Harness, accountId: string) => (await trawl.admin.report(accountId)).account.balance;

// ---- Google Maps ------------------------------------------------------------------------------------------------

const GOSOM = `${CORPUS_DIR}/serp/google-maps/gosom-google-maps-scraper`;
const hasCorpus = corpusPresent(`${GOSOM}/raw/output.json.gz`, 'serp-maps e2e (Google Maps)');
const payload = (file: string) => `)]}'\n${gunzipSync(readFileSync(`${GOSOM}/raw/${file}`)).toString('utf8')}`;

/** Kipriakon, Limassol (raw.json): its three identifiers as gosom's entry_test.go asserts them. */
const KIPRIAKON = { cid: '16519582940102929223', placeId: 'ChIJDdnwdv0y5xQRRytw1ihZQeU', featureId: '0x14e732fd76f0d90d:0xe5415928d6702b47' };

(hasCorpus ? describe : describe.skip)('GET /serp-maps (Google Maps)', () => {
  let trawl: Harness;
  let upstream: FixtureServer;
  const proxies: RecordingProxy[] = [];
  const seen: Seen[] = [];
  const held: ServerResponse[] = [];
  let flaky = 0;

  beforeAll(async () => {
    const pages = {
      search: payload('output.json.gz'),
      kipriakon: payload('raw.json.gz'),
      kipriakonGreek: payload('raw2.json.gz'),
      other: payload('panic2.json.gz'),
    };
    const json = (res: ServerResponse, body: string) => res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' }).end(body);
    const captcha = '<html><head><title>Sorry...</title></head><body>Our systems have detected unusual traffic from your computer network.</body></html>';
    upstream = await startFixtureServer({
      '/search': (req, res) => {
        const q = recorder(seen, req).get('q');
        if (q === 'upstream down') return void res.writeHead(500, { 'content-type': 'text/plain' }).end('backend error');
        if (q === 'always blocked') return void res.writeHead(200, { 'content-type': 'text/html' }).end(captcha);
        if (q === 'blocked once' && flaky++ === 0) return void res.writeHead(200, { 'content-type': 'text/html' }).end(captcha);
        if (q === 'hold') return void held.push(res);
        if (q === 'nowhere') return void json(res, `)]}'\n[["nowhere",null]]`);
        json(res, pages.search);
      },
      '/maps/preview/place': (req, res) => {
        const params = recorder(seen, req);
        const feature = /!1s(0x[0-9a-f]+:0x[0-9a-f]+)/.exec(params.get('pb') ?? '')?.[1];
        const isKipriakon = feature === KIPRIAKON.featureId || feature === `0x0:0x${BigInt(KIPRIAKON.cid).toString(16)}`;
        // Any other id: Google answers with some other place, which a lookup must not pass off as the one asked for.
        json(res, isKipriakon ? (params.get('hl') === 'el' ? pages.kipriakonGreek : pages.kipriakon) : pages.other);
      },
    });
    proxies.push(await startRecordingProxy(), await startRecordingProxy());
    trawl = await startHarness({ GOOGLE_BASE_URL: upstream.url, PROXIES: `*=${proxies[0].url}|${proxies[1].url}`, SERP_PROXY_ATTEMPTS: '2' });
  });

  afterAll(async () => {
    for (const res of held) res.destroy();
    await trawl?.close();
    await upstream?.close();
    await Promise.all(proxies.map((p) => p.close()));
  });

  it('searches: 20 ranked places with every field the payload has, the parameters echoed, 30 credits', async () => {
    const account = await trawl.createAccount();
    const res = await trawl.get('/serp-maps?q=coffee', key(account.apiKey));
    expect(res.status).toBe(200);
    expect(res.body.parameters).toEqual({ q: 'coffee' });
    expect(res.body.credits).toBe(30);
    const places = res.body.serp_maps_results;
    expect(places).toHaveLength(20);
    expect(places.map((p: any) => p.position)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(places[0]).toMatchObject({ title: 'Dream Coffee', address: 'Eakou 74, Ilion 131 22, Greece', rating: 4.8, ratingCount: 48, type: 'Coffee shop' });
    expect(places[0].openingHours).toMatchObject({ Saturday: '7 AM–8:30 PM', Sunday: 'Closed' });
    for (const p of places) {
      expect(typeof p.latitude).toBe('number');
      expect(p.cid).toMatch(/^\d+$/);
      expect(p.placeId).toMatch(/^ChIJ/);
      for (const value of Object.values(p)) expect(value === null || value === '').toBe(false);
    }
    expect(seen.at(-1)!.path).toBe('/search');
    expect(seen.at(-1)!.params.get('q')).toBe('coffee');
    expect(seen.at(-1)!.params.get('tbm')).toBe('map');
    expect(await balance(trawl, account.accountId)).toBe(10_000 - 30);
  });

  it('charges 30 for a search that finds no place (the cost is per request)', async () => {
    const account = await trawl.createAccount();
    const res = await trawl.get('/serp-maps?q=nowhere', key(account.apiKey));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ parameters: { q: 'nowhere' }, serp_maps_results: [], credits: 30 });
    expect(await balance(trawl, account.accountId)).toBe(10_000 - 30);
  });

  it('sends hl upstream as the hl parameter and the Accept-Language', async () => {
    const account = await trawl.createAccount();
    const res = await trawl.get('/serp-maps?q=coffee&hl=de', key(account.apiKey));
    expect(res.status).toBe(200);
    expect(res.body.parameters).toEqual({ q: 'coffee', hl: 'de' });
    const sent = seen.at(-1)!;
    expect(sent.params.get('hl')).toBe('de');
    expect(sent.headers['accept-language']).toMatch(/^de\b/);
  });

  it.each([
    ['raw @', 'll=@40.7455096,-74.0083012,14z'],
    ['URL-encoded %40', 'll=%4040.7455096%2C-74.0083012%2C14z'],
  ])('carries the ll bias (%s) into the request viewport: centre and zoom-derived distance', async (_form, ll) => {
    const account = await trawl.createAccount();
    const res = await trawl.get(`/serp-maps?q=coffee&${ll}&hl=en`, key(account.apiKey));
    expect(res.status).toBe(200);
    expect(res.body.parameters).toEqual({ q: 'coffee', ll: '@40.7455096,-74.0083012,14z', hl: 'en' });
    const pb = seen.at(-1)!.params.get('pb')!;
    // metres = 120,225,048 / 2^14
    expect(pb).toContain('!1d7337.95!2d-74.0083012!3d40.7455096');
    expect(seen.at(-1)!.params.get('hl')).toBe('en');
  });

  it('without ll the request carries no viewport centre', async () => {
    const account = await trawl.createAccount();
    await trawl.get('/serp-maps?q=coffee', key(account.apiKey));
    expect(seen.at(-1)!.params.get('pb')).not.toMatch(/!2d|!3d/);
  });

  const lookups: Array<[string, string, string]> = [
    ['placeId', `placeId=${KIPRIAKON.placeId}`, `!1s${KIPRIAKON.featureId}`],
    ['cid', `cid=${KIPRIAKON.cid}`, '!1s0x0:0xe5415928d6702b47'],
    ['placeId and the cid it carries', `placeId=${KIPRIAKON.placeId}&cid=${KIPRIAKON.cid}`, `!1s${KIPRIAKON.featureId}`],
  ];
  it.each(lookups)('looks a place up by %s: that exact place, every §2.3 field gosom asserts, q not sent upstream', async (_by, ids, pbPart) => {
    const account = await trawl.createAccount();
    const res = await trawl.get(`/serp-maps?q=${encodeURIComponent('Kipriakon Limassol')}&${ids}`, key(account.apiKey));
    expect(res.status).toBe(200);
    expect(res.body.credits).toBe(30);
    expect(res.body.serp_maps_results).toEqual([
      {
        position: 1,
        title: 'Kipriakon',
        address: 'Old port, Limassol 3042',
        rating: 4.2,
        ratingCount: 396,
        phoneNumber: '25 101555',
        type: 'Restaurant',
        types: ['Restaurant'],
        priceLevel: '€€',
        placeId: KIPRIAKON.placeId,
        cid: KIPRIAKON.cid,
        latitude: 34.670595399999996,
        longitude: 33.042456699999995,
        openingHours: Object.fromEntries(['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'].map((d) => [d, '12:30–10 pm'])),
        thumbnailUrl: 'https://lh5.googleusercontent.com/p/AF1QipP4Y7A8nYL3KKXznSl69pXSq9p2IXCYUjVvOh0F=w408-h408-k-no',
      },
    ]);
    const sent = seen.at(-1)!;
    expect(sent.path).toBe('/maps/preview/place');
    expect(sent.params.get('pb')).toContain(pbPart);
    expect(sent.params.has('q')).toBe(false);
    expect(await balance(trawl, account.accountId)).toBe(10_000 - 30);
  });

  it.each([
    ['placeId', `placeId=${KIPRIAKON.placeId}&hl=el`],
    ['cid', `cid=${KIPRIAKON.cid}&hl=el`],
  ])('a lookup by %s with hl gets the place in that language, weekday keys still English', async (_by, ids) => {
    const account = await trawl.createAccount();
    const res = await trawl.get(`/serp-maps?q=Kipriakon&${ids}`, key(account.apiKey));
    expect(res.status).toBe(200);
    expect(seen.at(-1)!.params.get('hl')).toBe('el');
    const [place] = res.body.serp_maps_results;
    expect(place).toMatchObject({ title: 'Κυπριακόν', cid: KIPRIAKON.cid, placeId: KIPRIAKON.placeId, type: 'Εστιατόριο' });
    expect(Object.keys(place.openingHours).sort()).toEqual(['Friday', 'Monday', 'Saturday', 'Sunday', 'Thursday', 'Tuesday', 'Wednesday']);
  });

  it.each([
    ['a cid Google answers with another place for', 'cid=12345'],
    ['a placeId whose place does not carry the cid sent with it', `placeId=${KIPRIAKON.placeId}&cid=12345`],
    ['a placeId of a form with no HTTP lookup (no request made)', 'placeId=EiNPbGQgcG9ydCwgTGltYXNzb2w'],
  ])('200 with no places for %s, 30 credits (the contract: per request, no 404)', async (_what, ids) => {
    const account = await trawl.createAccount();
    const res = await trawl.get(`/serp-maps?q=Kipriakon&${ids}`, key(account.apiKey));
    expect(res.status).toBe(200);
    expect(res.body.serp_maps_results).toEqual([]);
    expect(res.body.credits).toBe(30);
    expect(await balance(trawl, account.accountId)).toBe(10_000 - 30);
  });

  it('writes one request-log row per call under /serp-maps with what was charged (30 for a search, 0 for a failure)', async () => {
    const account = await trawl.createAccount();
    expect((await trawl.get('/serp-maps?q=coffee', key(account.apiKey))).status).toBe(200);
    expect((await trawl.get(`/serp-maps?q=${encodeURIComponent('upstream down')}`, key(account.apiKey))).status).toBe(500);
    // The request log is written in batches off the request path: poll until both rows land.
    const usage = await pollUntil(async () => {
      const { usage: u } = await trawl.admin.report(account.accountId);
      return u.byEndpoint['/serp-maps']?.requests === 2 ? u : null;
    }, 'two /serp-maps request-log rows');
    expect(usage.byEndpoint['/serp-maps']).toEqual({ requests: 2, credits: 30 });
    expect(await balance(trawl, account.accountId)).toBe(10_000 - 30);
  });

  it('500 UPSTREAM_FAILED when Google Maps fails, charged 0', async () => {
    const account = await trawl.createAccount();
    const res = await trawl.get(`/serp-maps?q=${encodeURIComponent('upstream down')}`, key(account.apiKey));
    expect(res.status).toBe(500);
    expect(res.body.error.code).toBe('UPSTREAM_FAILED');
    expect(await balance(trawl, account.accountId)).toBe(10_000);
  });

  it('retries a block page through the next proxy, and fails one that stays blocked with 500 UPSTREAM_BLOCKED at 0', async () => {
    const account = await trawl.createAccount();
    const before = proxies.map((p) => p.carried.length);
    const once = await trawl.get(`/serp-maps?q=${encodeURIComponent('blocked once')}`, key(account.apiKey));
    expect(once.status).toBe(200);
    expect(once.body.serp_maps_results.length).toBeGreaterThan(0);
    expect(proxies.map((p, i) => p.carried.length - before[i])).toEqual([1, 1]);
    const always = await trawl.get(`/serp-maps?q=${encodeURIComponent('always blocked')}`, key(account.apiKey));
    expect(always.status).toBe(500);
    expect(always.body.error.code).toBe('UPSTREAM_BLOCKED');
    expect(await balance(trawl, account.accountId)).toBe(10_000 - 30);
  });

  const invalid: Array<[string, RegExp]> = [
    ['', /^q is required/],
    ['q=', /^q is required/],
    [`cid=${KIPRIAKON.cid}`, /^q is required/],
    ['q=a&ll=40.7,-74.0,14z', /^ll: /],
    ['q=a&ll=%40', /^ll: /],
    ['q=a&ll=@40.7,-74.0', /^ll: /],
    ['q=a&ll=@40.7,-74.0,0z', /^ll: zoom 0z is outside 1z\.\.21z/],
    ['q=a&ll=@40.7,-74.0,22z', /^ll: zoom/],
    ['q=a&ll=@95,-74.0,14z', /^ll: latitude/],
    ['q=a&ll=@40.7,-190,14z', /^ll: longitude/],
    ['q=a&ll=%40abc%2C1%2C2z', /^ll: /],
    ['q=a&ll=@40.7,-74.0,14z&ll=@1,1,1z', /^ll was given more than once/],
    ['q=a&cid=12ab', /^cid /],
    ['q=a&cid=-1', /^cid /],
    ['q=a&hl=english', /^hl /],
    ['q=a&placeId=no%20spaces', /^placeId /],
  ];
  it.each(invalid)('400 naming the parameter for "%s", nothing charged, nothing sent upstream', async (query, message) => {
    const account = await trawl.createAccount();
    const requests = seen.length;
    const res = await trawl.get(`/serp-maps?${query}`, key(account.apiKey));
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('INVALID_PARAMETER');
    expect(res.body.error.message).toMatch(message);
    expect(seen.length).toBe(requests);
    expect(await balance(trawl, account.accountId)).toBe(10_000);
  });

  it('403 for a suspended account and for an expired subscription, charged 0', async () => {
    const account = await trawl.createAccount();
    await trawl.admin.setStatus(account.accountId, 'suspended');
    const suspended = await trawl.get('/serp-maps?q=coffee', key(account.apiKey));
    expect(suspended.status).toBe(403);
    expect(suspended.body.error.code).toBe('ACCOUNT_SUSPENDED');
    await trawl.admin.setStatus(account.accountId, 'active');
    await trawl.admin.setSubscriptionExpiry(account.accountId, new Date(Date.now() - 1000));
    const expired = await trawl.get('/serp-maps?q=coffee', key(account.apiKey));
    expect(expired.status).toBe(403);
    expect(expired.body.error.code).toBe('SUBSCRIPTION_EXPIRED');
    expect(await balance(trawl, account.accountId)).toBe(10_000);
  });

  it('401 without a key', async () => {
    const res = await trawl.get('/serp-maps?q=coffee');
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('UNAUTHORIZED');
  });

  it('429 CREDITS_EXHAUSTED when fewer than 30 credits are left, before anything is sent upstream', async () => {
    const account = await trawl.createAccount();
    await drainTo(trawl, account.accountId, 29);
    const requests = seen.length;
    const res = await trawl.get('/serp-maps?q=coffee', key(account.apiKey));
    expect(res.status).toBe(429);
    expect(res.body.error.code).toBe('CREDITS_EXHAUSTED');
    expect(seen.length).toBe(requests);
    expect(await balance(trawl, account.accountId)).toBe(29);
  });

  it('429 with the contract message past the plan concurrency (free: 5)', async () => {
    const account = await trawl.createAccount('free');
    const requests = Array.from({ length: 6 }, () => trawl.get('/serp-maps?q=hold', key(account.apiKey)));
    const refused = await pollUntil(async () => {
      const settled = await Promise.all(requests.map((r) => Promise.race([r, Promise.resolve(null)])));
      const done = settled.filter((r) => r !== null);
      return done.length === 1 && held.length === 5 ? done[0] : null;
    }, 'one refusal and five held maps requests');
    expect(refused.status).toBe(429);
    expect(refused.body.error.message).toBe('Concurrent request limit reached (5). Please wait for other requests to finish.');
    for (const res of held.splice(0)) res.writeHead(200, { 'content-type': 'application/json' }).end(`)]}'\n[["hold",null]]`);
    const all = await Promise.all(requests);
    expect(all.filter((r) => r.status === 200)).toHaveLength(5);
    expect(await balance(trawl, account.accountId)).toBe(10_000 - 5 * 30);
  });
});

// ---- OpenStreetMap (Nominatim) ----------------------------------------------------------------------------------

const CAFE = {
  place_id: 98765,
  licence: 'Data © OpenStreetMap contributors, ODbL 1.0. http://osm.org/copyright',
  osm_type: 'node',
  osm_id: 123,
  lat: '40.7451',
  lon: '-74.0081',
  category: 'amenity',
  type: 'cafe',
  place_rank: 30,
  importance: 0.1,
  addresstype: 'amenity',
  name: 'Chelsea Beans',
  display_name: 'Chelsea Beans, 401, West 14th Street, Manhattan, New York, 10014, United States',
  address: { amenity: 'Chelsea Beans', house_number: '401', road: 'West 14th Street', city: 'New York', postcode: '10014', country: 'United States', country_code: 'us' },
  extratags: { opening_hours: 'Mo-Fr 08:00-18:00; Sa 09:00-14:00', phone: '+1 212 555 0100', website: 'chelseabeans.example', cuisine: 'coffee_shop' },
  namedetails: { name: 'Chelsea Beans' },
  boundingbox: ['40.7450', '40.7452', '-74.0082', '-74.0080'],
};
const BAKERY = {
  ...CAFE,
  osm_type: 'way',
  osm_id: 456,
  type: 'bakery',
  category: 'shop',
  name: 'Corner Bakery',
  display_name: 'Corner Bakery, 9th Avenue, Manhattan, New York, United States',
  extratags: {},
  namedetails: { name: 'Corner Bakery' },
};

describe('GET /serp-maps (OpenStreetMap via Nominatim)', () => {
  let trawl: Harness;
  let nominatim: FixtureServer;
  let proxy: RecordingProxy;
  const seen: Seen[] = [];
  const PACE_MS = 300;

  beforeAll(async () => {
    const json = (res: ServerResponse, body: unknown) => res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(body));
    nominatim = await startFixtureServer({
      '/search': (req, res) => {
        const q = recorder(seen, req).get('q');
        if (q === 'osm down') return void res.writeHead(503, { 'content-type': 'text/html' }).end('<html><body>Service unavailable</body></html>');
        if (q === 'osm blocked') return void res.writeHead(429, { 'content-type': 'text/html' }).end('<html><body>Access blocked: usage policy</body></html>');
        json(res, [CAFE, BAKERY]);
      },
      '/lookup': (req, res) => {
        const ids = recorder(seen, req).get('osm_ids');
        json(res, ids === 'N123' ? [CAFE] : ids === 'W456' ? [BAKERY] : []);
      },
    });
    proxy = await startRecordingProxy();
    trawl = await startHarness({
      MAPS_PROVIDER: 'osm',
      NOMINATIM_BASE_URL: nominatim.url,
      NOMINATIM_USER_AGENT: 'TrawlTest/1.0 (ops@example.org)',
      NOMINATIM_MIN_INTERVAL_MS: String(PACE_MS),
      PROXIES: `*=${proxy.url}`,
    });
  });

  afterAll(async () => {
    await trawl?.close();
    await nominatim?.close();
    await proxy?.close();
  });

  it('searches Nominatim with details, ll as a viewbox boost and hl as accept-language; places in §2.3 shape, 30 credits', async () => {
    const account = await trawl.createAccount();
    const res = await trawl.get('/serp-maps?q=coffee&ll=%4040.7455,-74.0083,14z&hl=de', key(account.apiKey));
    expect(res.status).toBe(200);
    expect(res.body.parameters).toEqual({ q: 'coffee', ll: '@40.7455,-74.0083,14z', hl: 'de' });
    expect(res.body.credits).toBe(30);
    expect(res.body.serp_maps_results).toEqual([
      {
        position: 1,
        title: 'Chelsea Beans',
        address: '401, West 14th Street, Manhattan, New York, 10014, United States',
        phoneNumber: '+1 212 555 0100',
        website: 'https://chelseabeans.example',
        type: 'Cafe',
        types: ['Cafe', 'Coffee shop'],
        placeId: 'N123',
        latitude: 40.7451,
        longitude: -74.0081,
        openingHours: {
          Monday: '8 AM–6 PM', Tuesday: '8 AM–6 PM', Wednesday: '8 AM–6 PM', Thursday: '8 AM–6 PM', Friday: '8 AM–6 PM',
          Saturday: '9 AM–2 PM', Sunday: 'Closed',
        },
      },
      { position: 2, title: 'Corner Bakery', address: '9th Avenue, Manhattan, New York, United States', type: 'Bakery', types: ['Bakery'], placeId: 'W456', latitude: 40.7451, longitude: -74.0081 },
    ]);
    const sent = seen.at(-1)!;
    expect(sent.path).toBe('/search');
    expect(Object.fromEntries(['q', 'format', 'extratags', 'addressdetails', 'accept-language', 'bounded'].map((k) => [k, sent.params.get(k)]))).toEqual({
      q: 'coffee', format: 'jsonv2', extratags: '1', addressdetails: '1', 'accept-language': 'de', bounded: '0',
    });
    // A 1024×768 viewport at zoom 14 around the centre: ~0.088° of longitude by ~0.050° of latitude.
    const [left, top, right, bottom] = sent.params.get('viewbox')!.split(',').map(Number);
    expect((left + right) / 2).toBeCloseTo(-74.0083, 4);
    expect((top + bottom) / 2).toBeCloseTo(40.7455, 4);
    expect(right - left).toBeCloseTo(0.0879, 3);
    expect(top - bottom).toBeCloseTo(0.05, 2);
    expect(sent.headers['user-agent']).toBe('TrawlTest/1.0 (ops@example.org)');
    expect(sent.headers['accept-language']).toBe('de');
    expect(await balance(trawl, account.accountId)).toBe(10_000 - 30);
  });

  it('a search without ll sends no viewbox, without hl no language', async () => {
    const account = await trawl.createAccount();
    expect((await trawl.get('/serp-maps?q=coffee', key(account.apiKey))).status).toBe(200);
    const sent = seen.at(-1)!;
    expect(sent.params.has('viewbox')).toBe(false);
    expect(sent.params.has('accept-language')).toBe(false);
  });

  it.each([
    ['N123', 'Chelsea Beans', ''],
    ['W456', 'Corner Bakery', '&hl=fr'],
  ])('looks up placeId %s through /lookup: that one place, q not sent', async (id, title, hl) => {
    const account = await trawl.createAccount();
    const res = await trawl.get(`/serp-maps?q=anything&placeId=${id}${hl}`, key(account.apiKey));
    expect(res.status).toBe(200);
    expect(res.body.serp_maps_results).toHaveLength(1);
    expect(res.body.serp_maps_results[0]).toMatchObject({ position: 1, title, placeId: id });
    const sent = seen.at(-1)!;
    expect(sent.path).toBe('/lookup');
    expect(sent.params.get('osm_ids')).toBe(id);
    expect(sent.params.has('q')).toBe(false);
    if (hl) expect(sent.params.get('accept-language')).toBe('fr');
    expect(await balance(trawl, account.accountId)).toBe(10_000 - 30);
  });

  it.each([
    ['an OSM id Nominatim does not have', 'placeId=W999', true],
    ['a placeId not of the N/W/R form (no request made)', 'placeId=ChIJDdnwdv0y5xQRRytw1ihZQeU', false],
    ['a cid: OSM has none (no request made)', 'cid=16519582940102929223', false],
    ['a cid with an hl (no request made)', 'cid=42&hl=en', false],
  ])('200 with no places for %s, 30 credits', async (_what, ids, asked) => {
    const account = await trawl.createAccount();
    const requests = seen.length;
    const res = await trawl.get(`/serp-maps?q=x&${ids}`, key(account.apiKey));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ serp_maps_results: [], credits: 30 });
    expect(seen.length - requests).toBe(asked ? 1 : 0);
    expect(await balance(trawl, account.accountId)).toBe(10_000 - 30);
  });

  it('500 UPSTREAM_* at 0 credits when Nominatim fails or refuses us, without retrying a refusal', async () => {
    const account = await trawl.createAccount();
    const down = await trawl.get(`/serp-maps?q=${encodeURIComponent('osm down')}`, key(account.apiKey));
    expect(down.status).toBe(500);
    expect(down.body.error.code).toBe('UPSTREAM_FAILED');
    const before = seen.length;
    const blocked = await trawl.get(`/serp-maps?q=${encodeURIComponent('osm blocked')}`, key(account.apiKey));
    expect(blocked.status).toBe(500);
    expect(blocked.body.error.code).toBe('UPSTREAM_BLOCKED');
    expect(seen.length - before).toBe(1);
    expect(await balance(trawl, account.accountId)).toBe(10_000);
  });

  it('paces Nominatim requests across workers (NOMINATIM_MIN_INTERVAL_MS) and never sends them through proxies', async () => {
    const account = await trawl.createAccount('developer');
    const before = seen.length;
    const responses = await Promise.all(Array.from({ length: 3 }, (_, i) => trawl.get(`/serp-maps?q=paced${i}`, key(account.apiKey))));
    expect(responses.map((r) => r.status)).toEqual([200, 200, 200]);
    const arrivals = seen.slice(before).map((s) => s.at).sort((a, b) => a - b);
    expect(arrivals).toHaveLength(3);
    // Paced at send time; arrivals jitter by a loaded machine's scheduling: a late arrival shortens the gap after it by
    // what it adds to the gap before. So each gap keeps a third of the pace, and the three span two paces less a third
    // of one (unpaced, the three arrive within a few milliseconds of each other).
    for (let i = 1; i < arrivals.length; i++) expect(arrivals[i] - arrivals[i - 1]).toBeGreaterThanOrEqual(PACE_MS / 3);
    expect(arrivals[2] - arrivals[0]).toBeGreaterThanOrEqual(2 * PACE_MS - PACE_MS / 3);
    expect(proxy.carried).toEqual([]);
  });
});
