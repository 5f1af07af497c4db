/** `geolocation` routes a crawl through a proxy of that country (verified by recording loopback proxies). */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { html, startFixtureServer, type FixtureServer } from './support/fixture-server.js';
import { key, startHarness, type Harness } from './support/harness.js';
import { startRecordingProxy, type RecordingProxy } from './support/recording-proxy.js';

let trawl: Harness;
let site: FixtureServer;
let de: RecordingProxy;
let fr: RecordingProxy;

beforeAll(async () => {
  site = await startFixtureServer({
    '/whoami': (req, res) =>
      void res
        .writeHead(200, { 'content-type': 'text/html' })
        .end(html(`<article><h1>Headers seen</h1><p>Accept-Language was ${req.headers['accept-language']} and the user agent was ${req.headers['user-agent']}.</p></article>`)),
  });
  [de, fr] = await Promise.all([startRecordingProxy(), startRecordingProxy()]);
  trawl = await startHarness({ PROXIES: `de=${de.url},fr=${fr.url}`, CRAWL_TIMEOUT_MS: '20000' });
});

afterAll(async () => {
  await trawl?.close();
  await site?.close();
  await Promise.all([de?.close(), fr?.close()]);
});

describe('GET /crawl geolocation', () => {
  it('fetches through the country proxy with a matching Accept-Language and a desktop browser user agent', async () => {
    const account = await trawl.createAccount();
    const res = await trawl.get(`/crawl?urls=${encodeURIComponent(`${site.url}/whoami`)}&geolocation=DE&page_text=true`, key(account.apiKey));
    expect(res.status).toBe(200);
    expect(de.carried.length).toBe(1);
    expect(fr.carried.length).toBe(0);
    expect(res.body.results[0].page_text).toContain('Accept-Language was de-DE,de;q=0.9');
    expect(res.body.results[0].page_text).toMatch(/user agent was Mozilla\/5\.0 \(Windows NT 10\.0; Win64; x64\)/);
  });

  it('renders through the country proxy too', async () => {
    const account = await trawl.createAccount();
    const before = fr.carried.length;
    const res = await trawl.get(`/crawl?urls=${encodeURIComponent(`${site.url}/whoami`)}&geolocation=fr&render_js=true&page_text=true`, key(account.apiKey));
    expect(res.status).toBe(200);
    expect(res.body.results[0].page_text).toContain('fr-FR');
    expect(fr.carried.length).toBeGreaterThan(before);
  });

  it('refuses a host name that does not resolve here, rendered or not, instead of letting the country proxy resolve it', async () => {
    const account = await trawl.createAccount();
    const target = encodeURIComponent('http://trawl-unresolvable.invalid/');
    for (const render of ['false', 'true']) {
      const res = await trawl.get(`/crawl?urls=${target}&geolocation=de&render_js=${render}`, key(account.apiKey));
      expect(res.status).toBe(200);
      expect(res.body.results[0].error).toMatch(/^DNS_FAILED/);
      expect(res.body.credits).toBe(0);
    }
    // Nothing of it reached the proxy: its own resolver could have answered with a private address nobody checked.
    expect(de.carried.filter((c) => c.hostname.endsWith('.invalid'))).toEqual([]);
  });

  it('gives PROXY_UNAVAILABLE (0 credits) for a valid country without a proxy, 400 for an unknown code', async () => {
    const account = await trawl.createAccount();
    const res = await trawl.get(`/crawl?urls=${encodeURIComponent(`${site.url}/whoami`)}&geolocation=jp`, key(account.apiKey));
    expect(res.status).toBe(200);
    expect(res.body.results[0].error).toMatch(/^PROXY_UNAVAILABLE/);
    expect(res.body.credits).toBe(0);
    const bad = await trawl.get(`/crawl?urls=${encodeURIComponent(`${site.url}/whoami`)}&geolocation=xx`, key(account.apiKey));
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/geolocation/);
  });
});
