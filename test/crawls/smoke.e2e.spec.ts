import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { html, startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { key, startHarness, type Harness } from '../support/harness.js';
import { pollUntil } from '../support/poll.js';

let trawl: Harness;
let site: FixtureServer;
beforeAll(async () => {
  const page = (n: number, links: number[]) => (_q: unknown, res: import('node:http').ServerResponse) =>
    void res.writeHead(200, { 'content-type': 'text/html' }).end(html(`<h1>Page ${n}</h1><p>Text of page ${n} with enough words to be content.</p>${links.map((l) => `<a href="/p${l}">p${l}</a>`).join(' ')}`));
  site = await startFixtureServer({ '/': page(0, [1, 2]), '/p1': page(1, [2, 3]), '/p2': page(2, [0]), '/p3': page(3, [4]), '/p4': page(4, []) });
  trawl = await startHarness({});
});
afterAll(async () => {
  await trawl?.close();
  await site?.close();
});

it('crawls a small site', async () => {
  const account = await trawl.createAccount();
  const res = await fetch(`${trawl.baseUrl}/crawls`, { method: 'POST', headers: { ...key(account.apiKey), 'content-type': 'application/json' }, body: JSON.stringify({ url: `${site.url}/`, sitemap: 'skip', ignore_robots_txt: true }) });
  const created = (await res.json()) as { id: string };
  expect(res.status).toBe(201);
  const status = await pollUntil(async () => {
    const r = await trawl.get(`/crawls/${created.id}`, key(account.apiKey));
    return r.body.status === 'completed' ? r.body : null;
  }, 'crawl to complete', 30_000, 200);
  console.log(JSON.stringify({ ...status, pages: status.pages.map((p: any) => [p.url, p.depth, p.links]) }, null, 1));
  expect(status.pages.length).toBe(5);
});
