/**
 * Firecrawl's scrape `actions` with `proxy: "stealth"`: run by the headed browser (the headful worker on its own Xvfb),
 * through the real client, priced as a headed page.
 */
import { afterAll, beforeAll, expect, it, jest } from '@jest/globals';
import Firecrawl from '@mendable/firecrawl-js';
import { WorkerRegistry } from '#queue';
import { html, startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { startHarness, type Harness } from '../support/harness.js';
import { pollUntil } from '../support/poll.js';

jest.setTimeout(120_000);

let trawl: Harness;
let site: FixtureServer;
let accountId: string;
let client: Firecrawl;

beforeAll(async () => {
  site = await startFixtureServer({
    '/reveal': (_req, res) =>
      void res
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        .end(html(`<main><h1>Reveal</h1><button id="go" onclick="document.getElementById('out').textContent = 'Shown by a headed click.'">Go</button><p id="out"></p></main>`, 'Reveal')),
  });
  trawl = await startHarness({ STANDALONE_WORKERS: 'headful', HEADFUL_TIMEOUT_MS: '40000' });
  const registry = trawl.app.get(WorkerRegistry, { strict: false });
  await pollUntil(async () => (await registry.seen('worker-headful')) > 0, 'the worker-headful heartbeat');
  const account = await trawl.createAccount();
  accountId = account.accountId;
  client = new Firecrawl({ apiKey: account.apiKey, apiUrl: trawl.baseUrl });
});

afterAll(async () => {
  await trawl?.close();
  await site?.close();
});

it('proxy stealth runs the actions in the headed browser; 50 credits', async () => {
  const before = (await trawl.admin.report(accountId)).account.balance;
  const doc = await client.scrape(`${site.url}/reveal`, {
    proxy: 'stealth',
    timeout: 30_000,
    formats: ['markdown'],
    actions: [{ type: 'click', selector: '#go' }, { type: 'executeJavascript', script: 'navigator.webdriver' }],
  });
  expect(doc.markdown).toContain('Shown by a headed click.');
  expect(doc.metadata).toMatchObject({ engine: 'headful', proxyUsed: 'stealth', creditsUsed: 50 });
  expect(doc.actions).toEqual({ screenshots: [], scrapes: [], javascriptReturns: [{ type: 'boolean', value: false }], pdfs: [] });
  expect((await trawl.admin.report(accountId)).account.balance).toBe(before - 50);
});
