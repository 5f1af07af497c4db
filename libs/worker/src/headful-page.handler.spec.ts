/** The headful.page attempt loop over a fake engine: rotation on blocks, final errors, blocked only when all were. */
import { describe, expect, it } from '@jest/globals';
import type { ScreenshotStore } from '#storage';
import { ErrorCode, TrawlError, type HeadfulPagePayload } from '#contracts';
import type { ExtractionPool } from '#extraction';
import { ResidentialProxyPool } from '#fetch';
import { HeadfulPageHandler } from './headful-page.handler.js';
import type { FetchedPage, PageEngine, PageRequest } from './page-engine.js';

const ARTICLE = `<html><body><article><h1>Hello</h1><p>${'Real content of the page. '.repeat(10)}</p></article></body></html>`;
const WALL = '<html><head><title>Just a moment...</title></head><body><form id="challenge-form" action="/?__cf_chl_f_tk=x"></form></body></html>';

function engine(answer: (request: PageRequest) => FetchedPage | Error) {
  const requests: PageRequest[] = [];
  const e = {
    row: {} as PageEngine['row'],
    fetchPage: async (request: PageRequest) => {
      requests.push(request);
      const a = answer(request);
      if (a instanceof Error) throw a;
      return a;
    },
    close: async () => undefined,
  } satisfies PageEngine;
  return { engine: e, requests };
}

const extraction = { format: async (html: string) => ({ markdown: `md(${html.length})`, metadata: {} }) } as unknown as ExtractionPool;
const store: ScreenshotStore = { put: async () => 'shot.png' };
const payload: HeadfulPagePayload = { callId: 'c', url: 'https://site.example/', country: 'de', format: 'markdown', screenshot: true, timeoutMs: 30_000 };
const pool = () => new ResidentialProxyPool({ lists: 'de=http://10.0.0.1:1|http://10.0.0.2:1|http://10.0.0.3:1' });

describe('HeadfulPageHandler', () => {
  it('retries a blocked attempt through another proxy, with the country locale, timezone and language', async () => {
    const { engine: e, requests } = engine((r) => ({ finalUrl: r.url, status: r.proxy!.server.includes('10.0.0.1') ? 403 : 200, html: r.proxy!.server.includes('10.0.0.1') ? WALL : ARTICLE, screenshot: 'AAAA' }));
    const result = await new HeadfulPageHandler(e, pool(), store, extraction, { attempts: 3 }).handle(payload);
    expect(result).toMatchObject({ ok: true, content: `md(${ARTICLE.length})`, screenshotKey: 'shot.png', attempts: 2 });
    expect(new Set(requests.map((r) => r.proxy!.server)).size).toBe(2);
    expect(requests[0]).toMatchObject({ locale: 'de-DE', timezoneId: 'Europe/Berlin', acceptLanguage: 'de-DE,de;q=0.9,en;q=0.8', screenshot: 'full' });
  });

  it('is blocked only when every attempt was blocked', async () => {
    const blocked = await new HeadfulPageHandler(engine(() => ({ finalUrl: 'x', status: 403, html: WALL })).engine, pool(), store, extraction, { attempts: 3 }).handle(payload);
    expect(blocked).toMatchObject({ ok: false, blocked: true, attempts: 3, error: { code: ErrorCode.UPSTREAM_BLOCKED } });
    let n = 0;
    const mixed = await new HeadfulPageHandler(
      engine(() => (n++ === 0 ? { finalUrl: 'x', status: 403, html: WALL } : new TrawlError(ErrorCode.PROXY_FAILED, 'proxy down', 'transient'))).engine,
      pool(), store, extraction, { attempts: 3 },
    ).handle(payload);
    expect(mixed).toMatchObject({ ok: false, blocked: false, attempts: 3, error: { code: ErrorCode.PROXY_FAILED } });
  });

  it('stops at once on errors another proxy cannot fix', async () => {
    const { engine: e, requests } = engine(() => new TrawlError(ErrorCode.BLOCKED_ADDRESS, 'Refused to render: the target is a metadata address'));
    const result = await new HeadfulPageHandler(e, pool(), store, extraction, { attempts: 3 }).handle(payload);
    expect(result).toMatchObject({ ok: false, blocked: false, attempts: 1, error: { code: ErrorCode.BLOCKED_ADDRESS } });
    expect(requests).toHaveLength(1);
  });

  it('a screenshot that cannot be stored fails the URL instead of dropping the screenshot', async () => {
    const failing: ScreenshotStore = { put: async () => Promise.reject(new Error('disk full')) };
    const { engine: e } = engine((r) => ({ finalUrl: r.url, status: 200, html: ARTICLE, screenshot: 'AAAA' }));
    const result = await new HeadfulPageHandler(e, pool(), failing, extraction, { attempts: 3 }).handle(payload);
    expect(result).toMatchObject({ ok: false, blocked: false, error: { code: ErrorCode.INTERNAL, message: 'The screenshot could not be stored' } });
  });

  it('a country without proxies is PROXY_UNAVAILABLE without touching the browser', async () => {
    const { engine: e, requests } = engine(() => ({ finalUrl: 'x', status: 200, html: ARTICLE }));
    const result = await new HeadfulPageHandler(e, pool(), store, extraction, { attempts: 3 }).handle({ ...payload, country: 'jp' });
    expect(result).toMatchObject({ ok: false, blocked: false, attempts: 0, error: { code: ErrorCode.PROXY_UNAVAILABLE } });
    expect(requests).toHaveLength(0);
  });

  it('direct (no proxy serves the default country): one attempt without a proxy, the country profile kept', async () => {
    const { engine: e, requests } = engine((r) => ({ finalUrl: r.url, status: 200, html: ARTICLE }));
    const empty = new ResidentialProxyPool({});
    const loaded = await new HeadfulPageHandler(e, empty, store, extraction, { attempts: 3 }).handle({ ...payload, country: 'us', direct: true });
    expect(loaded).toMatchObject({ ok: true, attempts: 1 });
    expect(requests[0]).toMatchObject({ proxy: null, locale: 'en-US', acceptLanguage: expect.stringMatching(/^en-US/) });
    const walled = await new HeadfulPageHandler(engine(() => ({ finalUrl: 'x', status: 403, html: WALL })).engine, empty, store, extraction, { attempts: 3 }).handle({ ...payload, direct: true });
    expect(walled).toMatchObject({ ok: false, blocked: true, attempts: 1, error: { code: ErrorCode.UPSTREAM_BLOCKED } });
  });
});
