/**
 * `/search` end to end: the real gateway and workers, Postgres and Redis, against a fixture Bing on 127.0.0.1 that
 * serves Bing-markup result pages (bench/support/bing-fixture.ts) whose links point at a loopback fixture site, and two
 * recording proxies for `geolocation`.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { bingPage, BING_CHALLENGE, type FixtureResult } from '#bench/support/bing-fixture.js';
import { ARTICLE, startFixtureServer, type FixtureServer } from './support/fixture-server.js';
import { key, startHarness, type Harness } from './support/harness.js';
import { startRecordingProxy, type RecordingProxy } from './support/recording-proxy.js';

let trawl: Harness;
let upstream: FixtureServer;
let site: FixtureServer;
const proxies: RecordingProxy[] = [];
const seen: Array<{ q: string; first: string | null; ua: string }> = [];
const CRAWL_DEADLINE_MS = 2_500;

const coffee = (from: number): FixtureResult[] =>
  Array.from({ length: 10 }, (_, i) => ({ title: `Coffee guide ${from + i}`, link: `${site.url}/coffee/${from + i}`, snippet: `All about coffee, part ${from + i}.` }));

/** The fixture engine: `q` picks the scenario, `first` the page. */
function searchRoute(q: string, first: number): { status?: number; body: string } {
  const page = first > 1 ? Math.floor((first - 1) / 10) + 1 : 1;
  switch (q) {
    case 'blocked coffee':
      return { body: BING_CHALLENGE };
    case 'unrelated coffee':
      return { body: bingPage({ query: q, offset: 0, hasNext: false, results: [{ title: 'Weather in Paris', link: `${site.url}/weather`, snippet: 'Sunny tomorrow.' }] }) };
    case 'broken coffee': // the engine fails outright
      return { status: 503, body: '<html><body>Service unavailable</body></html>' };
    case 'many coffee': // 55 results on one page; the first points at a missing page (404)
      return {
        body: bingPage({
          query: q, offset: 0, hasNext: false,
          results: Array.from({ length: 55 }, (_, i) => ({ title: `Coffee ${i}`, link: i === 0 ? `${site.url}/missing` : `${site.url}/article?n=${i}`, snippet: `Coffee, part ${i}.` })),
        }),
      };
    case 'repeat coffee': // page 2 is page 1 again: Bing's rate limiting
      return { body: bingPage({ query: q, offset: 0, hasNext: true, results: coffee(1) }) };
    case 'trawling nets':
      return {
        body: bingPage({
          query: q, offset: 0, hasNext: false, blocks: true, results: [
            { title: 'Trawling explained', link: `${site.url}/article`, snippet: 'Trawling is a method of fishing.' },
            { title: 'Trawling, slowly', link: `${site.url}/slow`, snippet: 'A trawling page that never finishes loading.' },
            { title: 'Trawling net diagram', link: `${site.url}/diagram.png`, snippet: 'A trawling net, as an image.' },
          ],
        }),
      };
    default: // two pages of ten results, with every block
      return { body: bingPage({ query: q, offset: (page - 1) * 10, hasNext: page < 2, blocks: true, results: coffee((page - 1) * 10 + 1) }) };
  }
}

async function balance(accountId: string): Promise<number> {
  return (await trawl.admin.report(accountId)).account.balance;
}

