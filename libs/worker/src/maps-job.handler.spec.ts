/** The maps job over a scripted engine: proxy rotation for Google, pacing and no rotation for Nominatim, verdicts. */
import { describe, expect, it } from '@jest/globals';
import { ErrorCode, TrawlError, type MapsSearchPayload, type ProxyInfo, type ProxyProvider } from '#contracts';
import { createMapsProvider } from '#serp/maps/index.js';
import { engineRow } from '#contracts';
import { MapsJobHandler } from './maps-job.handler.js';
import type { PageEngine, PageRequest } from './page-engine.js';
import type { UpstreamPacer } from './upstream-pacer.js';

const base = { googleBaseUrl: 'http://google.test/', nominatimBaseUrl: 'http://nominatim.test/' };
const providers = { google: createMapsProvider({ ...base, provider: 'google' }), osm: createMapsProvider({ ...base, provider: 'osm' }) };
const CAPTCHA = '<html><body>Our systems have detected unusual traffic from your computer network.</body></html>';
const NOMINATIM_CAFE = JSON.stringify([{ osm_type: 'node', osm_id: 1, lat: '1', lon: '2', category: 'amenity', type: 'cafe', name: 'Cafe', display_name: 'Cafe, Street' }]);

type Answer = { status: number; html: string } | Error;

function engine(answers: Answer[]) {
  const requests: PageRequest[] = [];
  const fake: PageEngine = {
    row: engineRow('http'),
    fetchPage: async (request) => {
      requests.push(request);
      const answer = answers.shift() ?? new Error('no more answers');
      if (answer instanceof Error) throw answer;
      return { finalUrl: request.url, ...answer };
    },
    close: async () => undefined,
  };
  return { fake, requests };
}

const proxyPool = (): ProxyProvider => {
  let n = 0;
  return { next: (): ProxyInfo => ({ server: `http://proxy-${++n}.test:8000`, country: '*' }), countries: () => [] };
};

function pacer(allow = true) {
  const turns: Array<{ key: string; intervalMs: number }> = [];
  const fake: Pick<UpstreamPacer, 'waitTurn'> = { waitTurn: async (key, intervalMs) => (turns.push({ key, intervalMs }), allow) };
  return { fake, turns };
}

const job = (provider: 'google' | 'osm', params: MapsSearchPayload['params']): MapsSearchPayload => ({ callId: 'c', provider, params, timeoutMs: 5_000 });

describe('MapsJobHandler', () => {
  it('Google: a block page is retried through the next proxy; the attempts stop at the limit with UPSTREAM_BLOCKED', async () => {
    const { fake, requests } = engine([{ status: 200, html: CAPTCHA }, { status: 200, html: `)]}'\n[["q",null]]` }]);
    const handler = new MapsJobHandler(providers, fake, proxyPool(), 3, { pacer: pacer().fake, nominatimIntervalMs: 1000 });
    expect(await handler.handle(job('google', { q: 'coffee' }))).toEqual({ ok: true, verdict: 'ok', places: [] });
    expect(requests.map((r) => r.proxy?.server)).toEqual(['http://proxy-1.test:8000', 'http://proxy-2.test:8000']);
    expect(requests[0]).toMatchObject({ target: 'upstream' });

    const blocked = engine([{ status: 200, html: CAPTCHA }, { status: 429, html: '' }, { status: 200, html: CAPTCHA }]);
    const result = await new MapsJobHandler(providers, blocked.fake, proxyPool(), 3, { pacer: pacer().fake, nominatimIntervalMs: 0 }).handle(job('google', { q: 'x' }));
    expect(result).toMatchObject({ ok: false, error: { code: ErrorCode.UPSTREAM_BLOCKED, kind: 'blocked' } });
    expect(blocked.requests).toHaveLength(3);
  });

  it('an unreachable upstream is UPSTREAM_FAILED; a permanent fetch error is not retried', async () => {
    const { fake, requests } = engine([new TrawlError(ErrorCode.DNS_FAILED, 'no such host', 'permanent')]);
    const result = await new MapsJobHandler(providers, fake, null, 3, { pacer: pacer().fake, nominatimIntervalMs: 0 }).handle(job('google', { q: 'x' }));
    expect(result).toMatchObject({ ok: false, error: { code: ErrorCode.UPSTREAM_FAILED } });
    expect(requests).toHaveLength(1);
  });

  it('a lookup the provider cannot express is not_found without a request', async () => {
    const { fake, requests } = engine([]);
    const handler = new MapsJobHandler(providers, fake, null, 3, { pacer: pacer().fake, nominatimIntervalMs: 0 });
    expect(await handler.handle(job('osm', { q: 'x', cid: '42' }))).toMatchObject({ ok: true, verdict: 'not_found', reason: expect.stringMatching(/cid/) });
    expect(requests).toEqual([]);
  });

  it('Nominatim: takes a paced turn before each request, never through a proxy, and does not retry a refusal', async () => {
    const ok = engine([{ status: 200, html: NOMINATIM_CAFE }]);
    const turns = pacer();
    const handler = new MapsJobHandler(providers, ok.fake, proxyPool(), 3, { pacer: turns.fake, nominatimIntervalMs: 1000 });
    const result = await handler.handle(job('osm', { q: 'cafe' }));
    expect(result).toMatchObject({ ok: true, verdict: 'ok', places: [{ position: 1, title: 'Cafe', placeId: 'N1' }] });
    expect(turns.turns).toEqual([{ key: 'nominatim', intervalMs: 1000 }]);
    expect(ok.requests[0].proxy).toBeNull();

    const refused = engine([{ status: 429, html: '' }, { status: 200, html: NOMINATIM_CAFE }]);
    const again = await new MapsJobHandler(providers, refused.fake, proxyPool(), 3, { pacer: pacer().fake, nominatimIntervalMs: 1000 }).handle(job('osm', { q: 'cafe' }));
    expect(again).toMatchObject({ ok: false, error: { code: ErrorCode.UPSTREAM_BLOCKED } });
    expect(refused.requests).toHaveLength(1);
  });

  it('Nominatim: no turn within the budget fails with UPSTREAM_FAILED and sends nothing', async () => {
    const { fake, requests } = engine([{ status: 200, html: NOMINATIM_CAFE }]);
    const result = await new MapsJobHandler(providers, fake, null, 3, { pacer: pacer(false).fake, nominatimIntervalMs: 1000 }).handle(job('osm', { q: 'cafe' }));
    expect(result).toMatchObject({ ok: false, error: { code: ErrorCode.UPSTREAM_FAILED, message: expect.stringMatching(/one request per 1000 ms/) } });
    expect(requests).toEqual([]);
  });
});
