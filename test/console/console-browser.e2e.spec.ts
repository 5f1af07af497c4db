/**
 * The console in a real browser (Chromium through playwright-core) against a real gateway on loopback: an account
 * signs in, sees its balance, creates a key and crawls a fixture page with it from the playground (validation
 * before sending, rendered Markdown, the charge), finds the call in the request log and the chart, revokes the key
 * and sees it refused; the operator creates an account and grants it credits. Crawled script — in a title, links,
 * SVG, Markdown with raw HTML — runs nothing in the playground or the log; every page passes an axe-core scan with
 * no serious violations, and is screenshotted to test-output/console/ for review.
 */
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { DEFAULT_CHROMIUM_ARGS } from '#browser';
import type { CreatedAccount } from '#billing';
import { CrawlsRepository } from '#db';
import { REPO_ROOT } from '../support/env.js';
import { ARTICLE, startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { startHarness, type Harness } from '../support/harness.js';
import { pollUntil } from '../support/poll.js';

jest.setTimeout(120_000);

const SHOTS = path.join(REPO_ROOT, 'test-output', 'console');
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const ADMIN_TOKEN = 'test-admin-token-0123456789';

/** A page that tries every way in: script in its title, javascript: links, SVG and img handlers, raw HTML as text. */
const XSS_PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8">
<title>&lt;script&gt;window.__pwned=1&lt;/script&gt;&lt;img src=x onerror=window.__pwned=11&gt; Dangerous title</title>
<script>window.__pwned=2</script></head>
<body><main><article><h1>Harmless heading <img src="x" onerror="window.__pwned=3"></h1>
<p>Trawling stories for testing: <a href="javascript:window.__pwned=4">a javascript link</a> and
<a href="JaVaScRiPt:alert(1)">another one</a>, plus ordinary words to make a paragraph the extractor keeps.</p>
<svg width="10" height="10" onload="window.__pwned=5"><circle r="5"/></svg>
<p>Raw HTML written as text: &lt;img src=x onerror="window.__pwned=6"&gt; and &lt;script&gt;window.__pwned=7&lt;/script&gt;
and &lt;svg onload="window.__pwned=8"&gt;, which a Markdown renderer must not turn back into markup.</p>
<p>A second paragraph of ordinary prose about nets, boats and the sea floor, long enough to count as content.</p>
</article></main></body></html>`;

/** Markdown as a hostile or careless converter could hand it over: raw HTML and javascript: links inside. */
const HOSTILE_MARKDOWN = [
  '# Hostile markdown',
  '<script>window.__pwned=21</script>',
  '<img src="x" onerror="window.__pwned=22">',
  '<svg onload="window.__pwned=23"><circle r="4"/></svg>',
  '<iframe src="javascript:window.__pwned=24"></iframe>',
  '[click me](javascript:window.__pwned=25)',
  '<a href="jav&#x09;ascript:window.__pwned=26">encoded</a>',
  '<form action="javascript:window.__pwned=27"><button>go</button></form>',
  '<div style="background:url(javascript:window.__pwned=28)">styled</div>',
  'Plain words stay.',
].join('\n\n');


let trawl: Harness;
let site: FixtureServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let account: CreatedAccount;
const dialogs: string[] = [];
const pageErrors: string[] = [];

async function shot(name: string): Promise<void> {
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
}

/** axe-core in the page (evaluated over the DevTools protocol, so the page's CSP still applies to everything else). */
async function accessibility(name: string): Promise<void> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE);
  const violations = await page.evaluate(async () => {
    const result = await (window as any).axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((v: any) => ({ id: v.id, impact: v.impact, nodes: v.nodes.map((n: any) => n.target.join(' ')).slice(0, 3) }));
  });
  expect({ page: name, serious: violations.filter((v: any) => v.impact === 'serious' || v.impact === 'critical') }).toEqual({ page: name, serious: [] });
}

async function visit(route: string, heading: string): Promise<void> {
  await page.getByRole('link', { name: route, exact: true }).click();
  await page.getByRole('heading', { level: 1, name: heading }).waitFor();
}

/** Elements and attributes under `selector` that could run script: script-ish tags, on* handlers, javascript: URLs. */
async function scriptableIn(selector: string): Promise<string[]> {
  return page.evaluate((sel) => {
    const found: string[] = [];
    for (const el of document.querySelectorAll(`${sel} *`)) {
      if (/^(script|iframe|frame|object|embed|svg|form|base|meta|link|style)$/i.test(el.tagName)) found.push(el.tagName);
      for (const attr of el.attributes) {
        if (/^on/i.test(attr.name) || /^\s*(javascript|vbscript|data):/i.test(attr.value.replace(/[\s\u0000-\u001f]/g, ''))) found.push(`${el.tagName} ${attr.name}=${attr.value}`);
      }
    }
    return found;
  }, selector);
}

/**
 * Nothing any vector could have set, no alert, no script loaded from anywhere, no HTML sink fed a plain string
 * (a Trusted Types violation). Reported and refused are only: images of other origins (img-src), and the handler
 * and style attributes of hostile Markdown while DOMPurify parses it in its inert document (script-src-attr,
 * style-src-attr) — the CSP refusing them there too, before the sanitiser drops them.
 */
async function expectNothingRan(): Promise<void> {
  expect(await page.evaluate(() => (window as any).__pwned)).toBeUndefined();
  expect(dialogs.filter((d) => !d.startsWith('confirm:'))).toEqual([]);
  const violations: string[] = await page.evaluate(() => (window as any).__violations ?? []);
  expect(violations.filter((v) => !/^(img-src|script-src-attr inline|style-src-attr inline)/.test(v))).toEqual([]);
}

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  site = await startFixtureServer({
    '/article': (_q, res) => void res.writeHead(200, { 'content-type': 'text/html' }).end(ARTICLE),
    '/xss': (_q, res) => void res.writeHead(200, { 'content-type': 'text/html' }).end(XSS_PAGE),
  });
  trawl = await startHarness({ AUTH_CACHE_MS: '60000' });
  account = await trawl.createAccount();
  browser = await chromium.launch({ executablePath: trawl.config.CHROMIUM_PATH, args: [...DEFAULT_CHROMIUM_ARGS] });
  context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: trawl.baseUrl });
  // Records CSP violations (a blocked script or HTML sink would show here) before any of the console's code runs.
  await context.addInitScript(() => {
    (window as any).__violations = [];
    document.addEventListener('securitypolicyviolation', (e) => (window as any).__violations.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
  page = await context.newPage();
  page.on('dialog', (dialog) => {
    dialogs.push(`${dialog.type()}:${dialog.message()}`);
    void (dialog.type() === 'confirm' ? dialog.accept() : dialog.dismiss());
  });
  page.on('pageerror', (error) => pageErrors.push(error.message));
});

afterAll(async () => {
  await browser?.close();
  await trawl?.close();
  await site?.close();
});

describe('the console in Chromium', () => {
  let newKey = '';

  it('leads a browser from / to the sign-in, and signs in with an API key to the balance', async () => {
    await page.goto(`${trawl.baseUrl}/`);
    expect(new URL(page.url()).pathname).toBe('/console/');
    await page.getByRole('heading', { name: 'Trawl console' }).waitFor();
    await accessibility('sign-in');
    await shot('01-sign-in');
    await page.getByLabel('API key').fill(account.apiKey);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(page.getByTestId('balance').textContent()).resolves.toBe('10,000 credits');
    // The key is nowhere in the browser's storage or address bar.
    expect(page.url()).not.toContain(account.apiKey);
    expect(await page.evaluate(() => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }) + document.cookie)).not.toContain(account.apiKey);
    await accessibility('overview');
    await shot('02-overview');
  });

  it('creates a key, shown once', async () => {
    await visit('API keys', 'API keys');
    await page.getByLabel('Name').fill('playground');
    await page.getByRole('button', { name: 'Create key' }).click();
    newKey = (await page.getByTestId('new-key').textContent()) ?? '';
    expect(newKey).toMatch(/^trawl_[0-9A-Za-z]{40}$/);
    await page.getByRole('cell', { name: 'playground', exact: true }).waitFor();
    await accessibility('keys');
    await shot('03-keys-created');
    // Shown once: after a reload the page lists its prefix only.
    await page.reload();
    await page.getByRole('cell', { name: 'playground', exact: true }).waitFor();
    expect(await page.content()).not.toContain(newKey);
  });

  it('calls /crawl from the playground with the new key: validation first, then the Markdown and the charge', async () => {
    await visit('API keys', 'API keys'); // the reload forgot the key: the playground is given it again by hand
    await visit('Playground', 'Playground');
    await page.getByLabel('API key').fill(newKey);
    await page.getByLabel('urls').fill('not a url');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByText('urls: "not a url" is not an http(s) URL').waitFor();
    await page.getByLabel('urls').fill('');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByText('urls is required').waitFor();
    expect(site.hits.get('/article') ?? 0).toBe(0);
    await page.getByLabel('urls').fill(`${site.url}/article`);
    await page.getByRole('button', { name: 'Send' }).click();
    await expect(page.getByTestId('answer-status').textContent()).resolves.toBe('HTTP 200');
    expect(await page.getByTestId('answer-credits').textContent()).toBe('1 credits');
    await page.locator('.markdown h1', { hasText: 'Deep sea trawling' }).waitFor();
    expect(site.hits.get('/article')).toBe(1);
    const curl = await page.locator('.snippet', { hasText: 'curl -H' }).first().textContent();
    expect(curl).toContain('$TRAWL_API_KEY');
    expect(curl).not.toContain(newKey);
    await accessibility('playground');
    await shot('04-playground-crawl');
  });

  it('shows the charge in the request log, its detail, and the chart; and a crawl in progress', async () => {
    const crawls = new CrawlsRepository(trawl.db);
    const crawlId = '5b1f6a5e-2c1e-4c4e-9a0e-3c7f0d9b1a01';
    await crawls.create({ id: crawlId, accountId: account.accountId, kind: 'site', url: `${site.url}/`, options: {}, discovered: 40, expiresAt: new Date(Date.now() + 3_600_000) });
    await crawls.start(crawlId);
    await crawls.addCounts(crawlId, { failed: 3, skipped: 7 });
    await visit('Request log', 'Request log');
    await page.getByRole('heading', { name: 'Crawls in progress' }).waitFor();
    await page.getByText('0 stored, 3 failed, 7 skipped of 40 found').waitFor();
    const row = page.locator('table.log tbody tr', { hasText: '/crawl' }).first();
    await row.waitFor();
    expect(await row.locator('td').nth(3).textContent()).toBe('1');
    await row.getByRole('button').click();
    await page.locator('.detail td.url', { hasText: `${site.url}/article` }).waitFor();
    await accessibility('request-log');
    await shot('05-request-log');
    await crawls.finish(crawlId, 'completed', null, 60_000);
    await visit('Overview', 'Overview');
    await expect(page.getByTestId('balance').textContent()).resolves.toBe('9,999 credits');
    const today = new Date().toISOString().slice(0, 10);
    const credits = page.locator('figure', { hasText: 'Credits per day' });
    await credits.locator('summary').click();
    const header = await credits.locator('thead th').allTextContents();
    const cells = await credits.locator('tr', { hasText: today }).locator('td').allTextContents();
    expect(cells[header.indexOf('/crawl') - 1]).toBe('1');
    const box = await credits.locator('canvas').boundingBox();
    expect(box!.width).toBeGreaterThan(100);
    await shot('06-overview-after-call');
  });

  it('runs nothing a crawled page carries, in the playground or in the log', async () => {
    await visit('Playground', 'Playground');
    const hostileUrl = `${site.url}/xss?q="><svg/onload=window.__pwned=9>`;
    await page.getByLabel('urls').fill(hostileUrl);
    await page.getByRole('button', { name: 'Send' }).click();
    await expect(page.getByTestId('answer-status').textContent()).resolves.toBe('HTTP 200');
    const rendered = page.locator('.markdown').first();
    await rendered.getByText('Raw HTML written as text').waitFor();
    await page.getByText('JSON', { exact: true }).click();
    await page.locator('pre.json', { hasText: 'Dangerous title' }).waitFor();
    // The rendered Markdown holds no script, no handler, no javascript: link, no frame; the JSON shows them as text.
    expect(await scriptableIn('.answer')).toEqual([]);
    expect(await page.locator('.rendered').textContent()).toContain('<script>window.__pwned=7</script>'); // shown as text
    await expectNothingRan();
    await shot('07-xss-playground');

    // Markdown with raw HTML straight from the wire (as a careless converter could emit it): sanitised all the same.
    await page.route('**/crawl?*', (route) =>
      route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify({ results: [{ url: `${site.url}/xss`, status_code: 200, markdown: HOSTILE_MARKDOWN }], credits: 1, successful_pages: 1 }) }),
    );
    try {
      await page.getByRole('button', { name: 'Send' }).click();
      await page.locator('.markdown h1', { hasText: 'Hostile markdown' }).waitFor();
      await page.locator('.markdown p', { hasText: 'Plain words stay.' }).waitFor();
      expect(await scriptableIn('.answer')).toEqual([]);
      expect(await page.locator('.markdown').first().innerHTML()).not.toMatch(/<script|<iframe|<svg|<form|style=/i);
    } finally {
      await page.unroute('**/crawl?*');
    }
    await expectNothingRan();
    await shot('08-xss-hostile-markdown');

    await visit('Request log', 'Request log');
    await page.locator('table.log tbody tr', { hasText: '/crawl' }).first().getByRole('button').click();
    await page.locator('.detail td.url', { hasText: '/xss?q=' }).waitFor();
    await expectNothingRan();
    await shot('09-xss-request-log');
  });

  it('revokes the key, which the playground then sees refused', async () => {
    await visit('API keys', 'API keys');
    await page.getByRole('button', { name: 'Revoke playground' }).click();
    await page.getByText(/^revoked /).waitFor();
    expect(dialogs.some((d) => d.startsWith('confirm:Revoke playground'))).toBe(true);
    await visit('Playground', 'Playground');
    await page.getByLabel('API key').fill(newKey);
    await page.getByLabel('urls').fill(`${site.url}/article`);
    await page.getByRole('button', { name: 'Send' }).click();
    await expect(page.getByTestId('answer-status').textContent()).resolves.toBe('HTTP 401');
    await page.locator('pre.json', { hasText: 'UNAUTHORIZED' }).waitFor();
    await shot('10-revoked-key-refused');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Your account' }).waitFor();
  });

  it('lets the operator create an account and grant it credits, and see usage and health', async () => {
    await page.getByLabel('Admin token').fill(ADMIN_TOKEN);
    await page.getByRole('button', { name: 'Sign in as operator' }).click();
    await page.getByRole('heading', { level: 1, name: 'Accounts' }).waitFor();
    await page.getByLabel('Name').fill('Browser Co');
    await page.getByLabel('Plan', { exact: true }).selectOption('developer');
    await page.getByRole('button', { name: 'Create account' }).click();
    expect(await page.getByTestId('new-account-key').textContent()).toMatch(/^trawl_/);
    const row = page.locator('tr[data-account="Browser Co"]');
    await expect(row.getByTestId('account-balance').textContent()).resolves.toBe('100,000');
    await row.getByLabel('Credits to grant to Browser Co').fill('2500');
    await row.getByRole('button', { name: 'Grant' }).click();
    await pollUntil(async () => (await row.getByTestId('account-balance').textContent()) === '102,500', 'the granted balance');
    const created = (await trawl.admin.list()).find((a) => a.name === 'Browser Co')!;
    expect(created.balance).toBe(102_500);
    await accessibility('operator-accounts');
    await shot('11-operator-accounts');
    for (const [link, heading, name] of [
      ['Plans', 'Plans', '12-operator-plans'],
      ['Usage', 'Usage across accounts', '13-operator-usage'],
      ['Health', 'Health', '14-operator-health'],
    ] as const) {
      await visit(link, heading);
      await page.locator('main table:visible').first().waitFor();
      await accessibility(name);
      await shot(name);
    }
    expect(await page.locator('dd', { hasText: /^\d+$/ }).first().textContent()).not.toBe('0'); // worker-http is seen
  });

  it('threw no error in any page', () => {
    expect(pageErrors).toEqual([]);
  });
});
