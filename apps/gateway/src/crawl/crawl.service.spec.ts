/** /crawl with fake repositories: which engine's queue, what each result carries, what is charged. */
import { describe, expect, it } from '@jest/globals';
import { ErrorCode, QueueName, TrawlError, type CrawlPagePayload } from '#contracts';
import { fakeDispatcher, fakeLifecycle, noLlm, noPageCache, principal, testConfig } from '../testing/fakes.js';
import { CrawlService } from './crawl.service.js';

const ok = (p: CrawlPagePayload) => ({
  ok: true as const,
  result: { ok: true as const, url: p.url, finalUrl: p.url, status_code: 200, markdown: '# Hi', metadata: { title: 'Hi' } },
});

describe('CrawlService', () => {
  it('sends plain crawls to the http engine and charges 1 per successful URL, 0 per failure', async () => {
    const { lifecycle, settled } = fakeLifecycle();
    const { dispatcher, jobs } = fakeDispatcher((_q, p: CrawlPagePayload) =>
      p.url.includes('bad') ? { ok: true, result: { ok: false, url: p.url, error: { code: 'DNS_FAILED', message: 'no such host', kind: 'permanent' } } } : ok(p),
    );
    const service = new CrawlService(lifecycle, dispatcher, testConfig(), noLlm(), noPageCache());
    const body = await service.crawl(principal, service.parse({ urls: 'https://a.example/,https://bad.example/' }));
    expect(jobs.map((j) => j.queue)).toEqual([QueueName.http, QueueName.http]);
    expect(body.results).toEqual([
      { url: 'https://a.example/', status_code: 200, markdown: '# Hi', metadata: { title: 'Hi' } },
      { url: 'https://bad.example/', error: 'DNS_FAILED: no such host' },
    ]);
    expect(body).toMatchObject({ credits: 1, successful_pages: 1 });
    expect(settled).toEqual([{ callId: expect.any(String), reserved: 2, charged: 1 }]);
  });

  it('sends rendered crawls and screenshots to the chromium engine at 10 credits per URL', async () => {
    const { lifecycle, settled } = fakeLifecycle();
    const { dispatcher, jobs } = fakeDispatcher((_q, p) => ok(p));
    const service = new CrawlService(lifecycle, dispatcher, testConfig(), noLlm(), noPageCache());
    await service.crawl(principal, service.parse({ urls: 'https://a.example/', render_js: 'true', screenshot: 'true', screenshot_full_page: 'true' }));
    expect(jobs[0].queue).toBe(QueueName.render);
    expect(jobs[0].payload).toMatchObject({ screenshot: true, screenshotFullPage: true });
    expect(settled[0]).toMatchObject({ reserved: 10, charged: 10 });
  });

  it('ignores screenshot without render_js (spec §4.4), and screenshot_full_page alone asks for no screenshot', async () => {
    const { lifecycle, settled } = fakeLifecycle();
    const { dispatcher, jobs } = fakeDispatcher((_q, p) => ok(p));
    const service = new CrawlService(lifecycle, dispatcher, testConfig(), noLlm(), noPageCache());
    await service.crawl(principal, service.parse({ urls: 'https://a.example/', screenshot: 'true', screenshot_full_page: 'true' }));
    await service.crawl(principal, service.parse({ urls: 'https://a.example/', render_js: 'true', screenshot_full_page: 'true' }));
    expect(jobs.map((j) => j.queue)).toEqual([QueueName.http, QueueName.render]);
    expect(jobs.map((j) => j.payload)).toEqual([expect.objectContaining({ screenshot: false }), expect.objectContaining({ screenshot: false })]);
    expect(settled.map((s) => s.charged)).toEqual([1, 10]);
  });

  it('a job that timed out at the deadline is a per-URL error that costs nothing', async () => {
    const { lifecycle, settled } = fakeLifecycle();
    const { dispatcher } = fakeDispatcher(() => ({ ok: false, error: new TrawlError(ErrorCode.TIMEOUT, 'deadline passed', 'transient') }));
    const service = new CrawlService(lifecycle, dispatcher, testConfig(), noLlm(), noPageCache());
    const body = await service.crawl(principal, service.parse({ urls: 'https://a.example/' }));
    expect(body.results[0].error).toBe('TIMEOUT: deadline passed');
    expect(settled[0].charged).toBe(0);
  });

  it('refuses max_age with a 400 naming it when the page cache is off, before anything is reserved', async () => {
    const { lifecycle, settled } = fakeLifecycle();
    const { dispatcher, jobs } = fakeDispatcher((_q, p) => ok(p));
    const service = new CrawlService(lifecycle, dispatcher, testConfig({ PAGE_CACHE_MAX_BYTES: '0' }), noLlm(), noPageCache());
    const params = service.parse({ urls: 'https://a.example/', max_age: '60' });
    await expect(service.crawl(principal, params)).rejects.toMatchObject({ code: ErrorCode.INVALID_PARAMETER, message: expect.stringContaining('max_age') });
    expect(jobs).toEqual([]);
    expect(settled).toEqual([]);
  });
});
