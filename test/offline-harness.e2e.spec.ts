/**
 * No test reaches the internet by construction: a harness that names no fixture has every upstream on a closed
 * loopback port, so a call that would go out fails at once with 500 UPSTREAM_FAILED (0 credits) instead of reaching
 * Google, Bing, DuckDuckGo or Nominatim.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { key, startHarness, type Harness } from './support/harness.js';
import { CLOSED_UPSTREAM } from './support/offline.js';

let trawl: Harness;

beforeAll(async () => {
  trawl = await startHarness({ GOOGLE_TRANSPORT: 'http', MAPS_PROVIDER: 'osm', SERP_PROXY_ATTEMPTS: '1' });
});

afterAll(async () => {
  await trawl?.close();
});

describe('the test harness without upstream fixtures', () => {
  it('points every upstream of the configuration at a closed loopback port', () => {
    const { GOOGLE_BASE_URL, BING_BASE_URL, DUCKDUCKGO_BASE_URL, NOMINATIM_BASE_URL, OVERPASS_BASE_URL } = trawl.config;
    expect([GOOGLE_BASE_URL, BING_BASE_URL, DUCKDUCKGO_BASE_URL, NOMINATIM_BASE_URL, OVERPASS_BASE_URL].map((u) => new URL(u!).origin)).toEqual(
      Array(5).fill(new URL(CLOSED_UPSTREAM).origin),
    );
  });

  it.each([
    ['Google', '/serp-search?q=coffee'],
    ['Bing', '/search?query=coffee'],
    ['Nominatim', '/serp-maps?q=coffee'],
  ])('%s: the call fails with 500 UPSTREAM_FAILED at 0 credits', async (_engine, path) => {
    const account = await trawl.createAccount();
    const res = await trawl.get(path, key(account.apiKey));
    expect({ status: res.status, code: res.body.error?.code }).toEqual({ status: 500, code: 'UPSTREAM_FAILED' });
    expect((await trawl.admin.report(account.accountId)).account.balance).toBe(10_000);
  });
});
