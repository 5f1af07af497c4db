/**
 * `/crawl` with the shared block detector: an anti-bot page is a per-URL UPSTREAM_BLOCKED error at 0 credits, with the
 * status the site answered (docs/api.md: a failed URL has `status_code` only when the site answered).
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ARTICLE, html, startFixtureServer, type FixtureServer } from './support/fixture-server.js';
import { key, startHarness, type Harness } from './support/harness.js';

let trawl: Harness;
let site: FixtureServer;

const CHALLENGE = `<!doctype html><html><head><title>Just a moment...</title></head><body>
  <form id="challenge-form" action="/?__cf_chl_f_tk=abc" method="POST"></form></body></html>`;

beforeAll(async () => {
  site = await startFixtureServer({
    '/challenge': (_q, res) => void res.writeHead(403, { 'content-type': 'text/html' }).end(CHALLENGE),
    '/datadome': (_q, res) =>
      void res.writeHead(200, { 'content-type': 'text/html' }).end(html('<script src="https://ct.captcha-delivery.com/c.js"></script><p>Please wait</p>')),
    '/missing': (_q, res) => void res.writeHead(404, { 'content-type': 'text/html' }).end(ARTICLE),
  });
  trawl = await startHarness({ STANDALONE_WORKERS: 'http,render' });
});

afterAll(async () => {
  await trawl?.close();
  await site?.close();
});

describe('GET /crawl block detection', () => {
  it('reports challenge pages as UPSTREAM_BLOCKED (0 credits) and keeps a real 404 page a result', async () => {
    const account = await trawl.createAccount();
    const urls = ['/challenge', '/datadome', '/missing'].map((p) => encodeURIComponent(`${site.url}${p}`)).join(',');
    const res = await trawl.get(`/crawl?urls=${urls}`, key(account.apiKey));
    expect(res.status).toBe(200);
    expect(res.body.results[0]).toMatchObject({ status_code: 403, error: 'UPSTREAM_BLOCKED: The site answered with an anti-bot page (cloudflare challenge)' });
    expect(res.body.results[1].error).toBe('UPSTREAM_BLOCKED: The site answered with an anti-bot page (datadome)');
    expect(res.body.results[2]).toMatchObject({ status_code: 404 });
    expect(res.body.results[2].error).toBeUndefined();
    expect(res.body).toMatchObject({ credits: 1, successful_pages: 1 });
  });

  it('a failed URL carries `status_code` only when the site answered (a block page), plain or rendered', async () => {
    const account = await trawl.createAccount();
    for (const render of ['false', 'true']) {
      const urls = [`${site.url}/challenge`, 'http://trawl-unresolvable.invalid/'].map(encodeURIComponent).join(',');
      const res = await trawl.get(`/crawl?urls=${urls}&render_js=${render}`, key(account.apiKey));
      expect(res.status).toBe(200);
      // The site answered 403 with a challenge: the status says so beside the error.
      expect(res.body.results[0]).toMatchObject({ status_code: 403, error: expect.stringMatching(/^UPSTREAM_BLOCKED/) });
      // Nothing answered: no status at all.
      expect(res.body.results[1].error).toMatch(/^DNS_FAILED/);
      expect(res.body.results[1]).not.toHaveProperty('status_code');
      expect(res.body.credits).toBe(0);
    }
  });
});
