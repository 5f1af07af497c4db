/**
 * Firecrawl's scrape `actions` through the real client, `@mendable/firecrawl-js`, against the real gateway and the
 * Chromium render worker on loopback: a click that reveals text, writing into a form and sending it with Enter, a
 * scroll that loads more, scripts' return values, a screenshot served as a PNG link, a scrape action capturing the
 * page between actions — priced as a rendered page; a pdf action's PDF; actions on every page of a batch scrape and a
 * crawl — and the refusals (bad actions: 400 naming the field; a selector
 * matching nothing, a click navigating to a refused address: the scrape fails), with nothing charged.
 */
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import Firecrawl, { FirecrawlAppV1, SdkError } from '@mendable/firecrawl-js';
import type { ServerResponse } from 'node:http';
import { html, startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { startHarness, type Harness } from '../support/harness.js';
import { tamperedLink } from '../support/signed-links.js';

jest.setTimeout(120_000);

const send = (res: ServerResponse, body: string) => void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body);

/** A page to act on: a button revealing text, a search form, a feed that loads more when scrolled to its end. */
const PLAYGROUND = html(
  `<main><h1>Actions playground</h1>
   <button id="reveal" onclick="document.getElementById('answer').textContent = 'The answer is forty-two.'">Show the answer</button>
   <p id="answer"></p>
   <form action="/searched" method="get"><input id="q" name="q"><button type="submit">Search</button></form>
   <ul id="feed"><li>Item 1</li><li>Item 2</li><li>Item 3</li></ul>
   <div style="height: 4000px">Spacer</div><p id="end">End of the feed</p></main>
   <script>
     let loading = false;
     addEventListener('scroll', () => {
       if (loading) return;
       loading = true;
       fetch('/more').then((r) => r.text()).then((more) => document.getElementById('feed').insertAdjacentHTML('beforeend', more));
     });
   </script>`,
  'Playground',
);

let trawl: Harness;
let site: FixtureServer;
let apiKey: string;
let accountId: string;
let client: Firecrawl;

beforeAll(async () => {
  site = await startFixtureServer({
    '/playground': (_req, res) => send(res, PLAYGROUND),
    '/more': (_req, res) => void res.writeHead(200, { 'content-type': 'text/html' }).end('<li class="more">Item 4</li><li class="more">Item 5</li><li class="more">Item 6</li>'),
    '/searched': (req, res) => {
      const q = new URL(req.url!, 'http://x').searchParams.get('q') ?? '';
      send(res, html(`<main><h1 id="searched">Results</h1><p>You searched for ${q.replace(/[<&]/g, '')}, and here are the results of that search.</p></main>`, 'Results'));
    },
    '/tabs/': (_req, res) => send(res, html('<main><h1>Tabs</h1><a href="/tabs/1">One</a> <a href="/tabs/2">Two</a> <a href="/tabs/3">Three</a></main>', 'Tabs')),
    ...Object.fromEntries(
      [1, 2, 3].map((n) => [
        `/tabs/${n}`,
        (_req: unknown, res: ServerResponse) =>
          send(res, html(`<main><h1>Tab ${n}</h1><button id="reveal" onclick="document.getElementById('secret').textContent = 'Secret number ${n}.'">Reveal</button><p id="secret"></p><a href="/tabs/">All tabs</a></main>`, `Tab ${n}`)),
      ]),
    ),
    '/leak': (_req, res) => send(res, html('<main><h1>Leak</h1><a id="meta" href="http://169.254.169.254/latest/meta-data/">metadata</a></main>', 'Leak')),
  });
  trawl = await startHarness();
  const account = await trawl.createAccount();
  apiKey = account.apiKey;
  accountId = account.accountId;
  client = new Firecrawl({ apiKey, apiUrl: trawl.baseUrl });
});

afterAll(async () => {
  await trawl?.close();
  await site?.close();
});

const balance = async () => (await trawl.admin.report(accountId)).account.balance;

const refusal = async (work: () => Promise<unknown>) => {
  const error = await work().then(() => null, (e: unknown) => e);
  expect(error).toBeInstanceOf(SdkError);
  return error as SdkError;
};

