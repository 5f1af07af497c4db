// Shared contexts (shareContexts): the concurrent jobs of one account run as tabs of one context; nothing crosses
// accounts, each tab keeps its own limits, and the SSRF guard still sees every request of every tab.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ChromiumPool } from './chromium-pool.js';
import { FixtureSite } from './testing/fixture-site.js';
import { internalNetwork } from './testing/internal-network.js';
import { renderExecutable } from './render-executable.js';

// The binary worker-render launches (the headless shell when installed).
const CHROMIUM = renderExecutable(undefined, '/usr/bin/chromium');

const READ_PAGE = `<!doctype html><html><body><pre id="out">pending</pre><script>
  document.getElementById('out').textContent = 'seen=' + JSON.stringify({ cookie: document.cookie, local: localStorage.getItem('owner') });
</script></body></html>`;

const SET_PAGE = `<!doctype html><html><body><p id="out">pending</p><script>
  document.cookie = 'script_cookie=account-a; path=/';
  localStorage.setItem('owner', 'account-a');
  document.getElementById('out').textContent = 'stored';
</script></body></html>`;

const EMPTY = 'seen={"cookie":"","local":null}';

describe('ChromiumPool shared contexts', () => {
  const site = new FixtureSite();
  let pool: ChromiumPool;

  beforeAll(async () => {
    await site.start();
    site
      .route('/set', (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'set-cookie': 'header_cookie=account-a; Path=/; Max-Age=3600' });
        res.end(SET_PAGE);
      })
      .page('/read', READ_PAGE)
      // Answers after 300 ms, so that concurrent jobs overlap in the browser.
      .route('/slow', (req, res) => {
        setTimeout(() => res.writeHead(200, { 'content-type': 'text/html' }).end(`<html><body><p>page ${req.url}</p></body></html>`), 300);
      });
    for (let hop = 1; hop <= 12; hop++) site.redirect(`/hop/${hop}`, hop === 12 ? '/read' : `/hop/${hop + 1}`);
    pool = new ChromiumPool({ executablePath: CHROMIUM, maxContexts: 4, pagesPerBrowser: 1000, allowPrivateAddresses: true, shareContexts: true, maxRedirects: 10 });
  });

  afterAll(async () => {
    await pool?.close();
    await site.close();
  });

  it("runs an account's concurrent jobs as tabs of one context, each page its own", async () => {
    const reusedBefore = pool.stats().reusedContexts;
    const results = await Promise.all([1, 2, 3, 4].map((n) => pool.render({ url: site.url(`/slow?n=${n}`), timeoutMs: 15_000, isolationKey: 'busy' })));
    results.forEach((result, i) => expect(result.html).toContain(`page /slow?n=${i + 1}`));
    expect(pool.stats().reusedContexts - reusedBefore).toBe(3);
    expect(pool.stats().sharedContexts).toBe(1);
  });

  it("shares cookies and storage within an account, and shows none of them to another account's concurrent job", async () => {
    const stored = await pool.render({ url: site.url('/set'), timeoutMs: 15_000, isolationKey: 'account-a' });
    expect(stored.html).toContain('stored');
    const [same, other] = await Promise.all([
      pool.render({ url: site.url('/read'), timeoutMs: 15_000, isolationKey: 'account-a' }),
      pool.render({ url: site.url('/read'), timeoutMs: 15_000, isolationKey: 'account-b' }),
    ]);
    expect(same.html).toContain('seen={"cookie":"header_cookie=account-a; script_cookie=account-a","local":"account-a"}');
    expect(other.html).toContain(EMPTY);
  });

  it('gives another device its own context', async () => {
    const before = pool.stats().sharedContexts;
    const mobile = await pool.render({ url: site.url('/read'), timeoutMs: 15_000, isolationKey: 'account-a', device: 'mobile' });
    expect(mobile.html).toContain(EMPTY);
    expect(pool.stats().sharedContexts).toBe(before + 1);
  });

  it("keeps each tab's own limits: a redirect chain past the cap fails its job only", async () => {
    const [capped, neighbour] = await Promise.allSettled([
      pool.render({ url: site.url('/hop/1'), timeoutMs: 15_000, isolationKey: 'limits' }),
      pool.render({ url: site.url('/slow?n=neighbour'), timeoutMs: 15_000, isolationKey: 'limits' }),
    ]);
    expect(capped).toMatchObject({ status: 'rejected', reason: { code: 'TOO_MANY_REDIRECTS' } });
    expect(neighbour).toMatchObject({ status: 'fulfilled', value: { html: expect.stringContaining('page /slow?n=neighbour') } });
  });
});

describe('ChromiumPool SSRF guard in a shared context', () => {
  const net = internalNetwork({ 'site.test': '127.0.0.1', 'internal.test': '127.0.0.2' });
  const { outside, inside } = net;
  let pool: ChromiumPool;

  beforeAll(async () => {
    await net.start();
    inside.route('/api', (_req, res) => void res.writeHead(200, { 'content-type': 'text/plain' }).end('secret'));
    outside.page(
      '/probe',
      `<!doctype html><html><body><p id="out">probing</p><script>
        fetch('http://internal.test:${inside.portNumber}/api').then(() => 'reached', () => 'refused')
          .then((r) => { document.getElementById('out').textContent = r; });
      </script></body></html>`,
    );
    pool = new ChromiumPool({
      executablePath: CHROMIUM, maxContexts: 2, pagesPerBrowser: 100, allowPrivateAddresses: true, addressPolicy: net.policy, resolve: net.resolve,
      shareContexts: true,
    });
  });

  afterAll(async () => {
    await pool?.close();
    await net.close();
  });

  it('refuses an internal address to every tab of the shared context', async () => {
    const url = `http://site.test:${outside.portNumber}/probe`;
    const results = await Promise.all([1, 2].map(() => pool.render({ url, timeoutMs: 15_000, isolationKey: 'acct' })));
    for (const result of results) expect(result.html).toContain('refused');
    expect(pool.stats().sharedContexts).toBe(1);
    expect(inside.requests).toHaveLength(0);
  });
});
