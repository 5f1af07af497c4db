/** `/crawl` with `render_js=true`, end to end through worker-render and real Chromium. */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { html, startFixtureServer, type FixtureServer } from './support/fixture-server.js';
import { key, startHarness, type Harness } from './support/harness.js';

let trawl: Harness;
let site: FixtureServer;

const JS_ONLY = html(`<main id="app"><p>Loading…</p></main>
<script>
  setTimeout(() => {
    document.getElementById('app').innerHTML = '<article><h1>Rendered headline</h1><p>' +
      'This paragraph exists only after JavaScript ran in a real browser, which is the whole point of render_js. '.repeat(4) +
      '</p></article>';
  }, 50);
</script>`);
const TALL = html(`<div style="height:4000px;background:linear-gradient(red,blue)"><p>Tall page for screenshots with enough text to count.</p></div>`);

/** A loopback port nothing listens on (Chromium refuses "unsafe" ports such as 1 outright). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Width and height from a PNG's IHDR chunk. */
function pngSize(base64: string): { width: number; height: number } {
  const bytes = Buffer.from(base64, 'base64');
  expect(bytes.subarray(1, 4).toString('ascii')).toBe('PNG');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

beforeAll(async () => {
  site = await startFixtureServer({
    '/js': (_q, res) => void res.writeHead(200, { 'content-type': 'text/html' }).end(JS_ONLY),
    '/tall': (_q, res) => void res.writeHead(200, { 'content-type': 'text/html' }).end(TALL),
  });
  trawl = await startHarness({ WORKER_RENDER_CONCURRENCY: '2', CRAWL_TIMEOUT_MS: '20000' });
});

afterAll(async () => {
  await trawl?.close();
  await site?.close();
});

describe('GET /crawl render_js=true', () => {
  it('returns content that only exists after JavaScript ran (absent without rendering), at 10 credits', async () => {
    const account = await trawl.createAccount();
    const url = encodeURIComponent(`${site.url}/js`);
    const plain = await trawl.get(`/crawl?urls=${url}&page_text=true`, key(account.apiKey));
    expect(plain.body.results[0].page_text).not.toContain('Rendered headline');
    expect(plain.body.credits).toBe(1);
    const rendered = await trawl.get(`/crawl?urls=${url}&render_js=true&page_text=true`, key(account.apiKey));
    expect(rendered.status).toBe(200);
    expect(rendered.body.results[0].status_code).toBe(200);
    expect(rendered.body.results[0].markdown).toContain('Rendered headline');
    expect(rendered.body.results[0].page_text).toContain('only after JavaScript ran');
    expect(rendered.body.results[0]).not.toHaveProperty('screenshot');
    expect(rendered.body.credits).toBe(10);
    expect((await trawl.admin.report(account.accountId)).account.balance).toBe(10_000 - 11);
  });

  it('returns viewport and full-page PNG screenshots; screenshot_full_page alone asks for none', async () => {
    const account = await trawl.createAccount();
    const url = encodeURIComponent(`${site.url}/tall`);
    const viewport = await trawl.get(`/crawl?urls=${url}&render_js=true&screenshot=true&markdown=false&enhanced_html=false`, key(account.apiKey));
    const full = await trawl.get(`/crawl?urls=${url}&render_js=true&screenshot=true&screenshot_full_page=true`, key(account.apiKey));
    const fullOnly = await trawl.get(`/crawl?urls=${url}&render_js=true&screenshot_full_page=true`, key(account.apiKey));
    const v = pngSize(viewport.body.results[0].screenshot);
    const f = pngSize(full.body.results[0].screenshot);
    expect(v).toEqual({ width: 1366, height: 768 });
    expect(f.height).toBeGreaterThanOrEqual(4000);
    // The contract: `screenshot` only "if screenshot=true and rendering is on"; the full-page flag only picks the size.
    expect(fullOnly.status).toBe(200);
    expect(fullOnly.body.results[0]).not.toHaveProperty('screenshot');
    expect(fullOnly.body.results[0].markdown).toContain('Tall page for screenshots');
    expect(Object.keys(viewport.body.results[0]).sort()).toEqual(['metadata', 'screenshot', 'status_code', 'url']);
    expect([viewport, full, fullOnly].map((r) => r.body.credits)).toEqual([10, 10, 10]);
    expect((await trawl.admin.report(account.accountId)).account.balance).toBe(10_000 - 30);
  });

  it('ignores a screenshot without rendering (spec §4.4): a plain crawl at 1 credit, no screenshot field', async () => {
    const account = await trawl.createAccount();
    const url = encodeURIComponent(`${site.url}/tall`);
    for (const query of ['screenshot=true', 'screenshot_full_page=true', 'screenshot=true&screenshot_full_page=true', 'render_js=false&screenshot=true']) {
      const res = await trawl.get(`/crawl?urls=${url}&${query}`, key(account.apiKey));
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ credits: 1, successful_pages: 1 });
      expect(res.body.results[0]).not.toHaveProperty('screenshot');
      expect(res.body.results[0].markdown).toContain('Tall page for screenshots');
    }
    expect((await trawl.admin.report(account.accountId)).account.balance).toBe(10_000 - 4);
  });

  it('charges nothing for a rendered URL that fails', async () => {
    const account = await trawl.createAccount();
    const closed = await closedPort();
    const res = await trawl.get(`/crawl?urls=${encodeURIComponent(`http://127.0.0.1:${closed}/`)}&render_js=true`, key(account.apiKey));
    expect(res.status).toBe(200);
    expect(res.body.results[0].error).toMatch(/^CONNECTION_FAILED/);
    expect(res.body.credits).toBe(0);
    expect((await trawl.admin.report(account.accountId)).account.balance).toBe(10_000);
  });
});