describe('scrape with actions', () => {
  it('clicks, scrapes between actions, runs scripts, scrolls, screenshots, writes and presses Enter; a rendered page\'s 10 credits', async () => {
    const before = await balance();
    const doc = await client.scrape(`${site.url}/playground`, {
      formats: ['markdown'],
      actions: [
        { type: 'click', selector: '#reveal' },
        { type: 'wait', selector: '#answer:not(:empty)' },
        { type: 'scrape' },
        { type: 'executeJavascript', script: 'return document.querySelectorAll("#feed li").length' },
        { type: 'scroll', direction: 'down' },
        { type: 'wait', selector: '#feed li.more' },
        { type: 'executeJavascript', script: 'document.querySelectorAll("#feed li").length' },
        { type: 'executeJavascript', script: 'return { title: document.title, more: [...document.querySelectorAll(".more")].map((li) => li.textContent) }' },
        { type: 'screenshot', fullPage: false, quality: 80 },
        { type: 'click', selector: '#q' },
        { type: 'write', text: 'trawl nets' },
        { type: 'press', key: 'Enter' },
        { type: 'wait', selector: '#searched' },
      ],
    });
    // The formats are of the page the actions left: the form's answer.
    expect(doc.markdown).toContain('You searched for trawl nets');
    expect(doc.metadata).toMatchObject({ sourceURL: `${site.url}/playground`, url: `${site.url}/searched?q=trawl+nets`, engine: 'chromium', creditsUsed: 10 });
    const actions = doc.actions as { screenshots: string[]; scrapes: Array<{ url: string; html: string }>; javascriptReturns: Array<{ type: string; value: unknown }>; pdfs: unknown[] };
    // The scrape action captured the page as the click had left it, before the form was sent.
    expect(actions.scrapes).toHaveLength(1);
    expect(actions.scrapes[0].url).toBe(`${site.url}/playground`);
    expect(actions.scrapes[0].html).toContain('The answer is forty-two.');
    expect(actions.scrapes[0].html).not.toContain('class="more"');
    expect(actions.javascriptReturns).toEqual([
      { type: 'number', value: 3 },
      { type: 'number', value: 6 },
      { type: 'object', value: { title: 'Playground', more: ['Item 4', 'Item 5', 'Item 6'] } },
    ]);
    expect(actions.pdfs).toEqual([]);
    expect(actions.screenshots).toHaveLength(1);
    expect(actions.screenshots[0]).toMatch(new RegExp(`^${trawl.baseUrl}/`));
    const png = await fetch(actions.screenshots[0]);
    expect(png.status).toBe(200);
    expect(Buffer.from(await png.arrayBuffer()).subarray(1, 4).toString()).toBe('PNG');
    expect(await balance()).toBe(before - 10);
  });

  it('a wait of milliseconds holds the capture; v1 answers the same actions object', async () => {
    const before = await balance();
    const v1 = new FirecrawlAppV1({ apiKey, apiUrl: trawl.baseUrl });
    const started = Date.now();
    const answer = await v1.scrapeUrl(`${site.url}/playground`, {
      formats: ['markdown'],
      actions: [{ type: 'wait', milliseconds: 600 }, { type: 'click', selector: '#reveal' }, { type: 'executeJavascript', script: 'document.getElementById("answer").textContent' }],
    });
    expect(Date.now() - started).toBeGreaterThanOrEqual(600);
    if (!answer.success) throw new Error(answer.error);
    expect(answer.markdown).toContain('The answer is forty-two.');
    expect(answer.actions).toEqual({ screenshots: [], scrapes: [], javascriptReturns: [{ type: 'string', value: 'The answer is forty-two.' }], pdfs: [] });
    expect(await balance()).toBe(before - 10);
  });
});

describe('actions on the pages of a batch scrape and a crawl', () => {
  it('a batch runs the actions on every page, each document keeping its scrapes and script returns; 10 credits a page', async () => {
    const before = await balance();
    const urls = [1, 2, 3].map((n) => `${site.url}/tabs/${n}`);
    const job = await client.batchScrape(urls, {
      options: { formats: ['markdown'], actions: [{ type: 'click', selector: '#reveal' }, { type: 'executeJavascript', script: 'document.getElementById("secret").textContent' }, { type: 'scrape' }] },
      pollInterval: 1,
    });
    expect(job.status).toBe('completed');
    expect(job.data).toHaveLength(3);
    for (const doc of job.data) {
      const n = /\/tabs\/(\d)$/.exec(doc.metadata?.sourceURL ?? '')?.[1];
      expect(n).toBeDefined();
      // The formats are of the page the click left.
      expect(doc.markdown).toContain(`Secret number ${n}.`);
      const actions = doc.actions as { screenshots: string[]; scrapes: Array<{ url: string; html: string }>; javascriptReturns: unknown[]; pdfs: string[] };
      expect(actions.javascriptReturns).toEqual([{ type: 'string', value: `Secret number ${n}.` }]);
      expect(actions.scrapes).toHaveLength(1);
      expect(actions.scrapes[0].html).toContain(`Secret number ${n}.`);
      expect(actions).toMatchObject({ screenshots: [], pdfs: [] });
    }
    expect(await balance()).toBe(before - 30);
  });

  it('a crawl runs them on every page it finds, through the SDK\'s waiter', async () => {
    const before = await balance();
    const job = await client.crawl(`${site.url}/tabs/`, { limit: 4, sitemap: 'skip', scrapeOptions: { formats: ['markdown'], actions: [{ type: 'executeJavascript', script: 'return document.title' }] }, pollInterval: 1 });
    expect(job.status).toBe('completed');
    expect(job.data).toHaveLength(4);
    const titles = job.data.map((doc) => (doc.actions as { javascriptReturns: Array<{ value: unknown }> }).javascriptReturns[0].value).sort();
    expect(titles).toEqual(['Tab 1', 'Tab 2', 'Tab 3', 'Tabs']);
    expect(await balance()).toBe(before - 40);
  });
});

