/**
 * `/headful-browser` end to end: headed Chromium on the worker's own Xvfb, behind loopback "residential" proxies
 * per country (proxy-chain, each exiting from its own loopback address so the fixture site can tell them apart).
 */
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { ChromiumPool } from '#browser';
import { HEADFUL_POOL, XvfbDisplay } from '#browser';
import { screenshotDir } from '#storage';
import { WorkerRegistry } from '#queue';
import { ScreenshotCleaner } from '#apps/gateway/src/headful-browser/headful.providers.js';
import { ARTICLE, html, startFixtureServer, type FixtureServer } from './support/fixture-server.js';
import { key, startHarness, type Harness } from './support/harness.js';
import { pollUntil } from './support/poll.js';
import { startRecordingProxy, type RecordingProxy } from './support/recording-proxy.js';
import { tamperedLink } from './support/signed-links.js';

jest.setTimeout(90_000);

const BLOCKED_EXIT = '127.0.0.2';
const CHALLENGE = `<!doctype html><html><head><title>Just a moment...</title></head><body>
  <form id="challenge-form" action="/guarded?__cf_chl_f_tk=abc" method="POST"></form>
  <p>Checking your browser before accessing the site.</p></body></html>`;
const FINGERPRINT = html(`<pre id="fp">pending</pre><script>
  document.getElementById('fp').textContent = JSON.stringify({
    webdriver: navigator.webdriver, ua: navigator.userAgent, plugins: navigator.plugins.length,
    languages: navigator.languages, language: navigator.language, platform: navigator.platform,
    uaData: navigator.userAgentData ? { platform: navigator.userAgentData.platform, brands: navigator.userAgentData.brands.map((b) => b.brand + '/' + b.version) } : null,
    timezone: Intl.DateTimeFormat().resolvedOptions().timeZone, width: innerWidth, height: innerHeight,
  });
</script>`);
const TALL = html(`<div style="height:3000px;background:linear-gradient(red,blue)"><p>Tall page for a full-page screenshot with enough text.</p></div>`);

let trawl: Harness;
let site: FixtureServer;
let usBlocked: RecordingProxy;
let usOpen: RecordingProxy;
let de: RecordingProxy;
const exits: Array<{ path: string; from: string }> = [];
const fingerprintHeaders: Array<{ ua: string; hints: string; lang: string }> = [];

const balanceOf = async (accountId: string) => (await trawl.admin.report(accountId)).account.balance;
const q = (url: string) => encodeURIComponent(url);

beforeAll(async () => {
  site = await startFixtureServer({
    '/article': (_q, res) => void res.writeHead(200, { 'content-type': 'text/html' }).end(ARTICLE),
    '/guarded': (req, res) => {
      const from = req.socket.remoteAddress ?? '';
      exits.push({ path: '/guarded', from });
      if (from.endsWith(BLOCKED_EXIT)) return void res.writeHead(403, { 'content-type': 'text/html' }).end(CHALLENGE);
      res.writeHead(200, { 'content-type': 'text/html' }).end(ARTICLE.replace('Deep sea trawling</h1>', 'Guarded content</h1>'));
    },
    '/always-blocked': (_q, res) => void res.writeHead(403, { 'content-type': 'text/html' }).end(CHALLENGE),
    '/fingerprint': (req, res) => {
      fingerprintHeaders.push({ ua: String(req.headers['user-agent']), hints: String(req.headers['sec-ch-ua']), lang: String(req.headers['accept-language']) });
      res.writeHead(200, { 'content-type': 'text/html' }).end(FINGERPRINT);
    },
    '/to-metadata': (_q, res) => void res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end(),
    '/tall': (_q, res) => void res.writeHead(200, { 'content-type': 'text/html' }).end(TALL),
  });
  [usBlocked, usOpen, de] = await Promise.all([
    startRecordingProxy({ localAddress: BLOCKED_EXIT }),
    startRecordingProxy({ localAddress: '127.0.0.3', credentials: { username: 'resi-user', password: 'resi-secret-pass' } }),
    startRecordingProxy({ localAddress: '127.0.0.4' }),
  ]);
  trawl = await startHarness({
    STANDALONE_WORKERS: 'headful',
    RESIDENTIAL_PROXIES: `us=${usBlocked.url}|${usOpen.url},de=${de.url}`,
    RESIDENTIAL_PROXY_REST_MS: '600000',
    HEADFUL_ATTEMPTS: '3',
    HEADFUL_MAX_URLS: '3',
    HEADFUL_TIMEOUT_MS: '40000',
    // Long enough to fetch the link after a headed render on a loaded 2-core CI machine; the test then waits it out.
    SCREENSHOT_URL_TTL_MS: '10000',
    SCREENSHOT_SIGNING_KEY: 'test-screenshot-signing-key-0123456789abcdef',
  });
  // The worker announces itself to /health before the endpoint accepts work.
  const registry = trawl.app.get(WorkerRegistry, { strict: false });
  await pollUntil(async () => (await registry.seen('worker-headful')) > 0, 'the worker-headful heartbeat');
});

