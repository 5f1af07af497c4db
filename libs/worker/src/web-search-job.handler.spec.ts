/** The serp.web handler over a fake engine: proxy rotation on hard and soft failures, never results from a failed page. */
import { describe, expect, it } from '@jest/globals';
import { ErrorCode, type WebSearchPayload } from '#contracts';
import type { ExtractionPool } from '#extraction';
import { StaticProxyPool } from '#fetch';
import { createSearchProviders } from '#serp';
import { bingPage, BING_CHALLENGE } from '#bench/support/bing-fixture.js';
import type { PageEngine, PageRequest } from './page-engine.js';
import { WebSearchJobHandler } from './web-search-job.handler.js';

const results = (from: number) =>
  Array.from({ length: 10 }, (_, i) => ({ title: `Coffee ${from + i}`, link: `https://c${from + i}.example/`, snippet: 'coffee' }));

function handler(pages: string[], proxies = '*=http://127.0.0.1:1|http://127.0.0.1:2') {
  const requests: PageRequest[] = [];
  const engine = {
    row: {} as PageEngine['row'],
    close: async () => undefined,
    fetchPage: async (r: PageRequest) => {
      requests.push(r);
      return { finalUrl: r.url, status: 200, html: pages[Math.min(requests.length - 1, pages.length - 1)] };
    },
  } satisfies PageEngine;
  const extraction = { format: async () => ({ markdown: '# page', metadata: {} }) } as unknown as ExtractionPool;
  const engines = createSearchProviders({ googleBaseUrl: 'http://g/', bingBaseUrl: 'http://b/', duckduckgoBaseUrl: 'http://d/', duckduckgoForm: 'post' });
  return { h: new WebSearchJobHandler(engines, engine, StaticProxyPool.parse(proxies), extraction, 3), requests };
}

const payload = (over: Partial<WebSearchPayload['params']> = {}, rest: Partial<WebSearchPayload> = {}): WebSearchPayload =>
  ({ callId: 'c', provider: 'bing', params: { query: 'coffee', page: 1, device: 'desktop', ...over }, timeoutMs: 5_000, ...rest });

describe('WebSearchJobHandler', () => {
  it('retries a 200 challenge through the next proxy and returns the page it then gets', async () => {
    const { h, requests } = handler([BING_CHALLENGE, bingPage({ query: 'coffee', offset: 0, hasNext: true, results: results(1) })]);
    const out = await h.handle(payload());
    expect(out).toMatchObject({ ok: true, attempts: 2, pagination: { offset: 0, hasNext: true } });
    expect(requests.map((r) => r.proxy?.server)).toEqual(['http://127.0.0.1:1', 'http://127.0.0.1:2']);
  });

  it('fails page 2 that prints page 1 on every attempt as UPSTREAM_BLOCKED, never as results', async () => {
    const { h, requests } = handler([bingPage({ query: 'coffee', offset: 0, hasNext: true, results: results(1) })]);
    const out = await h.handle(payload({ page: 2 }));
    expect(out).toEqual({ ok: false, error: expect.objectContaining({ code: ErrorCode.UPSTREAM_BLOCKED, message: expect.stringMatching(/page 1 again/) }) });
    expect(requests).toHaveLength(3);
    expect(requests[0].url).toMatch(/first=11/);
  });

  it('fails a page whose results share no term with the query', async () => {
    const { h } = handler([bingPage({ query: 'x', offset: 0, hasNext: false, results: [{ title: 'Weather', link: 'https://w.example/', snippet: 'Sunny' }] })]);
    expect(await h.handle(payload())).toMatchObject({ ok: false, error: { code: ErrorCode.UPSTREAM_BLOCKED } });
  });

  it('fetches through proxies of the asked-for country only, and fails without one', async () => {
    const { h, requests } = handler([bingPage({ query: 'coffee', offset: 0, hasNext: false, results: results(1) })], 'de=http://127.0.0.1:7');
    expect(await h.handle(payload({}, { proxyCountry: 'de' }))).toMatchObject({ ok: true });
    expect(requests[0].proxy).toMatchObject({ server: 'http://127.0.0.1:7', country: 'de' });
    expect(await h.handle(payload({}, { proxyCountry: 'fr' }))).toMatchObject({ ok: false, error: { code: ErrorCode.UPSTREAM_FAILED } });
  });

  it('posts DuckDuckGo its form, and formats the result page when asked', async () => {
    const ddg = '<div id="links"><div class="result web-result"><h2><a class="result__a" href="https://d.example/coffee">Coffee</a></h2><a class="result__snippet">coffee</a></div></div>';
    const { h, requests } = handler([ddg]);
    const out = await h.handle(payload({}, { provider: 'duckduckgo', formats: { raw_html: false, enhanced_html: false, markdown: true, page_text: false } }));
    expect(out).toMatchObject({ ok: true, content: { markdown: '# page' } });
    expect(requests[0]).toMatchObject({ method: 'POST', body: 'q=coffee&b=&kl=wt-wt', target: 'upstream' });
  });
});