describe('the pdf action', () => {
  it('prints the page, A4 landscape as asked or Letter by default, each as a signed link to a PDF; a rendered page\'s 10 credits', async () => {
    const before = await balance();
    const doc = await client.scrape(`${site.url}/playground`, {
      formats: ['markdown'],
      actions: [{ type: 'click', selector: '#reveal' }, { type: 'wait', selector: '#answer:not(:empty)' }, { type: 'pdf', format: 'A4', landscape: true }, { type: 'pdf' }],
    });
    const actions = doc.actions as { pdfs: string[]; screenshots: string[] };
    expect(actions.screenshots).toEqual([]);
    expect(actions.pdfs).toHaveLength(2);
    const printed = [];
    for (const link of actions.pdfs) {
      expect(link).toMatch(new RegExp(`^${trawl.baseUrl}/screenshots/[0-9a-f-]{36}\\.pdf\\?`));
      const res = await fetch(link);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/pdf');
      printed.push(Buffer.from(await res.arrayBuffer()));
    }
    for (const pdf of printed) expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    // A4 landscape is 842 × 595 points, Letter portrait (the default) 612 × 792.
    expect(printed[0].toString('latin1')).toMatch(/\/MediaBox \[0 0 84\d\.\d+ 59\d\.\d+\]/);
    expect(printed[1].toString('latin1')).toMatch(/\/MediaBox \[0 0 612 792\]/);
    expect(doc.metadata).toMatchObject({ engine: 'chromium', creditsUsed: 10 });
    expect(await balance()).toBe(before - 10);
    // A link to a PDF that is tampered with is refused, as a screenshot's is.
    expect((await fetch(tamperedLink(actions.pdfs[0]))).status).toBe(403);
  });
});

describe('actions and the page cache', () => {
  it('a scrape with actions is never answered from the page cache: maxAge is ignored, the actions run each time', async () => {
    const before = await balance();
    const hits = site.hits.get('/playground') ?? 0;
    const actions = [{ type: 'click' as const, selector: '#reveal' }, { type: 'executeJavascript' as const, script: 'document.getElementById("answer").textContent' }];
    for (let i = 0; i < 2; i++) {
      const doc = await client.scrape(`${site.url}/playground`, { formats: ['markdown'], maxAge: 600_000, actions });
      expect(doc.metadata).not.toHaveProperty('cacheState');
      expect(doc.actions).toMatchObject({ javascriptReturns: [{ type: 'string', value: 'The answer is forty-two.' }] });
    }
    expect(site.hits.get('/playground')).toBe(hits + 2);
    expect(await balance()).toBe(before - 20);
  });
});

