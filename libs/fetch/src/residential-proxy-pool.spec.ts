import { describe, expect, it } from '@jest/globals';
import { ResidentialProxyPool } from './residential-proxy-pool.js';

describe('ResidentialProxyPool', () => {
  it('serves configured countries (and every country with * or a template)', () => {
    const pool = new ResidentialProxyPool({ lists: 'us=http://u:p@10.0.0.1:8000|http://10.0.0.2:8000,de=http://10.0.0.3:8000' });
    expect(pool.serves('us')).toBe(true);
    expect(pool.serves('DE')).toBe(true);
    expect(pool.serves('jp')).toBe(false);
    expect(pool.describe()).toBe('de, us');
    expect(new ResidentialProxyPool({ lists: '*=http://10.0.0.9:8000' }).serves('jp')).toBe(true);
    expect(new ResidentialProxyPool({}).describe()).toMatch(/^none/);
  });

  it('moves to another proxy after a block, and rests the blocked one', () => {
    let now = 0;
    const pool = new ResidentialProxyPool({ lists: 'us=http://u:secret@10.0.0.1:8000|http://10.0.0.2:8000', restMs: 1_000, now: () => now });
    const first = pool.lease('us')!;
    expect(first.proxy).toMatchObject({ country: 'us' });
    first.report('blocked');
    const tried = new Set([first.key]);
    const second = pool.lease('us', tried)!;
    expect(second.key).not.toBe(first.key);
    second.report('ok');
    // A new URL (nothing tried yet): the resting proxy is still passed over.
    for (let i = 0; i < 4; i++) expect(pool.lease('us')!.key).toBe(second.key);
    now = 2_000;
    const keys = new Set([pool.lease('us')!.key, pool.lease('us')!.key]);
    expect(keys.size).toBeGreaterThanOrEqual(1);
    expect(pool.snapshot().find((s) => s.label === 'http://10.0.0.1:8000')).toMatchObject({ resting: false });
  });

  it('reports health per country for metrics: mean score and how many rest (the template under *)', () => {
    let now = 0;
    const pool = new ResidentialProxyPool({
      lists: 'us=http://10.0.0.1:8000|http://10.0.0.2:8000,de=http://10.0.0.3:8000',
      template: 'http://u-{country}-{session}:p@proxy.example:7777',
      restMs: 1_000,
      now: () => now,
    });
    pool.lease('us')!.report('failed');
    expect(pool.healthByCountry()).toEqual([
      { country: 'de', configured: 1, health: 1, resting: 0 },
      { country: 'us', configured: 2, health: 0.75, resting: 1 },
      { country: '*', configured: 1, health: 1, resting: 0 },
    ]);
    now = 2_000;
    expect(pool.healthByCountry()[1]).toMatchObject({ resting: 0, health: 0.75 });
  });

  it('fills a provider template with the country and a fresh session per attempt; labels carry no credentials', () => {
    const pool = new ResidentialProxyPool({ template: 'http://user-country-{country}-session-{session}:pa%40ss@proxy.example:7777' });
    const a = pool.lease('DE')!;
    const b = pool.lease('de')!;
    expect(a.proxy.server).toBe('http://proxy.example:7777');
    expect(a.proxy.username).toMatch(/^user-country-de-session-[0-9a-f]{12}$/);
    expect(a.proxy.password).toBe('pa@ss');
    expect(a.proxy.username).not.toBe(b.proxy.username);
    expect(a.label).not.toContain('user');
    expect(() => new ResidentialProxyPool({ template: 'http://user:pass@host:1' })).toThrow(/\{session\}/);
  });
});
