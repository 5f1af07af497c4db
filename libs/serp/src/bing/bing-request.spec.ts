import { describe, expect, it } from '@jest/globals';
import { DEVICE_PROFILES } from '#contracts';
import { bingFreshness, buildBingWebRequest } from './bing-request.js';

const build = (q: Parameters<typeof buildBingWebRequest>[1]) => {
  const r = buildBingWebRequest({ baseUrl: 'http://127.0.0.1:8082/' }, q);
  return { r, params: Object.fromEntries(new URL(r.url).searchParams) };
};

describe('Bing request builder', () => {
  it('page 1: only q (no first, no pq), desktop Chrome, English', () => {
    const { r, params } = build({ query: 'rust async', page: 1 });
    expect(params).toEqual({ q: 'rust async' });
    expect(r.method).toBe('GET');
    expect(r.headers['user-agent']).toBe(DEVICE_PROFILES.desktop.userAgent);
    expect(r.headers['accept-language']).toBe('en');
  });

  it('language + country: setlang and mkt=<lang>-<CC>, the same locale in Accept-Language', () => {
    const { r, params } = build({ query: 'q', page: 1, setLang: 'de', cc: 'at' });
    expect(params).toEqual({ q: 'q', setlang: 'de', mkt: 'de-AT' });
    expect(r.headers['accept-language']).toBe('de-AT,de;q=0.9,en;q=0.8');
  });

  it('a language tag with a region (pt-BR) names the market when cc is absent', () => {
    const { r, params } = build({ query: 'q', page: 1, setLang: 'pt-BR' });
    expect(params).toEqual({ q: 'q', setlang: 'pt', mkt: 'pt-BR' });
    expect(r.headers['accept-language']).toBe('pt-BR,pt;q=0.9,en;q=0.8');
  });

  it('country alone: cc, and Accept-Language in the country\'s main language', () => {
    const { r, params } = build({ query: 'q', page: 1, cc: 'fr' });
    expect(params).toEqual({ q: 'q', cc: 'FR' });
    expect(r.headers['accept-language']).toBe('fr-FR,fr;q=0.9,en;q=0.8');
  });

  it('paging: first=(page-1)*count+1, pq, FORM=PERE then PERE<n>; count clamped to 1..50', () => {
    expect(build({ query: 'q', page: 2 }).params).toEqual({ q: 'q', pq: 'q', first: '11', FORM: 'PERE' });
    expect(build({ query: 'q', page: 4 }).params).toMatchObject({ first: '31', FORM: 'PERE2' });
    expect(build({ query: 'q', page: 3, count: 20 }).params).toMatchObject({ count: '20', first: '41' });
    expect(build({ query: 'q', page: 2, count: 500 }).params).toMatchObject({ count: '50', first: '51' });
  });

  it('device: the mobile / tablet profile and its client hints', () => {
    const mobile = build({ query: 'q', page: 1, device: 'mobile' }).r;
    expect(mobile.headers['user-agent']).toBe(DEVICE_PROFILES.mobile.userAgent);
    expect(mobile.headers['sec-ch-ua-mobile']).toBe('?1');
    expect(build({ query: 'q', page: 1, device: 'tablet' }).r.headers['user-agent']).toBe(DEVICE_PROFILES.tablet.userAgent);
  });

  it('freshness: ez1 for a day (and an hour, its finest), ez2 a week, ez3 a month, a year as a range of day numbers', () => {
    const now = Date.UTC(2026, 10, 29, 12);
    const today = Math.floor(now / 86_400_000);
    expect(bingFreshness('qdr:h', now)).toBe('ex1:"ez1"');
    expect(bingFreshness('qdr:d', now)).toBe('ex1:"ez1"');
    expect(bingFreshness('qdr:m', now)).toBe('ex1:"ez3"');
    expect(bingFreshness('qdr:y', now)).toBe(`ex1:"ez5_${today - 365}_${today}"`);
    expect(buildBingWebRequest({ baseUrl: 'http://127.0.0.1:8082/' }, { query: 'q', page: 1, tbs: 'qdr:y' }, now).url).toContain(`filters=ex1%3A%22ez5_${today - 365}_${today}%22`);
  });
});
