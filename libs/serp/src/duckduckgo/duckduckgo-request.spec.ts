import { describe, expect, it } from '@jest/globals';
import { DEVICE_PROFILES } from '#contracts';
import { buildDuckDuckGoWebRequest, duckDuckGoRegion } from './duckduckgo-request.js';

const base = { baseUrl: 'http://127.0.0.1:8083/' };
const params = (url: string) => Object.fromEntries(new URL(url).searchParams);

describe('DuckDuckGo request builder', () => {
  it('kl: the country\'s region in the asked language where it has one, wt-wt without a country', () => {
    expect(duckDuckGoRegion('DE', 'de')).toBe('de-de');
    expect(duckDuckGoRegion('gb', 'en')).toBe('uk-en');
    expect(duckDuckGoRegion('CH', 'fr')).toBe('ch-fr');
    expect(duckDuckGoRegion('ch', 'en')).toBe('ch-de');
    expect(duckDuckGoRegion('jp', 'ja')).toBe('jp-jp');
    expect(duckDuckGoRegion(undefined, 'de')).toBe('wt-wt');
    expect(duckDuckGoRegion('zz')).toBe('wt-wt');
    expect(params(buildDuckDuckGoWebRequest(base, { query: 'q', page: 1, setLang: 'pt-BR' }).url).kl).toBe('br-pt');
  });

  it('page 1: GET html/ with q, b and kl; Referer and same-origin fetch headers; locale in Accept-Language', () => {
    const r = buildDuckDuckGoWebRequest(base, { query: 'a b', page: 1, setLang: 'fr', cc: 'FR', device: 'mobile', count: 50 });
    expect(new URL(r.url).pathname).toBe('/html/');
    expect(params(r.url)).toEqual({ q: 'a b', b: '', kl: 'fr-fr' });
    expect(r.method).toBe('GET');
    expect(r.headers).toMatchObject({
      referer: 'http://127.0.0.1:8083/', 'sec-fetch-site': 'same-origin', 'user-agent': DEVICE_PROFILES.mobile.userAgent,
      'accept-language': 'fr-FR,fr;q=0.9,en;q=0.8',
    });
  });

  it('page 2+: the previous page\'s next-page form (with its vqd) when given, else derived s/dc', () => {
    const next = { q: 'a b', s: '10', nextParams: '', v: 'l', o: 'json', dc: '11', api: 'd.js', vqd: '4-123', kl: 'us-en' };
    expect(params(buildDuckDuckGoWebRequest(base, { query: 'a b', page: 2, nextParams: next }).url)).toEqual(next);
    expect(params(buildDuckDuckGoWebRequest(base, { query: 'a b', page: 3 }).url)).toEqual({
      q: 'a b', s: '25', nextParams: '', v: 'l', o: 'json', dc: '26', api: 'd.js', kl: 'wt-wt',
    });
  });

  it('form: post sends the same fields as a form body', () => {
    const r = buildDuckDuckGoWebRequest({ ...base, form: 'post' }, { query: 'a&b', page: 1, cc: 'us' });
    expect(r).toMatchObject({ url: 'http://127.0.0.1:8083/html/', method: 'POST', body: 'q=a%26b&b=&kl=us-en' });
    expect(r.headers['content-type']).toBe('application/x-www-form-urlencoded');
  });
});
