/**
 * `POST /map` end to end: a fixture site whose robots.txt names a sitemap index, the index a gzipped sitemap and a
 * plain one, and whose start page links to more; a fixture Bing for `use_search` (bench/support/bing-fixture.ts).
 * Every fetch goes through the workers; the answer is scoped, de-duplicated, ranked by `search`, and metered
 * (2 credits, + 10 when the search page was fetched; bad input and an unreachable site cost nothing).
 */
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { gzipSync } from 'node:zlib';
import type { ServerResponse } from 'node:http';
import { BING_CHALLENGE, bingPage } from '#bench/support/bing-fixture.js';
import { html, startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { key, startHarness, type Harness } from '../support/harness.js';

jest.setTimeout(60_000);

let trawl: Harness;
let site: FixtureServer;
let bing: FixtureServer;
const queries: string[] = [];

const urlset = (urls: string[]) =>
  `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls.map((u) => `<url><loc>${u}</loc></url>`).join('')}</urlset>`;
const send = (res: ServerResponse, type: string, body: string | Buffer) => void res.writeHead(200, { 'content-type': type }).end(body);

beforeAll(async () => {
  site = await startFixtureServer({
    '/robots.txt': (_q, res) => send(res, 'text/plain', `User-agent: *\nDisallow: /private/\n\nSitemap: ${site.url}/sitemap-index.xml\n`),
    '/sitemap-index.xml': (_q, res) =>
      send(
        res,
        'application/xml',
        `<?xml version="1.0"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>${site.url}/sitemap-docs.xml.gz</loc></sitemap>` +
          `<sitemap><loc>${site.url}/sitemap-blog.xml</loc></sitemap></sitemapindex>`,
      ),
    '/sitemap-docs.xml.gz': (_q, res) =>
      send(
        res,
        'application/gzip',
        gzipSync(urlset([`${site.url}/docs/install`, `${site.url}/docs/api-reference`, `${site.url}/docs/guide?page=2`, `${site.url}/docs/guide?utm_source=x`])),
      ),
    '/sitemap-blog.xml': (_q, res) => send(res, 'application/xml', urlset([`${site.url}/blog/hello-world`, 'https://elsewhere.example/offsite'])),
    '/': (_q, res) =>
      send(
        res,
        'text/html',
        html(
          `<meta name="description" content="The home of the fixture"><h1>Home</h1><p>Welcome.</p>
           <a href="/about">About</a> <a href="/docs/install">Install</a> <a href="/pricing#plans">Pricing</a>
           <a href="https://elsewhere.example/x">Elsewhere</a> <a href="mailto:a@b.example">Mail</a>`,
          'Fixture home',
        ),
      ),
  });
  bing = await startFixtureServer({
    '/search': (req, res) => {
      const q = new URL(req.url!, 'http://x').searchParams.get('q') ?? '';
      queries.push(q);
      if (q.includes('blocked')) return send(res, 'text/html', BING_CHALLENGE);
      const results = [
        { title: 'Changelog of the fixture', link: `${site.url}/changelog`, snippet: 'Every release, newest first.' },
        { title: 'Install the fixture', link: `${site.url}/docs/install`, snippet: 'How to install it.' },
        { title: 'Somewhere else', link: 'https://elsewhere.example/install', snippet: 'Not this site.' },
      ];
      send(res, 'text/html; charset=utf-8', bingPage({ query: q, offset: 0, hasNext: false, results }));
    },
  });
  trawl = await startHarness({ SEARCH_ENGINE: 'bing', BING_BASE_URL: bing.url, SERP_PROXY_ATTEMPTS: '1' });
});

afterAll(async () => {
  await trawl?.close();
  await Promise.all([site?.close(), bing?.close()]);
});

async function map(apiKey: string, body: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(`${trawl.baseUrl}/map`, { method: 'POST', headers: { ...key(apiKey), 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, body: await res.json() };
}
const balance = async (accountId: string) => (await trawl.admin.report(accountId)).account.balance;
const paths = (links: Array<{ url: string }>) => links.map((l) => l.url.slice(site.url.length));

describe('POST /map', () => {
  it("maps a site from its robots.txt sitemaps (an index, a gzipped sitemap) and its start page's links, for 2 credits", async () => {
    const account = await trawl.createAccount();
    const res = await map(account.apiKey, { url: `${site.url}/` });
    expect(res.status).toBe(200);
    // The start page first, then the sitemaps' URLs in their order, then the page's links not seen before.
    expect(paths(res.body.links)).toEqual(['/', '/docs/install', '/docs/api-reference', '/docs/guide', '/blog/hello-world', '/about', '/pricing']);
    expect(res.body.links[0]).toEqual({ url: `${site.url}/`, title: 'Fixture home', description: 'The home of the fixture' });
    expect(res.body.credits).toBe(2);
    expect(res.body.warning).toBeUndefined();
    expect(await balance(account.accountId)).toBe(10_000 - 2);
  });

  it('keeps queries when asked, honours limit, and maps sitemaps alone or none', async () => {
    const account = await trawl.createAccount();
    const withQueries = await map(account.apiKey, { url: `${site.url}/`, ignore_query_strings: false, limit: 5 });
    expect(paths(withQueries.body.links)).toEqual(['/', '/docs/install', '/docs/api-reference', '/docs/guide?page=2', '/docs/guide']);
    const only = await map(account.apiKey, { url: `${site.url}/`, sitemap: 'only' });
    expect(paths(only.body.links)).toEqual(['/docs/install', '/docs/api-reference', '/docs/guide', '/blog/hello-world']);
    const skip = await map(account.apiKey, { url: `${site.url}/`, sitemap: 'skip' });
    expect(paths(skip.body.links)).toEqual(['/', '/about', '/docs/install', '/pricing']);
    expect(await balance(account.accountId)).toBe(10_000 - 6);
  });

  it('ranks the URLs matching more search words first, the others in the order found, the same way each time', async () => {
    const account = await trawl.createAccount();
    const first = await map(account.apiKey, { url: `${site.url}/`, search: 'Docs install' });
    expect(paths(first.body.links)).toEqual(['/docs/install', '/docs/api-reference', '/docs/guide', '/', '/blog/hello-world', '/about', '/pricing']);
    const second = await map(account.apiKey, { url: `${site.url}/`, search: 'Docs install' });
    expect(second.body.links).toEqual(first.body.links);
    // A title counts as much as the address: the start page's title matches "home".
    const home = await map(account.apiKey, { url: `${site.url}/`, search: 'home' });
    expect(paths(home.body.links)[0]).toBe('/');
  });

  it("use_search asks the web search for site:<host> <search>, titles and describes its results, and costs 10 more", async () => {
    const account = await trawl.createAccount();
    const res = await map(account.apiKey, { url: `${site.url}/`, search: 'install', use_search: true });
    expect(res.status).toBe(200);
    expect(queries).toContain('site:127.0.0.1 install');
    expect(res.body.links[0]).toEqual({ url: `${site.url}/docs/install`, title: 'Install the fixture', description: 'How to install it.' });
    expect(res.body.links).toContainEqual({ url: `${site.url}/changelog`, title: 'Changelog of the fixture', description: 'Every release, newest first.' });
    expect(res.body.links.some((l: { url: string }) => l.url.includes('elsewhere'))).toBe(false);
    expect(res.body.credits).toBe(12);
    expect(await balance(account.accountId)).toBe(10_000 - 12);
  });

  it('a blocked web search costs nothing and is named in warning; the rest of the map is answered', async () => {
    const account = await trawl.createAccount();
    const res = await map(account.apiKey, { url: `${site.url}/`, search: 'blocked', use_search: true });
    expect(res.status).toBe(200);
    expect(res.body.warning).toMatch(/^search: UPSTREAM_BLOCKED/);
    expect(res.body.links.length).toBe(7);
    expect(res.body.credits).toBe(2);
    expect(await balance(account.accountId)).toBe(10_000 - 2);
  });

  it('an unreachable site is a 500 UPSTREAM_FAILED at 0 credits', async () => {
    const account = await trawl.createAccount();
    const res = await map(account.apiKey, { url: 'http://127.0.0.1:1/' });
    expect(res.status).toBe(500);
    expect(res.body.error.code).toBe('UPSTREAM_FAILED');
    expect(res.body.error.message).toMatch(/start page could not be fetched \(CONNECTION_FAILED/);
    expect(await balance(account.accountId)).toBe(10_000);
  });

  it.each([
    [{ url: 'not a url' }, /^url/],
    [{}, /^url is required/],
    [{ url: 'https://a.example/', limit: 0 }, /^limit must be an integer from 1 to 100000/],
    [{ url: 'https://a.example/', sitemap: 'all' }, /^sitemap must be one of include, only, skip/],
    [{ url: 'https://a.example/', use_search: 'yes' }, /^use_search must be true or false/],
    [{ url: 'https://a.example/', use_search: true, sitemap: 'only' }, /^use_search cannot be combined with sitemap=only/],
    [{ url: 'https://a.example/', search: 'x'.repeat(501) }, /^search is longer than 500 characters/],
    [{ url: 'https://a.example/', surprise: 1 }, /^body: Unrecognized key: "surprise"/],
    [[], /^body/],
  ])('bad input %j is a 400 naming the field, before anything is charged', async (body, message) => {
    const account = await trawl.createAccount();
    const res = await map(account.apiKey, body);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('INVALID_PARAMETER');
    expect(res.body.error.message).toMatch(message);
    expect(await balance(account.accountId)).toBe(10_000);
  });

  it('needs a key', async () => {
    const res = await fetch(`${trawl.baseUrl}/map`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ url: `${site.url}/` }) });
    expect(res.status).toBe(401);
  });
});
