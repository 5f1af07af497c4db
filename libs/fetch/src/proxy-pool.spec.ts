import { describe, expect, it } from '@jest/globals';
import { ErrorCode, TrawlError } from '#contracts';
import { StaticProxyPool, proxyFor, redactProxy } from './proxy-pool.js';

const SPEC = 'us=http://user:p%40ss@127.0.0.1:8001|http://127.0.0.1:8002,DE=http://127.0.0.1:8003';

describe('StaticProxyPool', () => {
  it('splits credentials out of the server URL', () => {
    const pool = StaticProxyPool.parse(SPEC);
    expect(pool.next('us')).toEqual({ server: 'http://127.0.0.1:8001', username: 'user', password: 'p@ss', country: 'us' });
  });

  it('rotates round-robin per country, independently', () => {
    const pool = StaticProxyPool.parse(SPEC);
    const servers = [pool.next('us'), pool.next('de'), pool.next('US'), pool.next('us'), pool.next('de')].map((p) => p?.server);
    expect(servers).toEqual([
      'http://127.0.0.1:8001',
      'http://127.0.0.1:8003',
      'http://127.0.0.1:8002',
      'http://127.0.0.1:8001',
      'http://127.0.0.1:8003',
    ]);
  });

  it('returns null for a country without proxies, and lists the configured countries', () => {
    const pool = StaticProxyPool.parse(SPEC);
    expect(pool.next('fr')).toBeNull();
    expect(pool.countries()).toEqual(['de', 'us']);
    expect(pool.servesAnyCountry()).toBe(false);
  });

  it('serves countries without their own proxies from the * entry, labelled with the requested country', () => {
    const pool = StaticProxyPool.parse('de=http://127.0.0.1:8003,*=http://127.0.0.1:9001|http://127.0.0.1:9002');
    expect(pool.next('fr')).toEqual({ server: 'http://127.0.0.1:9001', country: 'fr' });
    expect(pool.next('jp')).toEqual({ server: 'http://127.0.0.1:9002', country: 'jp' });
    expect(pool.next('de')?.server).toBe('http://127.0.0.1:8003');
    expect(pool.countries()).toEqual(['de']);
    expect(pool.servesAnyCountry()).toBe(true);
  });

  it('accepts an empty spec and stray whitespace', () => {
    expect(StaticProxyPool.parse('').next('us')).toBeNull();
    expect(StaticProxyPool.parse(' us = http://127.0.0.1:8001 , ').next('us')?.server).toBe('http://127.0.0.1:8001');
  });

  it('rejects bad entries without echoing credentials', () => {
    const attempts = ['xx=http://secret:hunter2@127.0.0.1:1', 'us=socks9://secret:hunter2@127.0.0.1:1', 'us=::secret:hunter2', 'secret:hunter2'];
    for (const spec of attempts) {
      let message = '';
      try {
        StaticProxyPool.parse(spec);
      } catch (error) {
        message = (error as Error).message;
      }
      expect(message).not.toBe('');
      expect(message).not.toContain('hunter2');
    }
  });
});

describe('proxyFor', () => {
  it('a required country: its proxy, else a clear permanent per-URL error', () => {
    const pool = StaticProxyPool.parse(SPEC);
    expect(proxyFor(pool, 'DE', { required: true })?.server).toBe('http://127.0.0.1:8003');
    let caught: unknown;
    try {
      proxyFor(pool, 'fr', { required: true });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(TrawlError);
    expect((caught as TrawlError).code).toBe(ErrorCode.PROXY_UNAVAILABLE);
    expect((caught as TrawlError).message).toContain('"fr"');
    expect((caught as TrawlError).retryable).toBe(false);
  });

  it('a country that is only a hint, or none: that country, else the `*` entry, else direct', () => {
    const pool = StaticProxyPool.parse('de=http://127.0.0.1:8003');
    expect(proxyFor(pool, 'de')?.server).toBe('http://127.0.0.1:8003');
    expect(proxyFor(pool, 'fr')).toBeNull();
    expect(proxyFor(pool, null)).toBeNull();
    expect(proxyFor(null, 'de', { required: false })).toBeNull();
    const withAny = StaticProxyPool.parse('de=http://127.0.0.1:8003,*=http://127.0.0.1:8009');
    expect(proxyFor(withAny, 'fr', { required: true })?.server).toBe('http://127.0.0.1:8009');
    expect(proxyFor(withAny, null)?.server).toBe('http://127.0.0.1:8009');
  });
});

describe('redactProxy', () => {
  it('never returns credentials', () => {
    expect(redactProxy('http://user:hunter2@127.0.0.1:8001')).toBe('http://***@127.0.0.1:8001');
    expect(redactProxy('http://hunter2@proxy.internal:3128')).toBe('http://***@proxy.internal:3128');
    expect(redactProxy('http://127.0.0.1:8001')).toBe('http://127.0.0.1:8001');
    expect(redactProxy('not a url with hunter2')).not.toContain('hunter2');
  });
});