describe('GET /search', () => {
  beforeAll(async () => {
    site = await startFixtureServer({
      '/article': (_req, res) => void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(ARTICLE),
      '/slow': () => new Promise<void>(() => undefined), // never answers: the auto-crawl deadline must not wait for it
      '/diagram.png': (_req, res) => void res.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.alloc(64)),
    });
    upstream = await startFixtureServer({
      '/search': (req, res) => {
        const params = new URL(req.url!, 'http://x').searchParams;
        const q = params.get('q') ?? '';
        seen.push({ q, first: params.get('first'), ua: String(req.headers['user-agent']) });
        const { status, body } = searchRoute(q, Number(params.get('first') ?? 1));
        res.writeHead(status ?? 200, { 'content-type': 'text/html; charset=utf-8' }).end(body);
      },
    });
    proxies.push(await startRecordingProxy(), await startRecordingProxy());
    trawl = await startHarness({
      SEARCH_ENGINE: 'bing',
      BING_BASE_URL: upstream.url,
      PROXIES: `de=${proxies[0].url},fr=${proxies[1].url}`,
      SERP_PROXY_ATTEMPTS: '2',
      SEARCH_CRAWL_TIMEOUT_MS: '1500',
      SEARCH_CRAWL_DEADLINE_MS: String(CRAWL_DEADLINE_MS),
    });
  });

  afterAll(async () => {
    await trawl?.close();
    await upstream?.close();
    await site?.close();
    await Promise.all(proxies.map((p) => p.close()));
  });

  it('returns page 1 with results and every block by default, for 10 credits', async () => {
    const account = await trawl.createAccount();
    const res = await trawl.get('/search?query=coffee', key(account.apiKey));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ query: 'coffee', pages_fetched: 1, credits: 10 });
    const page = res.body.pages['1'];
    expect(page.total_results).toBe('1,230 results');
    expect(page.search_results).toHaveLength(10);
    expect(page.search_results[0]).toEqual({ title: 'Coffee guide 1', link: `${site.url}/coffee/1`, date: null, snippet: 'All about coffee, part 1.', source: new URL(site.url).host });
    expect(page.related_queries).toEqual(['coffee history', 'coffee today']);
    expect(page.ai_answer.answer).toMatch(/Copilot answer/);
    expect(page.questions_answers[0].question).toBe('What is coffee?');
    expect(page.sidebar).toMatchObject({ title: 'coffee', type: 'Topic' });
    expect(page.direct_answer.answer).toBe('coffee: the direct answer');
    expect(page).not.toHaveProperty('page_content');
    expect(await balance(account.accountId)).toBe(10_000 - 10);
  });

  it('drops each block whose toggle is false', async () => {
    const account = await trawl.createAccount();
    const off = ['ai_answer', 'questions_answers', 'related_queries', 'sidebar', 'direct_answer'].map((t) => `${t}=false`).join('&');
    const res = await trawl.get(`/search?query=coffee&${off}`, key(account.apiKey));
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.pages['1']).sort()).toEqual(['search_results', 'total_results']);
  });

  it('fetches pages in order and stops at the last page the engine has: 2 of 5 asked, 20 credits', async () => {
    const account = await trawl.createAccount();
    const before = seen.length;
    const res = await trawl.get('/search?query=coffee%20pages&max_pages=5', key(account.apiKey));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ pages_fetched: 2, credits: 20 });
    expect(Object.keys(res.body.pages)).toEqual(['1', '2']);
    expect(res.body.pages['2'].search_results[0].title).toBe('Coffee guide 11');
    expect(seen.slice(before).map((s) => s.first)).toEqual([null, '11']);
    expect(await balance(account.accountId)).toBe(10_000 - 20);
  });

  it('treats page 2 that is page 1 again as a failed page: page 1 returned, 0 credits for page 2', async () => {
    const account = await trawl.createAccount();
    const before = seen.length;
    const res = await trawl.get('/search?query=repeat%20coffee&max_pages=3', key(account.apiKey));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ pages_fetched: 1, credits: 10 });
    expect(Object.keys(res.body.pages)).toEqual(['1']);
    expect(res.body.page_errors['2']).toMatch(/^UPSTREAM_BLOCKED: .*page 1 again/);
    expect(seen.slice(before).filter((s) => s.first === '11')).toHaveLength(2); // retried once through another attempt
    expect(await balance(account.accountId)).toBe(10_000 - 10);
  });

  it.each([
    ['blocked coffee', /captcha/],
    ['unrelated coffee', /unrelated/],
  ])('fails "%s" (a 200 challenge / cached unrelated page) with 500 UPSTREAM_BLOCKED after retrying, 0 credits', async (query, why) => {
    const account = await trawl.createAccount();
    const before = seen.length;
    const res = await trawl.get(`/search?query=${encodeURIComponent(query)}`, key(account.apiKey));
    expect(res.status).toBe(500);
    expect(res.body.error.code).toBe('UPSTREAM_BLOCKED');
    expect(res.body.error.message).toMatch(why);
    expect(seen.slice(before).filter((s) => s.q === query)).toHaveLength(2);
    expect(await balance(account.accountId)).toBe(10_000);
  });

  it('auto-crawls every result in each format; a slow and a failing result carry errors and cost nothing', async () => {
    const account = await trawl.createAccount();
    const started = Date.now();
    const res = await trawl.get('/search?query=trawling%20nets&auto_crawling=true&raw_html=true&enhanced_html=true&markdown=true&page_text=true', key(account.apiKey));
    const elapsed = Date.now() - started;
    expect(res.status).toBe(200);
    const [article, slow, image] = res.body.pages['1'].search_results;
    expect(Object.keys(article.page_content).sort()).toEqual(['enhanced_html', 'page_markdown', 'page_text', 'raw_html']);
    expect(article.page_content.raw_html).toContain('<nav>');
    expect(article.page_content.enhanced_html).toContain('Trawling is a method of fishing');
    expect(article.page_content.page_markdown).toMatch(/Trawling is a method of fishing/);
    expect(article.page_content.page_text).toMatch(/Trawling is a method of fishing/);
    expect(article.page_content.page_text).not.toContain('<');
    expect(article.metadata.title).toBe('Deep sea trawling');
    expect(article).not.toHaveProperty('error');
    expect(slow.error).toMatch(/^TIMEOUT/);
    expect(slow).not.toHaveProperty('page_content');
    expect(image.error).toMatch(/^UNSUPPORTED_CONTENT/);
    expect(elapsed).toBeLessThan(CRAWL_DEADLINE_MS + 3_000); // the slow result did not hold the response
    expect(res.body.credits).toBe(10 + 1);
    expect(res.body.pages['1'].page_content).toBeDefined(); // the result page itself, in the same formats
    expect(await balance(account.accountId)).toBe(10_000 - 11);
  });

  it('auto-crawls the first 50 results of a page (the rest NOT_CRAWLED, free); a 404 result is a crawled page', async () => {
    const account = await trawl.createAccount();
    const hitsBefore = site.hits.get('/article') ?? 0;
    const res = await trawl.get('/search?query=many%20coffee&auto_crawling=true', key(account.apiKey));
    expect(res.status).toBe(200);
    const results = res.body.pages['1'].search_results as Array<{ link: string; status_code?: number; error?: string }>;
    expect(results).toHaveLength(55);
    expect(results[0]).toMatchObject({ link: `${site.url}/missing`, status_code: 404 });
    expect(results[0]).not.toHaveProperty('error');
    expect(results.slice(1, 50).every((r) => r.status_code === 200 && r.error === undefined)).toBe(true);
    for (const r of results.slice(50)) {
      expect(r.error).toBe('NOT_CRAWLED: auto-crawling takes the first 50 results of a page');
      expect(r).not.toHaveProperty('status_code');
    }
    expect((site.hits.get('/article') ?? 0) - hitsBefore).toBe(49); // results 51–55 were never fetched
    expect(res.body.credits).toBe(10 + 50); // the page, and 50 crawls — the 404 among them
    expect(await balance(account.accountId)).toBe(10_000 - 60);
  });

  it('fails with 500 UPSTREAM_FAILED at 0 credits when the engine answers 5xx', async () => {
    const account = await trawl.createAccount();
    const res = await trawl.get('/search?query=broken%20coffee', key(account.apiKey));
    expect({ status: res.status, code: res.body.error?.code }).toEqual({ status: 500, code: 'UPSTREAM_FAILED' });
    expect(await balance(account.accountId)).toBe(10_000);
  });

  it('returns the result page itself as page_content when a format is asked without auto-crawling', async () => {
    const account = await trawl.createAccount();
    const res = await trawl.get('/search?query=coffee&markdown=true&raw_html=true', key(account.apiKey));
    expect(res.status).toBe(200);
    const page = res.body.pages['1'];
    expect(Object.keys(page.page_content).sort()).toEqual(['page_markdown', 'raw_html']);
    expect(page.page_content.raw_html).toContain('class="b_algo"');
    expect(page.page_content.page_markdown).toMatch(/1,230 results/); // the engine's page, run through the format pipeline
    expect(page.search_results[0]).not.toHaveProperty('page_content');
    expect(res.body.credits).toBe(10);
  });

  it('sends device=mobile to the engine as a mobile browser', async () => {
    const account = await trawl.createAccount();
    const before = seen.length;
    expect((await trawl.get('/search?query=coffee%20mobile&device=mobile', key(account.apiKey))).status).toBe(200);
    expect((await trawl.get('/search?query=coffee%20desktop', key(account.apiKey))).status).toBe(200);
    const [mobile, desktop] = seen.slice(before);
    expect(mobile.ua).toMatch(/Android.*Mobile/);
    expect(desktop.ua).toMatch(/Windows/);
  });

  it('routes geolocation=random through a proxy of one of the configured countries', async () => {
    const account = await trawl.createAccount();
    const before = proxies.map((p) => p.carried.length);
    const res = await trawl.get('/search?query=coffee&geolocation=random', key(account.apiKey));
    expect(res.status).toBe(200);
    const carried = proxies.map((p, i) => p.carried.slice(before[i]));
    expect(carried.flat()).toEqual([{ hostname: '127.0.0.1', port: Number(new URL(upstream.url).port) }]);
    // The response says which country was picked: the one whose proxy carried the page.
    expect(res.body.egress).toEqual({ via: 'proxy', country: carried[0].length ? 'de' : 'fr' });
  });

  it('a geolocation no proxy serves is PROXY_UNAVAILABLE (500, as on /headful-browser; per URL on /crawl), nothing fetched or charged', async () => {
    const account = await trawl.createAccount();
    const before = seen.length;
    const res = await trawl.get('/search?query=coffee&geolocation=jp', key(account.apiKey));
    expect(res.status).toBe(500);
    expect(res.body.error).toEqual({ code: 'PROXY_UNAVAILABLE', message: 'No proxy serves country "jp" on this server (configured: de, fr); nothing was fetched or charged' });
    expect(seen.length).toBe(before);
    expect(await balance(account.accountId)).toBe(10_000);
  });

  it('answers 429 CREDITS_EXHAUSTED when the balance cannot cover the worst case, and serves what it can', async () => {
    const account = await trawl.createAccount();
    await trawl.db.pool.query('UPDATE accounts SET balance = 15 WHERE id = $1', [account.accountId]);
    await trawl.db.pool.query(`INSERT INTO credit_ledger (account_id, kind, amount, balance_after, note) VALUES ($1, 'grant', -9985, 15, 'test drain')`, [account.accountId]);
    const short = await trawl.get('/search?query=coffee&max_pages=2', key(account.apiKey));
    expect(short.status).toBe(429);
    expect(short.body.error.code).toBe('CREDITS_EXHAUSTED');
    const crawl = await trawl.get('/search?query=coffee&auto_crawling=true', key(account.apiKey)); // reserves 10 + 50
    expect(crawl.status).toBe(429);
    expect(await balance(account.accountId)).toBe(15);
    expect((await trawl.get('/search?query=coffee', key(account.apiKey))).status).toBe(200);
    expect(await balance(account.accountId)).toBe(5);
  });

  const invalid: Array<[string, RegExp]> = [
    ['', /^query is required/],
    ['query=', /^query is required/],
    ['query=a&max_pages=0', /^max_pages/],
    ['query=a&max_pages=11', /^max_pages/],
    ['query=a&device=watch', /^device/],
    ['query=a&cc=zz', /^cc/],
    ['query=a&setLang=english!', /^setLang/],
    ['query=a&geolocation=mars', /^geolocation/],
    ['query=a&auto_crawling=yes', /^auto_crawling/],
    ['query=a&count=0', /^count/],
  ];
  it.each(invalid)('400 naming the parameter for "%s", nothing charged', async (query, message) => {
    const account = await trawl.createAccount();
    const res = await trawl.get(`/search?${query}`, key(account.apiKey));
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('INVALID_PARAMETER');
    expect(res.body.error.message).toMatch(message);
    expect(await balance(account.accountId)).toBe(10_000);
  });
});