describe('actions that fail the scrape, nothing charged', () => {
  it('a selector that matches nothing fails the scrape naming the action', async () => {
    const before = await balance();
    const error = await refusal(() => client.scrape(`${site.url}/playground`, { actions: [{ type: 'wait', milliseconds: 10 }, { type: 'click', selector: '#no-such-button' }] }));
    expect(error).toMatchObject({ status: 500, code: 'SCRAPE_ACTION_ERROR' });
    expect(error.message).toBe('actions.1.selector: no element matches "#no-such-button"');
    const key = await refusal(() => client.scrape(`${site.url}/playground`, { actions: [{ type: 'press', key: 'NoSuchKey' }] }));
    expect(key.message).toMatch(/^actions\.0\.key: "NoSuchKey" is not a key name/);
    const thrown = await refusal(() => client.scrape(`${site.url}/playground`, { actions: [{ type: 'executeJavascript', script: 'throw new Error("kaboom")' }] }));
    expect(thrown.message).toMatch(/^actions\.0 \(executeJavascript\) failed: .*kaboom/);
    expect(await balance()).toBe(before);
  });

  it('a click navigating to a refused address is stopped by the SSRF guard', async () => {
    const before = await balance();
    const error = await refusal(() => client.scrape(`${site.url}/leak`, { actions: [{ type: 'click', selector: '#meta' }, { type: 'wait', milliseconds: 200 }] }));
    expect(error).toMatchObject({ status: 403, code: 'BLOCKED_ADDRESS' });
    expect(await balance()).toBe(before);
  });

  it('a wait for a selector that never appears fails within the request timeout', async () => {
    const before = await balance();
    const error = await refusal(() => client.scrape(`${site.url}/playground`, { timeout: 3_000, actions: [{ type: 'wait', selector: '#never' }] }));
    expect(error.status).toBe(500);
    expect(error.message).toMatch(/^actions\.0\.selector: no visible element matched "#never" within the page's timeout/);
    expect(await balance()).toBe(before);
  });
});

describe('bad actions are 400s naming the field, nothing charged', () => {
  it('refuses unknown types, missing fields, too many actions and actions off scrape', async () => {
    const before = await balance();
    const url = `${site.url}/playground`;
    const cases: Array<[unknown[], string]> = [
      [[{ type: 'wait', milliseconds: 5 }, { type: 'hover', selector: 'a' }], 'actions.1.type: "hover" is not an action (offered: wait, click, write, press, scroll, screenshot, scrape, executeJavascript, pdf)'],
      [[{ type: 'wait', milliseconds: 5 }, { type: 'scrape' }, { type: 'scrape' }, { type: 'click' }], 'actions.3.selector: a CSS selector is required'],
      [[{ type: 'wait' }], 'actions.0: wait takes either milliseconds or selector (one of them)'],
      [[{ type: 'pdf', format: 'A7' }], 'actions.0.format: format must be one of A0, A1, A2, A3, A4, A5, A6, Letter, Legal, Tabloid, Ledger'],
      [[{ type: 'pdf', scale: 3 }], 'actions.0.scale: scale must be a number from 0.1 to 2'],
      [[{ type: 'scroll', direction: 'left' }], 'actions.0.direction: direction must be up or down'],
      [[{ type: 'executeJavascript', script: 'x'.repeat(50_001) }], 'actions.0.script: script must be at most 50000 characters'],
      [[{ type: 'click', selector: 'a', force: true }], 'actions.0.force: force is not an option of the click action'],
      [Array.from({ length: 51 }, () => ({ type: 'scrape' })), 'actions: at most 50 actions'],
      [[{ type: 'wait', milliseconds: 40_000 }, { type: 'wait', milliseconds: 30_000 }], 'actions: waitFor and the wait actions add up to 70000 ms, more than the 60000 ms allowed'],
    ];
    for (const [actions, message] of cases) {
      const error = await refusal(() => client.scrape(url, { actions: actions as never }));
      expect(error).toMatchObject({ status: 400, code: 'BAD_REQUEST' });
      expect(error.message).toBe(message);
    }
    const raw = await fetch(`${trawl.baseUrl}/v2/scrape`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url, actions: [{ type: 'click' }] }),
    });
    expect(raw.status).toBe(400);
    expect(await raw.json()).toMatchObject({ success: false, code: 'BAD_REQUEST', error: 'actions.0.selector: a CSS selector is required', details: [{ path: ['actions', 0, 'selector'] }] });
    const crawl = await refusal(() => client.startCrawl(url, { scrapeOptions: { actions: [{ type: 'scrape' }, { type: 'screenshot' }] } }));
    expect(crawl.message).toBe('scrapeOptions.actions.1.type: screenshot and pdf actions are offered by scrape only, not for the pages of a crawl or batch (as the screenshot format)');
    const batch = await refusal(() => client.startBatchScrape([url], { options: { actions: [{ type: 'pdf' }] } }));
    expect(batch.message).toMatch(/^actions\.0\.type: screenshot and pdf actions are offered by scrape only/);
    const slow = await refusal(() => client.startBatchScrape([url], { options: { actions: [{ type: 'wait', milliseconds: 40_000 }, { type: 'scrape' }] } }));
    expect(slow.message).toMatch(/^actions: waitFor and the wait actions add up to 40000 ms, which does not fit in a crawled page's time \(CRAWL_TIMEOUT_MS/);
    const headers = await refusal(() => client.scrape(url, { headers: { 'x-token': 'a' }, actions: [{ type: 'scrape' }] }));
    expect(headers.message).toMatch(/^headers: headers are sent by the plain-HTTP engine only/);
    expect(await balance()).toBe(before);
  });
});
