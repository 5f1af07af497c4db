/**
 * RENDER_MAX_JOB_BYTES (docs/configuration.md): the decoded bytes all responses of one rendered page may deliver
 * together. Each script here is well under CRAWL_MAX_BYTES; four of them together pass the job's cap and the URL fails
 * with TOO_LARGE at 0 credits, while the same page with one script renders and is charged.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { html, startFixtureServer, type FixtureServer } from './support/fixture-server.js';
import { key, startHarness, type Harness } from './support/harness.js';

const SCRIPT_BYTES = 400_000;
let trawl: Harness;
let site: FixtureServer;

const page = (scripts: number) =>
  html(`<main><h1>Heavy page</h1><p>A page whose scripts weigh more together than one rendered page may deliver.</p></main>
    ${Array.from({ length: scripts }, (_, i) => `<script src="/script/${i}.js"></script>`).join('')}`);

beforeAll(async () => {
  const script = `/* ${'x'.repeat(SCRIPT_BYTES)} */ document.body.dataset.loaded = 'yes';`;
  const routes: Parameters<typeof startFixtureServer>[0] = {
    '/light': (_q, res) => void res.writeHead(200, { 'content-type': 'text/html' }).end(page(1)),
    '/heavy': (_q, res) => void res.writeHead(200, { 'content-type': 'text/html' }).end(page(4)),
  };
  for (let i = 0; i < 4; i++) routes[`/script/${i}.js`] = (_q, res) => void res.writeHead(200, { 'content-type': 'text/javascript' }).end(script);
  site = await startFixtureServer(routes);
  trawl = await startHarness({ RENDER_MAX_JOB_BYTES: '1000000', CRAWL_MAX_BYTES: '1000000', CRAWL_TIMEOUT_MS: '20000', JOB_ATTEMPTS: '1' });
});

afterAll(async () => {
  await trawl?.close();
  await site?.close();
});

describe('RENDER_MAX_JOB_BYTES', () => {
  it('fails a rendered page whose responses together pass the cap with TOO_LARGE at 0 credits; a lighter one renders', async () => {
    const account = await trawl.createAccount();
    const urls = [`${site.url}/light`, `${site.url}/heavy`].map(encodeURIComponent).join(',');
    const res = await trawl.get(`/crawl?urls=${urls}&render_js=true`, key(account.apiKey));
    expect(res.status).toBe(200);
    const [light, heavy] = res.body.results;
    expect(light).toMatchObject({ status_code: 200 });
    expect(light.error).toBeUndefined();
    expect(heavy.error).toBe("TOO_LARGE: The page's responses exceed the 1000000-byte limit together");
    expect(res.body.credits).toBe(10);
    expect((await trawl.admin.report(account.accountId)).account.balance).toBe(10_000 - 10);
  });
});
