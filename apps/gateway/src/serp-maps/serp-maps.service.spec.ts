/** /serp-maps with fake repositories: the job it queues, what is echoed and charged, and how outcomes become errors. */
import { describe, expect, it } from '@jest/globals';
import { ErrorCode, JobName, QueueName, TrawlError, type MapsSearchPayload } from '#contracts';
import { fakeDispatcher, fakeLifecycle, principal, testConfig } from '../testing/fakes.js';
import { SerpMapsService } from './serp-maps.service.js';

const place = { position: 1, title: 'Kipriakon', cid: '16519582940102929223', latitude: 34.67, longitude: 33.04 };

function setup(answer: Parameters<typeof fakeDispatcher>[0], env: Record<string, string> = {}) {
  const { lifecycle, settled, refunded } = fakeLifecycle();
  const { dispatcher, jobs } = fakeDispatcher(answer);
  return { service: new SerpMapsService(lifecycle, dispatcher, testConfig(env)), settled, refunded, jobs };
}

describe('SerpMapsService', () => {
  it('queues one maps.search job on the http engine with the parsed ll, echoes the parameters as sent; 30 credits', async () => {
    const { service, jobs, settled } = setup(() => ({ ok: true, result: { ok: true, verdict: 'ok', places: [place] } }));
    const body = await service.search(principal, service.parse({ q: 'restaurants', hl: 'el', ll: '@34.67,33.04,15z' }));
    expect(jobs).toHaveLength(1);
    expect(jobs[0]).toMatchObject({ queue: QueueName.http, name: JobName.mapsSearch });
    const payload = jobs[0].payload as MapsSearchPayload;
    expect(payload).toMatchObject({ provider: 'google', params: { q: 'restaurants', hl: 'el', ll: { lat: 34.67, lng: 33.04, zoom: 15 } } });
    expect(payload.params).not.toHaveProperty('placeId');
    expect(body).toEqual({ parameters: { q: 'restaurants', hl: 'el', ll: '@34.67,33.04,15z' }, serp_maps_results: [place], credits: 30 });
    expect(settled).toEqual([{ callId: expect.any(String), reserved: 30, charged: 30 }]);
  });

  it('charges 30 for a search with no places at all (cost is per request)', async () => {
    const { service, settled } = setup(() => ({ ok: true, result: { ok: true, verdict: 'ok', places: [] } }));
    const body = await service.search(principal, service.parse({ q: 'nothing here' }));
    expect(body).toEqual({ parameters: { q: 'nothing here' }, serp_maps_results: [], credits: 30 });
    expect(settled[0].charged).toBe(30);
  });

  it('hands the configured provider and both lookup identifiers to the worker', async () => {
    const { service, jobs } = setup(() => ({ ok: true, result: { ok: true, verdict: 'ok', places: [place] } }), { MAPS_PROVIDER: 'osm' });
    await service.search(principal, service.parse({ q: 'x', placeId: 'N123', cid: '42' }));
    expect(jobs[0].payload).toMatchObject({ provider: 'osm', params: { q: 'x', placeId: 'N123', cid: '42' } });
  });

  it('a lookup the provider has no place for is 200 with no places at 30 credits (spec: per request, no 404 listed)', async () => {
    const { service, settled, refunded } = setup(() => ({ ok: true, result: { ok: true, verdict: 'not_found', reason: 'Google Maps has no place with cid 42' } }));
    const body = await service.search(principal, service.parse({ q: 'x', cid: '42' }));
    expect(body).toEqual({ parameters: { q: 'x', cid: '42' }, serp_maps_results: [], credits: 30 });
    expect(settled).toEqual([{ callId: expect.any(String), reserved: 30, charged: 30 }]);
    expect(refunded).toEqual([]);
  });

  it('maps a block to UPSTREAM_BLOCKED and a lost job to UPSTREAM_FAILED, refunding both', async () => {
    for (const [outcome, code] of [
      [{ ok: true, result: { ok: false, error: { code: ErrorCode.UPSTREAM_BLOCKED, message: 'captcha', kind: 'blocked' } } }, 'UPSTREAM_BLOCKED'],
      [{ ok: false, error: new TrawlError(ErrorCode.TIMEOUT, 'deadline', 'transient') }, 'UPSTREAM_FAILED'],
    ] as const) {
      const { service, settled, refunded } = setup(() => outcome as never);
      await expect(service.search(principal, service.parse({ q: 'coffee' }))).rejects.toMatchObject({ code });
      expect(refunded).toHaveLength(1);
      expect(settled).toEqual([]);
    }
  });

  it('refuses malformed parameters before queueing anything', async () => {
    const { service, jobs } = setup(() => ({ ok: true, result: { ok: true, verdict: 'ok', places: [] } }));
    expect(() => service.parse({ q: 'x', ll: '@40.7,-74,22z' })).toThrow(/^ll: zoom 22z/);
    expect(() => service.parse({ q: 'x', cid: 'abc' })).toThrow(/^cid /);
    expect(jobs).toEqual([]);
  });
});
