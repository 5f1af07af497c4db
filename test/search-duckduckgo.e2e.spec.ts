/**
 * `/search` with SEARCH_ENGINE=duckduckgo end to end: the HTML endpoint gets its form as a POST (as a browser and
 * SearXNG send it), and page 2 repeats page 1's next-page form with its `vqd` token — a page-2 request without it is
 * a bot signal to DuckDuckGo. A fixture DuckDuckGo on 127.0.0.1 serves HTML-endpoint markup.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startFixtureServer, type FixtureServer } from './support/fixture-server.js';
import { key, startHarness, type Harness } from './support/harness.js';

let trawl: Harness;
let upstream: FixtureServer;
const posts: Array<{ method: string; contentType: string; form: URLSearchParams }> = [];

const results = (from: number) =>
  Array.from({ length: 10 }, (_, i) => `<div class="result results_links web-result"><div class="links_main result__body">
    <h2 class="result__title"><a class="result__a" href="https://ducks.example/duck/${from + i}">Duck fact ${from + i}</a></h2>
    <a class="result__snippet" href="https://ducks.example/duck/${from + i}">Ducks are birds, fact ${from + i}.</a></div></div>`).join('\n');

const form = (label: string, fields: Record<string, string>) =>
  `<div class="nav-link"><form action="/html/" method="post"><input type="submit" class="btn btn--alt" value="${label}">`
  + Object.entries(fields).map(([k, v]) => `<input type="hidden" name="${k}" value="${v}">`).join('') + '</form></div>';

function ddgPage(page: number): string {
  const nav = page === 1
    ? form('Next', { q: 'ducks', s: '10', nextParams: '', v: 'l', o: 'json', dc: '11', api: 'd.js', vqd: '4-123456789', kl: 'wt-wt' })
    : form('Previous', { q: 'ducks', s: '0', nextParams: '', v: 'l', o: 'json', dc: '-9', api: 'd.js', vqd: '4-123456789', kl: 'wt-wt' });
  return `<!DOCTYPE html><html><head><title>ducks at DuckDuckGo</title></head><body><div id="links" class="results">
${results((page - 1) * 10 + 1)}${nav}</div></body></html>`;
}

describe('GET /search on DuckDuckGo', () => {
  beforeAll(async () => {
    upstream = await startFixtureServer({
      '/html/': async (req, res) => {
        let raw = '';
        for await (const chunk of req) raw += String(chunk);
        const form = new URLSearchParams(raw);
        posts.push({ method: req.method ?? '', contentType: String(req.headers['content-type']), form });
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(ddgPage(form.get('vqd') ? 2 : 1));
      },
    });
    trawl = await startHarness({ SEARCH_ENGINE: 'duckduckgo', DUCKDUCKGO_BASE_URL: upstream.url });
  });

  afterAll(async () => {
    await trawl?.close();
    await upstream?.close();
  });

  it('posts the form, carries the vqd token to page 2, and stops at the last page: 20 credits', async () => {
    const account = await trawl.createAccount();
    const res = await trawl.get('/search?query=ducks&max_pages=3&cc=de', key(account.apiKey));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ query: 'ducks', pages_fetched: 2, credits: 20 });
    expect(res.body.pages['1'].search_results[0]).toMatchObject({ title: 'Duck fact 1', link: 'https://ducks.example/duck/1', source: 'ducks.example' });
    expect(res.body.pages['2'].search_results[0].title).toBe('Duck fact 11');
    expect(posts.map((p) => p.method)).toEqual(['POST', 'POST']);
    expect(posts[0].contentType).toBe('application/x-www-form-urlencoded');
    expect(Object.fromEntries(posts[0].form)).toEqual({ q: 'ducks', b: '', kl: 'de-de' });
    expect(posts[1].form.get('vqd')).toBe('4-123456789');
    expect(posts[1].form.get('s')).toBe('10');
    expect((await trawl.admin.report(account.accountId)).account.balance).toBe(10_000 - 20);
  });
});
