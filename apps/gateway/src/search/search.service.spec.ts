/** /search with fake repositories: pagination and early stop, costs per case, toggles, auto-crawl outcomes, geolocation. */
import { describe, expect, it } from '@jest/globals';
import { ErrorCode, JobName, QueueName, type TrawlError, httpStatusOf, type WebSearchPayload, type WebSearchJobResult } from '#contracts';
import type { JobDispatcher } from '#queue';
import { fakeDispatcher, fakeLifecycle, principal, testConfig } from '../testing/fakes.js';
import { SearchService } from './search.service.js';

const result = (n: number, links = 2) => ({ title: `Coffee ${n}`, link: `https://site${n}.example/${links}`, date: null, snippet: 'coffee', source: `site${n}.example` });

/** A page object with every block, `hasNext` until page `last`. */
function page(n: number, last: number): WebSearchJobResult {
  return {
    ok: true,
    attempts: 1,
    page: {
      total_results: 'About 1,000 results',
      search_results: [result(n * 10 + 1), result(n * 10 + 2)],
      related_queries: ['coffee beans'],
      ai_answer: { answer: 'Coffee is a drink.', sources: [] },
      questions_answers: [{ question: 'Is coffee healthy?' }],
      sidebar: { title: 'Coffee', type: 'Drink', description: 'A brewed drink', attributes: {} },
      direct_answer: { answer: 'A drink' },
    },
    pagination: { offset: (n - 1) * 10, hasNext: n < last, nextParams: { s: String(n * 10) } },
  };
}

function service(answer: Parameters<typeof fakeDispatcher>[0], env: Record<string, string> = {}) {
  const { lifecycle, settled, refunded } = fakeLifecycle();
  const { dispatcher, jobs } = fakeDispatcher(answer);
  const svc = new SearchService(lifecycle, dispatcher, testConfig(env));
  return { svc, settled, refunded, jobs };
}

const serpPages = (last: number) => (_q: QueueName, p: any) =>
  ({ ok: true, result: 'params' in p ? page((p as WebSearchPayload).params.page, last) : { ok: false, url: p.url, error: { code: 'X', message: 'x', kind: 'permanent' } } }) as never;

