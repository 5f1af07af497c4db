/**
 * `/serp-search` end to end against a fixture search upstream on 127.0.0.1 that serves real captured Google pages
 * from ../shared/corpus (skipped, with a message, when the corpus is absent; with CI=true its absence fails the run).
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { CORPUS_DIR } from './support/env.js';
import { startFixtureServer, type FixtureServer } from './support/fixture-server.js';
import { key, startHarness, type Harness } from './support/harness.js';
import { startRecordingProxy, type RecordingProxy } from './support/recording-proxy.js';
import { tableResolver } from './support/offline.js';
import { corpusPresent } from './support/requires.js';

const GOOGLE = `${CORPUS_DIR}/serp/google/zlurad-serp-parser`;
const hasCorpus = corpusPresent(GOOGLE, 'serp-search e2e');
const page = (file: string) => gunzipSync(readFileSync(`${GOOGLE}/${file}`)).toString('utf8');

let trawl: Harness;
let upstream: FixtureServer;
const proxies: RecordingProxy[] = [];
const seen: URLSearchParams[] = [];
let flakyCalls = 0;

(hasCorpus ? describe : describe.skip)('GET /serp-search', () => {
  beforeAll(async () => {
    const pages = {
      coffee: page('desktop-2023/html/coffee.html.gz'),
      none: page('desktop-2023/html/no-results.html.gz'),
      captcha: page('desktop-2023/html/recaptcha.html.gz'),
    };
    upstream = await startFixtureServer({
      '/search': (req, res) => {
        const params = new URL(req.url!, 'http://x').searchParams;
        seen.push(params);
        const q = params.get('q');
        let body = pages.coffee;
        if (q === 'no such thing') body = pages.none;
        if (q === 'always blocked') body = pages.captcha;
        if (q === 'blocked once' && flakyCalls++ === 0) body = pages.captcha;
        if (q === 'engine down') return void res.writeHead(503, { 'content-type': 'text/html' }).end('<html><body>Service unavailable</body></html>');
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body);
      },
    });
    proxies.push(await startRecordingProxy(), await startRecordingProxy());
    trawl = await startHarness({
      GOOGLE_BASE_URL: upstream.url,
      GOOGLE_TRANSPORT: 'http',
      PROXIES: `*=${proxies[0].url}|${proxies[1].url}`,
      SERP_PROXY_ATTEMPTS: '2',
    });
  });

  afterAll(async () => {
    await trawl?.close();
    await upstream?.close();
    await Promise.all(proxies.map((p) => p.close()));
  });

  it('returns organic results with positions, enriched blocks and the parameter echo, for 10 credits', async () => {
    const account = await trawl.createAccount();
    const res = await trawl.get('/serp-search?q=coffee&gl=de&hl=de&num=20&page=2&tbs=qdr:w', key(account.apiKey));
    expect(res.status).toBe(200);
    expect(res.body.parameters).toEqual({ q: 'coffee', gl: 'de', hl: 'de', num: 20, page: 2, type: 'search', tbs: 'qdr:w' });
    expect(res.body).not.toHaveProperty('credits');
    const results = res.body.serp_search_results;
    expect(results.length).toBeGreaterThanOrEqual(5);
    for (const r of results) {
      expect(typeof r.title).toBe('string');
      expect(r.link).toMatch(/^https?:\/\//);
      expect(typeof r.snippet).toBe('string');
    }
    expect(results[0].position).toBe(21); // page 2 of 20 continues the ranking
    expect(res.body.relatedSearches?.length).toBeGreaterThan(0);
    const sent = seen.at(-1)!;
    expect(Object.fromEntries(['q', 'gl', 'hl', 'num', 'start', 'tbs'].map((k) => [k, sent.get(k)]))).toEqual({
      q: 'coffee', gl: 'de', hl: 'de', num: '20', start: '20', tbs: 'qdr:w',
    });
    expect((await trawl.admin.report(account.accountId)).account.balance).toBe(10_000 - 10);
  });

  it('answers a real no-results page with an empty list (charged), never a block', async () => {
    const account = await trawl.createAccount();
    const res = await trawl.get(`/serp-search?q=${encodeURIComponent('no such thing')}`, key(account.apiKey));
    expect(res.status).toBe(200);
    expect(res.body.serp_search_results).toEqual([]);
    expect((await trawl.admin.report(account.accountId)).account.balance).toBe(10_000 - 10);
  });

  it('retries a blocked page through another proxy before failing', async () => {
    const account = await trawl.createAccount();
    const before = proxies.map((p) => p.carried.length);
    const res = await trawl.get(`/serp-search?q=${encodeURIComponent('blocked once')}`, key(account.apiKey));
    expect(res.status).toBe(200);
    expect(res.body.serp_search_results.length).toBeGreaterThan(0);
    expect(proxies.map((p, i) => p.carried.length - before[i])).toEqual([1, 1]);
  });

  it('fails with 500 UPSTREAM_FAILED and charges nothing when Google answers 5xx', async () => {
    const account = await trawl.createAccount();
    const res = await trawl.get(`/serp-search?q=${encodeURIComponent('engine down')}`, key(account.apiKey));
    expect({ status: res.status, code: res.body.error?.code }).toEqual({ status: 500, code: 'UPSTREAM_FAILED' });
    expect((await trawl.admin.report(account.accountId)).account.balance).toBe(10_000);
  });

  it('fails a page that stays blocked with 500 UPSTREAM_BLOCKED and charges nothing', async () => {
    const account = await trawl.createAccount();
    const res = await trawl.get(`/serp-search?q=${encodeURIComponent('always blocked')}`, key(account.apiKey));
    expect(res.status).toBe(500);
    expect(res.body.error.code).toBe('UPSTREAM_BLOCKED');
    expect((await trawl.admin.report(account.accountId)).account.balance).toBe(10_000);
  });

  it('answers 402 when credits do not suffice', async () => {
    const account = await trawl.createAccount();
    await trawl.db.pool.query('UPDATE accounts SET balance = 0 WHERE id = $1', [account.accountId]);
    await trawl.db.pool.query(`INSERT INTO credit_ledger (account_id, kind, amount, balance_after, note) VALUES ($1, 'grant', -10000, 0, 'test drain')`, [account.accountId]);
    const res = await trawl.get('/serp-search?q=coffee', key(account.apiKey));
    expect(res.status).toBe(402);
    expect(res.body.error.code).toBe('INSUFFICIENT_CREDITS');
  });

  const invalid: Array<[string, RegExp]> = [
    ['', /q is required/],
    ['q=', /q is required/],
    ['q=a&num=0', /num/],
    ['q=a&num=101', /num/],
    ['q=a&num=ten', /num/],
    ['q=a&page=0', /page/],
    ['q=a&type=videos', /type/],
    ['q=a&tbs=qdr:x', /tbs/],
    ['q=a&gl=zz', /gl/],
    ['q=a&hl=english!', /hl/],
  ];
  it.each(invalid)('400 naming the parameter for "%s", nothing charged', async (query, message) => {
    const account = await trawl.createAccount();
    const res = await trawl.get(`/serp-search?${query}`, key(account.apiKey));
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('INVALID_PARAMETER');
    expect(res.body.error.message).toMatch(message);
    expect((await trawl.admin.report(account.accountId)).account.balance).toBe(10_000);
  });
});

/**
 * The shipped default transport: Google through Chromium (GOOGLE_TRANSPORT unset). Every other test here sets
 * `http`. Host names resolve through a table with no entries, so whatever the captured page would load from elsewhere
 * is refused, never fetched from the internet; the fixture Google is an IP address.
 */
