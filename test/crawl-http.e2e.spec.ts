/** `/crawl` over plain HTTP, end to end: gateway → queue → worker-http → fixture pages on 127.0.0.1. */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { gzipSync } from 'node:zlib';
import { ARTICLE, html, startFixtureServer, type FixtureServer } from './support/fixture-server.js';
import { key, startHarness, type Harness } from './support/harness.js';
import { pollUntil } from './support/poll.js';

let trawl: Harness;
let site: FixtureServer;

beforeAll(async () => {
  site = await startFixtureServer({
    '/article': (_req, res) => void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(ARTICLE),
    '/moved': (_req, res) => void res.writeHead(301, { location: '/article' }).end(),
    '/gzip': (_req, res) => void res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip' }).end(gzipSync(ARTICLE)),
    '/latin1': (_req, res) =>
      void res
        .writeHead(200, { 'content-type': 'text/html; charset=windows-1252' })
        .end(Buffer.from(html('<p>Caf\xe9 cr\xe8me br\xfbl\xe9e and more words to make this page long enough to count as content.</p>'), 'latin1')),
    '/undeclared-1252': (_req, res) =>
      void res
        .writeHead(200, { 'content-type': 'text/html' })
        .end(Buffer.from('<html><head><title>Accents</title></head><body><p>Voil\xe0 un texte accentu\xe9 \x96 assez long pour compter comme du contenu.</p></body></html>', 'latin1')),
    '/big': (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(html(`<p>${'x'.repeat(300_000)}</p>`));
    },
    '/slow': () => undefined, // never answers
    '/slow-once': () => undefined, // never answers either; counted separately
    '/image.png': (_req, res) => void res.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.alloc(100)),
    '/once': (_req, res) => void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(ARTICLE),
    '/never-fetched': (_req, res) => void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(ARTICLE),
  });
  trawl = await startHarness({ CRAWL_MAX_BYTES: '100000', CRAWL_TIMEOUT_MS: '1500', JOB_ATTEMPTS: '2', CRAWL_MAX_URLS: '10' });
});

afterAll(async () => {
  await trawl?.close();
  await site?.close();
});