describe('SearchService', () => {
  it('fetches one Bing page over the http engine with every block; 10 credits', async () => {
    const { svc, settled, jobs } = service(serpPages(5));
    const body = await svc.search(principal, svc.parse({ query: 'coffee', setLang: 'de', cc: 'de', device: 'mobile', count: '20' }));
    expect(jobs).toHaveLength(1);
    expect(jobs[0]).toMatchObject({ queue: QueueName.http, name: JobName.serpWeb });
    expect((jobs[0].payload as WebSearchPayload).params).toEqual({ query: 'coffee', page: 1, device: 'mobile', setLang: 'de', cc: 'DE', count: 20 });
    expect(body).toMatchObject({ query: 'coffee', pages_fetched: 1, credits: 10 });
    expect(Object.keys(body.pages)).toEqual(['1']);
    expect(Object.keys(body.pages['1'])).toEqual(['total_results', 'search_results', 'related_queries', 'ai_answer', 'questions_answers', 'sidebar', 'direct_answer']);
    expect(body.pages['1']).not.toHaveProperty('page_content');
    expect(settled).toEqual([expect.objectContaining({ reserved: 10, charged: 10 })]);
  });

  it('stops when a page has no next page, passing the previous page along; charges only pages fetched', async () => {
    const { svc, settled, jobs } = service(serpPages(2));
    const body = await svc.search(principal, svc.parse({ query: 'coffee', max_pages: '5' }));
    expect(jobs.map((j) => (j.payload as WebSearchPayload).params.page)).toEqual([1, 2]);
    const second = jobs[1].payload as WebSearchPayload;
    expect(second.params.nextParams).toEqual({ s: '10' });
    expect(second.previousLinks).toEqual([result(11).link, result(12).link]);
    expect(body).toMatchObject({ pages_fetched: 2, credits: 20 });
    expect(Object.keys(body.pages)).toEqual(['1', '2']);
    expect(settled[0]).toMatchObject({ reserved: 50, charged: 20 });
  });

  it('removes each block whose toggle is false', async () => {
    const { svc } = service(serpPages(1));
    const body = await svc.search(principal, svc.parse({
      query: 'coffee', ai_answer: 'false', questions_answers: 'false', related_queries: 'false', sidebar: 'false', direct_answer: 'false',
    }));
    expect(Object.keys(body.pages['1'])).toEqual(['total_results', 'search_results']);
  });

  it('fails the call when page 1 is blocked: UPSTREAM_BLOCKED, refunded, nothing charged', async () => {
    const { svc, settled, refunded } = service(() => ({ ok: true, result: { ok: false, error: { code: ErrorCode.UPSTREAM_BLOCKED, message: 'captcha', kind: 'blocked' } } }) as never);
    await expect(svc.search(principal, svc.parse({ query: 'coffee', max_pages: '3' }))).rejects.toMatchObject({ code: ErrorCode.UPSTREAM_BLOCKED });
    expect(refunded).toHaveLength(1);
    expect(settled).toEqual([]);
  });

  it('returns the pages before a blocked later page, reports it in page_errors and charges 0 for it', async () => {
    const { svc, settled } = service((_q, p: WebSearchPayload) =>
      ({ ok: true, result: p.params.page === 2 ? { ok: false, error: { code: ErrorCode.UPSTREAM_BLOCKED, message: 'page 1 again', kind: 'blocked' } } : page(1, 9) }) as never);
    const body = await svc.search(principal, svc.parse({ query: 'coffee', max_pages: '3' }));
    expect(body).toMatchObject({ pages_fetched: 1, credits: 10, page_errors: { '2': 'UPSTREAM_BLOCKED: page 1 again' } });
    expect(settled[0]).toMatchObject({ reserved: 30, charged: 10 });
  });

  it('puts the result page itself in page_content when a format is asked without auto-crawling', async () => {
    const { svc, jobs } = service(() => ({ ok: true, result: { ...page(1, 1), content: { markdown: '# Coffee', raw_html: '<html>' } } }) as never);
    const body = await svc.search(principal, svc.parse({ query: 'coffee', markdown: 'true', raw_html: 'true' }));
    expect((jobs[0].payload as WebSearchPayload).formats).toEqual({ raw_html: true, enhanced_html: false, markdown: true, page_text: false });
    expect(body.pages['1'].page_content).toEqual({ page_markdown: '# Coffee', raw_html: '<html>' });
  });

  it('auto-crawls every result: content for the ones that load, error for the one that fails, 1 credit per success', async () => {
    const { svc, settled, jobs } = service((queue, p) => {
      if (p.params) return { ok: true, result: page(1, 1) } as never;
      return (p.url === result(11).link
        ? { ok: true, result: { ok: true, url: p.url, finalUrl: p.url, status_code: 200, markdown: '# One', metadata: { title: 'One' } } }
        : { ok: true, result: { ok: false, url: p.url, status_code: 404, error: { code: 'UNSUPPORTED_CONTENT', message: 'not html', kind: 'permanent' } } }) as never;
    }, { PROXIES: 'de=http://127.0.0.1:1' });
    const body = await svc.search(principal, svc.parse({ query: 'coffee', auto_crawling: 'true', markdown: 'true', geolocation: 'de' }));
    const crawls = jobs.filter((j) => j.name === JobName.crawlPage);
    expect(crawls.map((j) => j.queue)).toEqual([QueueName.http, QueueName.http]);
    expect(crawls[0].payload).toMatchObject({ url: result(11).link, formats: { markdown: true, enhanced_html: false }, geolocation: 'de' });
    const [ok, failed] = body.pages['1'].search_results;
    expect(ok).toMatchObject({ page_content: { page_markdown: '# One' }, metadata: { title: 'One' }, status_code: 200 });
    expect(ok).not.toHaveProperty('error');
    expect(failed).toMatchObject({ error: 'UNSUPPORTED_CONTENT: not html', status_code: 404 });
    expect(failed).not.toHaveProperty('page_content');
    expect(body.credits).toBe(11);
    expect(settled[0]).toMatchObject({ reserved: 60, charged: 11 });
  }, 10_000);

  it('crawls page 1 results while the next page is fetched, and charges every page and successful crawl', async () => {
    const { svc, jobs, settled } = service((_q, p) =>
      (p.params ? { ok: true, result: page(p.params.page, 2) } : { ok: true, result: { ok: true, url: p.url, finalUrl: p.url, status_code: 200, metadata: {} } }) as never);
    const body = await svc.search(principal, svc.parse({ query: 'coffee', max_pages: '2', auto_crawling: 'true' }));
    expect(jobs.map((j) => (j.name === JobName.serpWeb ? `page ${(j.payload as WebSearchPayload).params.page}` : 'crawl'))).toEqual(['page 1', 'crawl', 'crawl', 'page 2', 'crawl', 'crawl']);
    expect(body.pages['2'].search_results[0]).toMatchObject({ metadata: {}, status_code: 200 });
    expect(body.pages['2'].search_results[0]).not.toHaveProperty('page_content.page_markdown');
    expect(settled[0]).toMatchObject({ reserved: 2 * 60, charged: 2 * 10 + 4 });
  });

  it('keeps at most SEARCH_CRAWL_CONCURRENCY crawls in flight', async () => {
    const { lifecycle } = fakeLifecycle();
    let inFlight = 0;
    let most = 0;
    const tenResults: WebSearchJobResult = { ok: true, attempts: 1, page: { total_results: '', related_queries: [], search_results: Array.from({ length: 10 }, (_, i) => result(i)) }, pagination: { offset: 0, hasNext: false } };
    const dispatcher = {
      runAll: async (_queue: QueueName, name: JobName, payloads: Array<{ url: string }>) => {
        if (name === JobName.serpWeb) return [{ ok: true, result: tenResults }];
        most = Math.max(most, ++inFlight);
        await new Promise((resolve) => setImmediate(resolve));
        inFlight--;
        return [{ ok: true, result: { ok: true, url: payloads[0].url, finalUrl: payloads[0].url, status_code: 200, metadata: {} } }];
      },
    } as unknown as JobDispatcher;
    const svc = new SearchService(lifecycle, dispatcher, testConfig({ SEARCH_CRAWL_CONCURRENCY: '3' }));
    const body = await svc.search(principal, svc.parse({ query: 'coffee', auto_crawling: 'true' }));
    expect(most).toBe(3);
    expect(body.credits).toBe(10 + 10);
  });

  it('picks geolocation=random among the proxy countries; a named country no proxy serves is PROXY_UNAVAILABLE (500, 0 credits)', async () => {
    const env = { PROXIES: 'de=http://127.0.0.1:1,fr=http://127.0.0.1:2' };
    const { svc, jobs } = service(serpPages(1), env);
    for (let i = 0; i < 6; i++) {
      const body = await svc.search(principal, svc.parse({ query: 'coffee', geolocation: 'random' }));
      expect(body.egress).toEqual({ via: 'proxy', country: (jobs.at(-1)!.payload as WebSearchPayload).proxyCountry });
    }
    for (const j of jobs) expect(['de', 'fr']).toContain((j.payload as WebSearchPayload).proxyCountry);
    const before = jobs.length;
    const error = (await svc.search(principal, svc.parse({ query: 'coffee', geolocation: 'jp' })).catch((e: unknown) => e)) as TrawlError;
    expect(error).toMatchObject({ code: ErrorCode.PROXY_UNAVAILABLE, message: expect.stringMatching(/^No proxy serves country "jp" on this server \(configured: de, fr\)/) });
    expect(httpStatusOf(error.code)).toBe(500);
    expect(jobs.length).toBe(before);
  });

  it('geolocation=random with no proxy of a named country takes the usual route (direct on a fresh install) and says so', async () => {
    const bare = service(serpPages(1));
    const body = await bare.svc.search(principal, bare.svc.parse({ query: 'coffee', geolocation: 'random' }));
    expect(body).toMatchObject({ pages_fetched: 1, credits: 10, egress: { via: 'direct' } });
    expect(bare.jobs[0].payload).not.toHaveProperty('proxyCountry');
    const star = service(serpPages(1), { PROXIES: '*=http://127.0.0.1:1' });
    expect((await star.svc.search(principal, star.svc.parse({ query: 'coffee', geolocation: 'random', cc: 'GB' }))).egress).toEqual({ via: 'proxy', country: 'gb' });
  });

  it.each([
    [{}, /^query is required/],
    [{ query: ' ' }, /^query is required/],
    [{ query: 'a', max_pages: '11' }, /^max_pages/],
    [{ query: 'a', max_pages: '0' }, /^max_pages/],
    [{ query: 'a', device: 'watch' }, /^device/],
    [{ query: 'a', cc: 'zz' }, /^cc/],
    [{ query: 'a', setLang: 'english!' }, /^setLang/],
    [{ query: 'a', geolocation: 'mars' }, /^geolocation/],
    [{ query: 'a', markdown: 'yes' }, /^markdown/],
    [{ query: 'a', count: '51' }, /^count/],
  ])('400 naming the parameter for %j', (query, message) => {
    const { svc } = service(serpPages(1));
    expect(() => svc.parse(query)).toThrow(expect.objectContaining({ code: ErrorCode.INVALID_PARAMETER, message: expect.stringMatching(message) }));
  });
});
