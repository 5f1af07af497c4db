/** /headful-browser with fake repositories: queue choice, charges, credits_remaining and the unavailable cases. */
import { describe, expect, it } from '@jest/globals';
import { ErrorCode, QueueName, TrawlError, httpStatusOf, type HeadfulPagePayload } from '#contracts';
import { fakeDispatcher, fakeLifecycle, principal, testConfig } from '../testing/fakes.js';
import { HeadfulBrowserService, type HeadfulPorts } from './headful-browser.service.js';

function ports(overrides: Partial<HeadfulPorts> = {}): HeadfulPorts {
  return {
    workers: { seen: async () => 1 },
    balances: { balance: async () => 9_950 },
    links: { urlFor: (k: string, origin: string) => `${origin}/screenshots/${k}?expires=1&signature=ab` },
    coverage: { serves: (c) => c === 'us' || c === 'de', describe: () => 'de, us' },
    ...overrides,
  };
}

const ok = (p: HeadfulPagePayload) => ({
  ok: true as const,
  result: { ok: true as const, url: p.url, finalUrl: p.url, status_code: 200, content: `${p.format} of ${p.url}`, attempts: 1, screenshotKey: 'k.png' },
});

describe('HeadfulBrowserService', () => {
  it('queues on trawl-headful, returns the one format and a signed link, charges 50 per success and 0 per blocked URL', async () => {
    const { lifecycle, settled } = fakeLifecycle();
    const { dispatcher, jobs } = fakeDispatcher((_q, p: HeadfulPagePayload) =>
      p.url.includes('wall')
        ? { ok: true, result: { ok: false, url: p.url, blocked: true, attempts: 3, error: { code: 'UPSTREAM_BLOCKED', message: 'blocked', kind: 'blocked' } } }
        : ok(p),
    );
    const service = new HeadfulBrowserService(lifecycle, dispatcher, testConfig(), ports());
    const body = await service.run(principal, service.parse({ urls: 'https://a.example/,https://wall.example/', output_format: 'page_text', screenshot: 'true' }), 'http://gw');
    expect(jobs.map((j) => j.queue)).toEqual([QueueName.headful, QueueName.headful]);
    expect(jobs[0].payload).toMatchObject({ country: 'us', format: 'page_text', screenshot: true });
    expect(body).toEqual({
      status: 'success',
      data: [
        {
          url: 'https://a.example/',
          page_text: 'page_text of https://a.example/',
          screenshot: 'http://gw/screenshots/k.png?expires=1&signature=ab',
          blocked: false,
          egress: { via: 'proxy', country: 'us' },
        },
        { url: 'https://wall.example/', blocked: true, error: 'UPSTREAM_BLOCKED: blocked', egress: { via: 'proxy', country: 'us' } },
      ],
      credits_used: 50,
      credits_remaining: 9_950,
    });
    expect(settled).toEqual([{ callId: expect.any(String), reserved: 100, charged: 50 }]);
  });

  it('no headful worker alive: HEADFUL_UNAVAILABLE (HTTP 500), nothing queued, reservation refunded', async () => {
    const { lifecycle, settled, refunded } = fakeLifecycle();
    const { dispatcher, jobs } = fakeDispatcher((_q, p: HeadfulPagePayload) => ok(p));
    const service = new HeadfulBrowserService(lifecycle, dispatcher, testConfig(), ports({ workers: { seen: async () => 0 } }));
    const error = await service.run(principal, service.parse({ urls: 'https://a.example/' })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TrawlError);
    expect((error as TrawlError).code).toBe(ErrorCode.HEADFUL_UNAVAILABLE);
    expect((error as TrawlError).message).toMatch(/no headful worker is running/);
    expect(jobs).toHaveLength(0);
    expect(settled).toHaveLength(0);
    expect(refunded).toHaveLength(1);
  });

  it('a browser that cannot start for every URL is HEADFUL_UNAVAILABLE, not a page of per-URL errors', async () => {
    const { lifecycle, refunded } = fakeLifecycle();
    const down = { code: ErrorCode.HEADFUL_UNAVAILABLE, message: 'Xvfb could not start', kind: 'permanent' as const };
    const { dispatcher } = fakeDispatcher((_q, p: HeadfulPagePayload) => ({ ok: true, result: { ok: false, url: p.url, blocked: false, attempts: 1, error: down } }));
    const service = new HeadfulBrowserService(lifecycle, dispatcher, testConfig(), ports());
    const error = (await service.run(principal, service.parse({ urls: 'https://a.example/' })).catch((e: unknown) => e)) as TrawlError;
    expect(error.code).toBe(ErrorCode.HEADFUL_UNAVAILABLE);
    expect(refunded).toHaveLength(1);
  });

  it('validates country and output_format strictly; which countries are served is not a parameter question', () => {
    const service = new HeadfulBrowserService(fakeLifecycle().lifecycle, fakeDispatcher((_q, p: HeadfulPagePayload) => ok(p)).dispatcher, testConfig(), ports());
    expect(service.parse({ urls: 'https://a.example/' })).toEqual({ urls: ['https://a.example/'], country: 'us', countryNamed: false, output_format: 'markdown', screenshot: false });
    expect(service.parse({ urls: 'https://a.example/', country: 'DE' })).toMatchObject({ country: 'de', countryNamed: true });
    expect(service.parse({ urls: 'https://a.example/', country: 'fr' })).toMatchObject({ country: 'fr', countryNamed: true });
    expect(() => service.parse({ urls: 'https://a.example/', country: 'xx' })).toThrow(/^country must be an ISO 3166-1 alpha-2/);
    expect(() => service.parse({ urls: 'https://a.example/', output_format: 'MARKDOWN' })).toThrow(/^output_format must be exactly one of/);
  });

  it('no proxy serves the default country: the job goes direct, and the results and the request log say so', async () => {
    const { lifecycle, settled, details } = fakeLifecycle();
    const { dispatcher, jobs } = fakeDispatcher((_q, p: HeadfulPagePayload) => ok(p));
    const none = { serves: () => false, describe: () => 'none' };
    const service = new HeadfulBrowserService(lifecycle, dispatcher, testConfig(), ports({ coverage: none }));
    const body = await service.run(principal, service.parse({ urls: 'https://a.example/' }));
    expect(jobs[0].payload).toMatchObject({ country: 'us', direct: true });
    expect(body.data[0]).toMatchObject({ blocked: false, egress: { via: 'direct' } });
    expect(body.credits_used).toBe(50);
    expect(settled[0]).toMatchObject({ charged: 50 });
    expect(details[0]).toMatchObject({ egress: { via: 'direct' } });
  });

  it('a named country no proxy serves: 500 PROXY_UNAVAILABLE, nothing queued, reservation refunded', async () => {
    const { lifecycle, settled, refunded } = fakeLifecycle();
    const { dispatcher, jobs } = fakeDispatcher((_q, p: HeadfulPagePayload) => ok(p));
    const service = new HeadfulBrowserService(lifecycle, dispatcher, testConfig(), ports());
    for (const country of ['fr', 'us']) {
      const coverage = { serves: (c: string) => c === 'de', describe: () => 'de' };
      const svc = country === 'fr' ? service : new HeadfulBrowserService(lifecycle, dispatcher, testConfig(), ports({ coverage }));
      const error = (await svc.run(principal, svc.parse({ urls: 'https://a.example/', country })).catch((e: unknown) => e)) as TrawlError;
      expect(error.code).toBe(ErrorCode.PROXY_UNAVAILABLE);
      expect(httpStatusOf(error.code)).toBe(500);
      expect(error.message).toMatch(new RegExp(`^No residential proxy serves country "${country}" on this server \\(configured: de`));
    }
    expect(jobs).toHaveLength(0);
    expect(settled).toHaveLength(0);
    expect(refunded).toHaveLength(2);
  });
});