describe('GET /crawl (render_js=false)', () => {
  it('returns status, default formats (enhanced_html + markdown) and charges 1 credit per page', async () => {
    const account = await trawl.createAccount();
    const res = await trawl.get(`/crawl?urls=${encodeURIComponent(`${site.url}/article`)}`, key(account.apiKey));
    expect(res.status).toBe(200);
    expect(res.body.credits).toBe(1);
    expect(res.body.successful_pages).toBe(1);
    const [page] = res.body.results;
    expect(page.url).toBe(`${site.url}/article`);
    expect(page.status_code).toBe(200);
    expect(page.markdown).toContain('Deep sea trawling');
    expect(page.markdown).toContain('pulling a fishing net');
    expect(page.enhanced_html).toContain('pulling a fishing net');
    expect(page.enhanced_html).not.toMatch(/<script/i);
    expect(page).not.toHaveProperty('raw_html');
    expect(page).not.toHaveProperty('page_text');
    expect(page).not.toHaveProperty('error');
    expect((await trawl.admin.report(account.accountId)).account.balance).toBe(10_000 - 1);
    // The job's result is removed once the gateway has read it.
    const completed = `${trawl.config.REDIS_PREFIX}:trawl-http:completed`;
    await pollUntil(async () => (await trawl.redis.zcard(completed)) === 0, 'the completed job to be removed');
  });

  it('returns exactly the formats asked for', async () => {
    const account = await trawl.createAccount();
    const url = encodeURIComponent(`${site.url}/article`);
    const res = await trawl.get(`/crawl?urls=${url}&raw_html=true&enhanced_html=false&markdown=false&page_text=true`, key(account.apiKey));
    const [page] = res.body.results;
    expect(Object.keys(page).sort()).toEqual(['metadata', 'page_text', 'raw_html', 'status_code', 'url']);
    expect(page.raw_html).toBe(ARTICLE);
    expect(page.page_text).toContain('pulling a fishing net');
  });

  it('returns the page metadata with every successful result', async () => {
    const account = await trawl.createAccount();
    const res = await trawl.get(`/crawl?urls=${encodeURIComponent(`${site.url}/article`)}`, key(account.apiKey));
    const [page] = res.body.results;
    expect(page.metadata).toEqual(expect.objectContaining({ title: expect.any(String) }));
    expect(page.metadata.title.length).toBeGreaterThan(0);
  });

  it('follows redirects, decodes gzip and windows-1252', async () => {
    const account = await trawl.createAccount();
    const urls = ['/moved', '/gzip', '/latin1'].map((p) => site.url + p).join(',');
    const res = await trawl.get(`/crawl?urls=${encodeURIComponent(urls)}&page_text=true`, key(account.apiKey));
    expect(res.body.results.map((r: { status_code: number }) => r.status_code)).toEqual([200, 200, 200]);
    expect(res.body.results[0].page_text).toContain('pulling a fishing net');
    expect(res.body.results[1].page_text).toContain('pulling a fishing net');
    expect(res.body.results[2].page_text).toContain('Café crème brûlée');
    expect(res.body.credits).toBe(3);
  });

  it('does not retry a URL that timed out: CRAWL_TIMEOUT_MS is its budget across attempts', async () => {
    const account = await trawl.createAccount();
    const res = await trawl.get(`/crawl?urls=${encodeURIComponent(`${site.url}/slow-once`)}`, key(account.apiKey));
    expect(res.body.results[0].error).toMatch(/^TIMEOUT/);
    expect(site.hits.get('/slow-once')).toBe(1); // JOB_ATTEMPTS=2 here: a transient fault would have been tried twice
    expect(res.body.credits).toBe(0);
  });

  it('decodes an undeclared windows-1252 page as a browser does (the one decoder everywhere)', async () => {
    const account = await trawl.createAccount();
    const res = await trawl.get(`/crawl?urls=${encodeURIComponent(`${site.url}/undeclared-1252`)}&page_text=true`, key(account.apiKey));
    expect(res.body.results[0].page_text).toContain('Voilà un texte accentué – assez long');
    expect(res.body.results[0].page_text).not.toContain('\ufffd');
  });

  it('mixes good and bad URLs: failures carry error and cost 0, a 404 page is a fetched page', async () => {
    const account = await trawl.createAccount();
    const closedPort = 'http://127.0.0.1:1/x';
    const urls = [`${site.url}/article`, `${site.url}/missing`, `${site.url}/big`, `${site.url}/slow`, `${site.url}/image.png`, closedPort];
    const res = await trawl.get(`/crawl?urls=${encodeURIComponent(urls.join(','))}`, key(account.apiKey));
    expect(res.status).toBe(200);
    const [ok, missing, big, slow, image, refused] = res.body.results;
    expect(res.body.results.map((r: { url: string }) => r.url)).toEqual(urls);
    expect(ok.error).toBeUndefined();
    expect(missing).toMatchObject({ status_code: 404 });
    expect(missing.error).toBeUndefined();
    expect(big.error).toMatch(/^TOO_LARGE/);
    expect(slow.error).toMatch(/^TIMEOUT/);
    expect(image.error).toMatch(/^UNSUPPORTED_CONTENT/);
    expect(refused.error).toMatch(/^CONNECTION_FAILED/);
    expect(res.body.successful_pages).toBe(2);
    expect(res.body.credits).toBe(2);
    const { account: after } = await trawl.admin.report(account.accountId);
    expect(after.balance).toBe(10_000 - 2);
    expect(await trawl.ledger.ledgerSum(account.accountId)).toBe(after.balance);
  });

  it('fails a malformed entry among several on its own (its error, no status_code, 0 credits), in request order', async () => {
    const account = await trawl.createAccount();
    const urls = [`${site.url}/article`, 'not a url', 'ftp://127.0.0.1/x', `${site.url}/gzip`];
    const res = await trawl.get(`/crawl?urls=${encodeURIComponent(urls.join(','))}`, key(account.apiKey));
    expect(res.status).toBe(200);
    expect(res.body.results.map((r: any) => r.url)).toEqual(urls);
    expect(res.body.results[1]).toEqual({ url: 'not a url', error: expect.stringMatching(/^INVALID_URL: "not a url" is not a valid absolute URL/) });
    expect(res.body.results[2]).toEqual({ url: 'ftp://127.0.0.1/x', error: 'INVALID_URL: "ftp://127.0.0.1/x" must use http or https' });
    expect(res.body.results[3].markdown).toContain('Deep sea trawling');
    expect(res.body).toMatchObject({ credits: 2, successful_pages: 2 });
    expect((await trawl.admin.report(account.accountId)).account.balance).toBe(10_000 - 2);
  });

  it('crawls duplicate URLs once', async () => {
    const account = await trawl.createAccount();
    const u = `${site.url}/once`;
    const res = await trawl.get(`/crawl?urls=${encodeURIComponent(`${u},${u}#frag,${u}`)}`, key(account.apiKey));
    expect(res.body.results).toHaveLength(1);
    expect(res.body.credits).toBe(1);
    expect(site.hits.get('/once')).toBe(1); // one fetch, not three
  });
});

describe('GET /crawl input validation (400, nothing charged)', () => {
  const cases: Array<[string, string, RegExp]> = [
    ['missing urls', '', /urls/],
    ['empty urls', 'urls=', /urls/],
    ['malformed URL (the only one: nothing to crawl)', 'urls=not a url', /urls/],
    ['every entry malformed', `urls=${encodeURIComponent('not a url,ftp://127.0.0.1/x')}`, /^urls: "not a url"/],
    ['non-http scheme', `urls=${encodeURIComponent('ftp://127.0.0.1/x')}`, /urls/],
    ['too many URLs', `urls=${encodeURIComponent(Array.from({ length: 11 }, (_, i) => `http://127.0.0.1/${i}`).join(','))}`, /maximum is 10/],
    ['non-boolean flag', 'urls=http://127.0.0.1/&render_js=yes', /render_js/],
    ['non-boolean format', 'urls=http://127.0.0.1/&markdown=1', /markdown/],
    ['unknown country', 'urls=http://127.0.0.1/&geolocation=zz', /geolocation/],
    ['repeated parameter', 'urls=http://127.0.0.1/&urls=http://127.0.0.1/b', /urls/],
  ];
  it.each(cases)('%s', async (_name, query, message) => {
    const account = await trawl.createAccount();
    const res = await trawl.get(`/crawl?${query}`, key(account.apiKey));
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('INVALID_PARAMETER');
    expect(res.body.error.message).toMatch(message);
    expect((await trawl.admin.report(account.accountId)).account.balance).toBe(10_000);
  });
});

describe('SSRF guard', () => {
  it('refuses loopback targets when private addresses are not allowed, at 0 credits', async () => {
    const guarded = await startHarness({ ALLOW_PRIVATE_ADDRESSES: 'false' });
    try {
      const account = await guarded.createAccount();
      const urls = [`${site.url}/never-fetched`, 'http://169.254.169.254/latest/meta-data/', 'http://[::1]/', 'http://10.0.0.1/'];
      const res = await guarded.get(`/crawl?urls=${encodeURIComponent(urls.join(','))}`, key(account.apiKey));
      expect(res.status).toBe(200);
      for (const result of res.body.results) expect(result.error).toMatch(/^BLOCKED_ADDRESS/);
      expect(res.body.credits).toBe(0);
      expect(res.body.results).toHaveLength(urls.length);
      expect(site.hits.get('/never-fetched')).toBeUndefined(); // the loopback fixture was never reached
      expect((await guarded.admin.report(account.accountId)).account.balance).toBe(10_000);
    } finally {
      await guarded.close();
    }
  });
});
