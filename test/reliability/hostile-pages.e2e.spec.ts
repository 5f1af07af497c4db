/**
 * Hostile pages through /crawl, plain and rendered: each ends as a per-URL error with a clear code (or, where the
 * browser itself defuses the page, as real content), in bounded time, and a failed URL is never charged.
 * Covered so far: a redirect chain of 19 (past CRAWL_MAX_REDIRECTS=10) and 100k nested elements.
 */
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { html, startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { key, startHarness, type Harness } from '../support/harness.js';

let trawl: Harness;
let site: FixtureServer;

const CHAIN = 19;
const DEEP = 100_000;
const BIG = 50 * 1024 * 1024;
/** 10 MiB of gzip that inflates to ~10 GiB of spaces inside a paragraph. */
const BOMB = gzipSync(Buffer.concat([Buffer.from('<html><body><p>'), Buffer.alloc(64 * 1024 * 1024, 0x20)]), { level: 9 });
const DEEP_PAGE = html(`${'<div>'.repeat(DEEP)}<p>The deepest paragraph of the hostile page.</p>${'</div>'.repeat(DEEP)}`);

beforeAll(async () => {
  const routes: Record<string, (req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => void> = {
    '/landing': (_q, res) => void res.writeHead(200, { 'content-type': 'text/html' }).end(html('<p>landed after the chain</p>')),
    '/big': (_q, res) => {
      res.writeHead(200, { 'content-type': 'text/html', 'content-length': String(BIG) });
      const chunk = Buffer.alloc(1024 * 1024, 0x61);
      let sent = 0;
      const pump = (): void => {
        while (sent < BIG && !res.destroyed) {
          sent += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        res.end();
      };
      res.on('error', () => undefined);
      pump();
    },
    '/bomb': (_q, res) => void res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip' }).end(BOMB),
    '/deep': (_q, res) => void res.writeHead(200, { 'content-type': 'text/html' }).end(DEEP_PAGE),
  };
  for (let hop = 1; hop <= CHAIN; hop++) {
    const next = hop === CHAIN ? '/landing' : `/chain/${hop + 1}`;
    routes[`/chain/${hop}`] = (_q, res) => void res.writeHead(302, { location: next }).end();
  }
  site = await startFixtureServer(routes);
  trawl = await startHarness({ WORKER_RENDER_CONCURRENCY: '2', CRAWL_TIMEOUT_MS: '20000' });
});

afterAll(async () => {
  await trawl?.close();
  await site?.close();
});

/** One URL through /crawl; returns its result, the credits reported, and the wall time. */
async function crawl(apiKey: string, path: string, render: boolean) {
  const started = performance.now();
  const res = await trawl.get(`/crawl?urls=${encodeURIComponent(site.url + path)}&page_text=true${render ? '&render_js=true' : ''}`, key(apiKey));
  expect(res.status).toBe(200);
  return { result: res.body.results[0], credits: res.body.credits as number, ms: performance.now() - started };
}

describe.each([
  ['plain', false],
  ['rendered', true],
])('hostile pages, %s', (_mode, render) => {
  it(`fails a chain of ${CHAIN} redirects with TOO_MANY_REDIRECTS at 0 credits`, async () => {
    const account = await trawl.createAccount();
    const { result, credits, ms } = await crawl(account.apiKey, '/chain/1', render);
    expect(result.error).toMatch(/^TOO_MANY_REDIRECTS/);
    expect(result).not.toHaveProperty('page_text');
    expect(credits).toBe(0);
    expect(ms).toBeLessThan(15_000);
    expect((await trawl.admin.report(account.accountId)).account.balance).toBe(10_000);
  });

  it.each(['/big', '/bomb'])('fails %s (50 MB body, gzip bomb) with TOO_LARGE at 0 credits', async (path) => {
    const account = await trawl.createAccount();
    const { result, credits, ms } = await crawl(account.apiKey, path, render);
    expect(result.error).toMatch(/^TOO_LARGE/);
    expect(credits).toBe(0);
    expect(ms).toBeLessThan(15_000);
    expect((await trawl.admin.report(account.accountId)).account.balance).toBe(10_000);
  });

  it(`never charges for empty output of ${DEEP} nested elements: an error at 0 credits, or the text`, async () => {
    const account = await trawl.createAccount();
    const { result, credits, ms } = await crawl(account.apiKey, '/deep', render);
    expect(ms).toBeLessThan(15_000);
    if (render) {
      // Chromium's parser stops nesting at 512 levels, so the rendered DOM is shallow and its text extractable.
      expect(result.page_text).toContain('The deepest paragraph');
      expect(credits).toBe(10);
    } else {
      expect(result.error).toMatch(/^UNSUPPORTED_CONTENT: The page nests elements more than \d+ levels deep/);
      expect(credits).toBe(0);
      expect((await trawl.admin.report(account.accountId)).account.balance).toBe(10_000);
    }
  });
});