(hasCorpus ? describe : describe.skip)('GET /serp-search on the default transport (Chromium)', () => {
  let rendered: Harness;
  let google: FixtureServer;
  const asked: string[] = [];

  beforeAll(async () => {
    const coffee = page('desktop-2023/html/coffee.html.gz');
    google = await startFixtureServer({
      '/search': (req, res) => {
        asked.push(new URL(req.url!, 'http://x').searchParams.get('q') ?? '');
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(coffee);
      },
    });
    rendered = await startHarness({ GOOGLE_BASE_URL: google.url }, { resolve: tableResolver({}) });
  });

  afterAll(async () => {
    await rendered?.close();
    await google?.close();
  });

  it('renders the result page in Chromium and returns its organic results for 10 credits', async () => {
    expect(rendered.config.GOOGLE_TRANSPORT).toBe('render');
    const account = await rendered.createAccount();
    const res = await rendered.get('/serp-search?q=coffee', key(account.apiKey));
    expect(res.status).toBe(200);
    expect(asked).toContain('coffee');
    const results = res.body.serp_search_results as Array<{ position: number; title: string; link: string }>;
    expect(results.length).toBeGreaterThanOrEqual(5);
    expect(results[0].position).toBe(1);
    for (const r of results) expect(r.link).toMatch(/^https?:\/\//);
    expect((await rendered.admin.report(account.accountId)).account.balance).toBe(10_000 - 10);
  });
});