afterAll(async () => {
  await trawl?.close();
  await site?.close();
  await Promise.all([usBlocked?.close(), usOpen?.close(), de?.close()]);
});

describe('GET /headful-browser', () => {
  it('retries a page blocked through one proxy through another, and charges 50 only for the success', async () => {
    const account = await trawl.createAccount();
    const [exitsBefore, blockedBefore, openBefore] = [exits.length, usBlocked.carried.length, usOpen.carried.length];
    const res = await trawl.get(`/headful-browser?urls=${q(`${site.url}/guarded`)}`, key(account.apiKey));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'success', credits_used: 50, credits_remaining: 10_000 - 50 });
    expect(res.body.data).toHaveLength(1);
    expect(res.body.data[0]).toMatchObject({ url: `${site.url}/guarded`, blocked: false });
    expect(res.body.data[0].markdown).toContain('Guarded content');
    expect(Object.keys(res.body.data[0]).sort()).toEqual(['blocked', 'egress', 'markdown', 'url']);
    expect(res.body.data[0].egress).toEqual({ via: 'proxy', country: 'us' });
    // First through the exit the site refuses, then through the other one (whose credentials were passed on).
    expect(exits.slice(exitsBefore).map((e) => e.from.replace('::ffff:', ''))).toEqual([BLOCKED_EXIT, '127.0.0.3']);
    expect(usBlocked.carried.length).toBeGreaterThan(blockedBefore);
    expect(usOpen.carried.length).toBeGreaterThan(openBefore);
    expect(JSON.stringify(res.body)).not.toContain('resi-secret-pass');
    expect(await balanceOf(account.accountId)).toBe(10_000 - 50);
  });

  it('marks a page blocked through every proxy `blocked: true` at 0 credits, next to a success', async () => {
    const account = await trawl.createAccount();
    const urls = [`${site.url}/always-blocked`, `${site.url}/article`].map(q).join(',');
    const res = await trawl.get(`/headful-browser?urls=${urls}&output_format=page_text`, key(account.apiKey));
    expect(res.status).toBe(200);
    expect(res.body.data[0]).toMatchObject({ url: `${site.url}/always-blocked`, blocked: true });
    expect(res.body.data[0].error).toMatch(/^UPSTREAM_BLOCKED/);
    expect(res.body.data[0]).not.toHaveProperty('page_text');
    expect(res.body.data[1]).toMatchObject({ blocked: false });
    expect(res.body.data[1].page_text).toContain('Trawling is a method of fishing');
    expect(res.body).toMatchObject({ credits_used: 50, credits_remaining: 10_000 - 50 });
    expect(site.hits.get('/always-blocked')).toBe(3);
  });

  it('fails a malformed entry among the urls on its own (INVALID_URL, not blocked, 0 credits) next to a success', async () => {
    const account = await trawl.createAccount();
    const res = await trawl.get(`/headful-browser?urls=${q('not a url')},${q(`${site.url}/article`)}`, key(account.apiKey));
    expect(res.status).toBe(200);
    expect(res.body.data[0]).toEqual({ url: 'not a url', blocked: false, egress: expect.any(Object), error: expect.stringMatching(/^INVALID_URL: /) });
    expect(res.body.data[1].markdown).toContain('Trawling is a method of fishing');
    expect(res.body).toMatchObject({ status: 'success', credits_used: 50, credits_remaining: 10_000 - 50 });
  });

  it('refuses a host name that does not resolve here instead of letting the residential proxy resolve it (0 credits)', async () => {
    const account = await trawl.createAccount();
    const res = await trawl.get(`/headful-browser?urls=${q('http://trawl-unresolvable.invalid/')}&country=de`, key(account.apiKey));
    expect(res.status).toBe(200);
    expect(res.body.data[0].error).toMatch(/^DNS_FAILED/);
    expect(res.body.credits_used).toBe(0);
    expect([...usBlocked.carried, ...usOpen.carried, ...de.carried].filter((c) => c.hostname.endsWith('.invalid'))).toEqual([]);
    expect(await balanceOf(account.accountId)).toBe(10_000);
  });

  it('returns exactly the one asked-for format', async () => {
    const account = await trawl.createAccount();
    const url = q(`${site.url}/article`);
    const expected: Record<string, RegExp> = {
      markdown: /^# Deep sea trawling/m,
      enhanced_html: /<h1>Deep sea trawling<\/h1>/,
      raw_html: /<nav>.*Home/s,
      page_text: /Trawling is a method of fishing/,
    };
    for (const [format, pattern] of Object.entries(expected)) {
      const res = await trawl.get(`/headful-browser?urls=${url}&output_format=${format}&country=de`, key(account.apiKey));
      expect(res.status).toBe(200);
      expect(Object.keys(res.body.data[0]).sort()).toEqual(['blocked', 'egress', format, 'url'].sort());
      expect(res.body.data[0].egress).toEqual({ via: 'proxy', country: 'de' });
      expect(res.body.data[0][format]).toMatch(pattern);
    }
    expect(await balanceOf(account.accountId)).toBe(10_000 - 4 * 50);
  });

  it('shows no automation tells; locale, timezone and languages match the proxy country', async () => {
    const account = await trawl.createAccount();
    const before = de.carried.length;
    const res = await trawl.get(`/headful-browser?urls=${q(`${site.url}/fingerprint`)}&output_format=page_text&country=de`, key(account.apiKey));
    expect(res.status).toBe(200);
    const fp = JSON.parse(/\{.*\}/s.exec(res.body.data[0].page_text)![0]) as Record<string, unknown>;
    expect(fp.webdriver).toBe(false);
    expect(fp.ua).not.toMatch(/Headless/i);
    // The browser as it is: the real Chromium version and platform, in the UA, the client hints and navigator.
    const major = /(\d+)\./.exec(execFileSync(trawl.config.CHROMIUM_PATH, ['--version']).toString())![1];
    expect(fp.ua).toMatch(new RegExp(`\\(X11; Linux x86_64\\).* Chrome/${major}\\.`));
    expect(fp.platform).toBe('Linux x86_64');
    expect(fp.uaData).toEqual({ platform: 'Linux', brands: expect.arrayContaining([`Chromium/${major}`]) });
    expect(fingerprintHeaders.at(-1)).toEqual({ ua: fp.ua, hints: expect.stringContaining(`"Chromium";v="${major}"`), lang: 'de-DE,de;q=0.9,en;q=0.8' });
    expect(fp.plugins).toBeGreaterThan(0);
    expect(fp.languages).toEqual(['de-DE', 'de', 'en']);
    expect(fp.language).toBe('de-DE');
    expect(fp.timezone).toBe('Europe/Berlin');
    expect(fp.width).toBeGreaterThanOrEqual(1280);
    expect(de.carried.length).toBeGreaterThan(before);
  });

  it('returns the full-page screenshot as a signed link that works, refuses tampering, then expires and is cleaned up', async () => {
    const account = await trawl.createAccount();
    const res = await trawl.get(`/headful-browser?urls=${q(`${site.url}/tall`)}&screenshot=true&output_format=page_text`, key(account.apiKey));
    expect(res.status).toBe(200);
    const link: string = res.body.data[0].screenshot;
    expect(link.startsWith(`${trawl.baseUrl}/screenshots/`)).toBe(true);
    const png = await fetch(link);
    expect(png.status).toBe(200);
    expect(png.headers.get('content-type')).toBe('image/png');
    const bytes = Buffer.from(await png.arrayBuffer());
    expect(bytes.subarray(1, 4).toString('ascii')).toBe('PNG');
    expect(bytes.readUInt32BE(20)).toBeGreaterThanOrEqual(3000);
    expect((await fetch(tamperedLink(link))).status).toBe(403);
    const storeKey = /\/screenshots\/([^?]+)/.exec(link)![1];
    const file = path.join(screenshotDir(trawl.config.DATA_DIR), storeKey);
    expect(existsSync(file)).toBe(true);
    const expired = await pollUntil(async () => {
      const r = await fetch(link);
      const body = (await r.json().catch(() => null)) as { error?: { message: string } } | null;
      return r.status === 403 && body?.error?.message.includes('expired') ? body : null;
    }, 'the link to expire', 25_000, 250);
    expect(expired.error!.message).toBe('The screenshot link has expired');
    await pollUntil(async () => (await trawl.app.get(ScreenshotCleaner).sweep(), !existsSync(file)), 'the cleaner to delete the file', 10_000, 250);
  });

  it('refuses a blocked address before any proxy sees it (0 credits)', async () => {
    const account = await trawl.createAccount();
    const carriedBefore = [...usBlocked.carried, ...usOpen.carried].length;
    const res = await trawl.get(`/headful-browser?urls=${q('http://169.254.169.254/latest/meta-data/')}`, key(account.apiKey));
    expect(res.status).toBe(200);
    expect(res.body.data[0]).toMatchObject({ blocked: false });
    expect(res.body.data[0].error).toMatch(/^BLOCKED_ADDRESS/);
    expect(res.body).toMatchObject({ credits_used: 0, credits_remaining: 10_000 });
    const carried = [...usBlocked.carried, ...usOpen.carried];
    expect(carried.length).toBe(carriedBefore);
    expect(carried.some((c) => c.hostname === '169.254.169.254')).toBe(false);
  });

  it('refuses a redirect to a blocked address: the proxy carries the first hop, never the refused one', async () => {
    const account = await trawl.createAccount();
    const res = await trawl.get(`/headful-browser?urls=${q(`${site.url}/to-metadata`)}&country=de`, key(account.apiKey));
    expect(res.status).toBe(200);
    expect(res.body.data[0].error).toMatch(/^BLOCKED_ADDRESS/);
    expect(res.body.data[0].blocked).toBe(false);
    expect(res.body.credits_used).toBe(0);
    expect(site.hits.get('/to-metadata')).toBeGreaterThan(0);
    expect(de.carried.some((c) => c.hostname === '169.254.169.254')).toBe(false);
  });

  it('recovers from a killed Chromium and from a killed Xvfb', async () => {
    const account = await trawl.createAccount();
    const pool = trawl.app.get<ChromiumPool>(HEADFUL_POOL, { strict: false });
    const xvfb = trawl.app.get(XvfbDisplay, { strict: false });
    const url = q(`${site.url}/article`);
    expect(pool.browserPids().length).toBeGreaterThan(0);
    const launches = pool.stats().launches;
    for (const pid of pool.browserPids()) process.kill(pid, 'SIGKILL');
    await pollUntil(() => pool.stats().browsers === 0, 'the pool to notice the dead browser');
    const afterBrowserKill = await trawl.get(`/headful-browser?urls=${url}`, key(account.apiKey));
    expect(afterBrowserKill.body.data[0].markdown).toContain('Deep sea trawling');
    expect(pool.stats().launches).toBe(launches + 1);

    const starts = xvfb.starts;
    process.kill(xvfb.pid!, 'SIGKILL');
    await pollUntil(() => xvfb.starts > starts && xvfb.pid !== undefined, 'the supervisor to restart Xvfb');
    await pollUntil(() => pool.stats().browsers === 0, 'Chromium on the dead display to go');
    const afterDisplayKill = await trawl.get(`/headful-browser?urls=${url}`, key(account.apiKey));
    expect(afterDisplayKill.body.data[0].markdown).toContain('Deep sea trawling');
    expect(afterDisplayKill.body.credits_used).toBe(50);
  });

  it('refuses bad input with a 400 naming the parameter, before any charge', async () => {
    const account = await trawl.createAccount();
    const url = q(`${site.url}/article`);
    const cases: Array<[string, RegExp]> = [
      ['', /^urls is required/],
      [`urls=${url}&output_format=pdf`, /^output_format must be exactly one of markdown, enhanced_html, raw_html, page_text$/],
      [`urls=${url}&output_format=markdown,raw_html`, /^output_format must be exactly one of/],
      [`urls=${url}&country=xx`, /^country must be an ISO 3166-1 alpha-2 country code/],
      [`urls=${url}&screenshot=yes`, /^screenshot must be true or false$/],
      [`urls=${['a', 'b', 'c', 'd'].map((h) => q(`https://${h}.example/`)).join(',')}`, /^urls has 4 URLs; the maximum is 3 per request$/],
      ['urls=ftp%3A%2F%2Fx.example%2F', /^urls: "ftp:\/\/x.example\/" must use http or https$/],
      [`urls=${q('not a url,ftp://x.example/')}`, /^urls: "not a url" is not a valid absolute URL/],
    ];
    for (const [query, message] of cases) {
      const res = await trawl.get(`/headful-browser?${query}`, key(account.apiKey));
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('INVALID_PARAMETER');
      expect(res.body.error.message).toMatch(message);
    }
    expect((await trawl.get(`/headful-browser?urls=${url}`)).status).toBe(401);
    expect(await balanceOf(account.accountId)).toBe(10_000);
  });

  it('a country named that no residential proxy serves: 500 PROXY_UNAVAILABLE (the service is unavailable for it), 0 credits', async () => {
    const account = await trawl.createAccount();
    const before = site.hits.get('/article') ?? 0;
    const res = await trawl.get(`/headful-browser?urls=${q(`${site.url}/article`)}&country=jp`, key(account.apiKey));
    expect(res.status).toBe(500);
    expect(res.body.error).toEqual({ code: 'PROXY_UNAVAILABLE', message: 'No residential proxy serves country "jp" on this server (configured: de, us); nothing was fetched or charged' });
    expect(site.hits.get('/article') ?? 0).toBe(before);
    expect(await balanceOf(account.accountId)).toBe(10_000);
  });
});
