/** /serp-search with fake repositories: the queue per search engine, and how job outcomes become errors. */
import { describe, expect, it } from '@jest/globals';
import { ErrorCode, QueueName, TrawlError, parseQuery, serpSearchParamsSchema } from '#contracts';
import { fakeDispatcher, fakeLifecycle, principal, testConfig } from '../testing/fakes.js';
import { SerpSearchService } from './serp-search.service.js';

const params = parseQuery(serpSearchParamsSchema, { q: 'coffee' });

describe('SerpSearchService', () => {
  it('fetches Bing over the http engine and echoes the parameters; 10 credits', async () => {
    const { lifecycle, settled } = fakeLifecycle();
    const { dispatcher, jobs } = fakeDispatcher(() => ({ ok: true, result: { ok: true, verdict: 'ok', response: { serp_search_results: [] } } }));
    const body = await new SerpSearchService(lifecycle, dispatcher, testConfig()).search(principal, params);
    expect(jobs[0].queue).toBe(QueueName.http);
    expect(body).toEqual({ parameters: { q: 'coffee', gl: 'us', hl: 'en', num: 10, page: 1, type: 'search' }, serp_search_results: [] });
    expect(settled[0]).toMatchObject({ reserved: 10, charged: 10 });
  });

  it('fetches Google through the chromium engine when its transport is render', async () => {
    const { lifecycle } = fakeLifecycle();
    const { dispatcher, jobs } = fakeDispatcher(() => ({ ok: true, result: { ok: true, verdict: 'no_results', response: { serp_search_results: [] } } }));
    await new SerpSearchService(lifecycle, dispatcher, testConfig({ SERP_ENGINE: 'google', GOOGLE_TRANSPORT: 'render' })).search(principal, params);
    expect(jobs[0].queue).toBe(QueueName.render);
  });

  it('maps a blocked upstream to UPSTREAM_BLOCKED and a lost job to UPSTREAM_FAILED, refunding both', async () => {
    for (const [outcome, code] of [
      [{ ok: true, result: { ok: false, error: { code: ErrorCode.UPSTREAM_BLOCKED, message: 'captcha', kind: 'blocked' } } }, 'UPSTREAM_BLOCKED'],
      [{ ok: false, error: new TrawlError(ErrorCode.TIMEOUT, 'deadline', 'transient') }, 'UPSTREAM_FAILED'],
    ] as const) {
      const { lifecycle, refunded, settled } = fakeLifecycle();
      const { dispatcher } = fakeDispatcher(() => outcome as never);
      await expect(new SerpSearchService(lifecycle, dispatcher, testConfig()).search(principal, params)).rejects.toMatchObject({ code });
      expect(refunded).toHaveLength(1);
      expect(settled).toEqual([]);
    }
  });
});
