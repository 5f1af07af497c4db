// How long a render waits after `load`: content a page fetches after load (from the load handler, a short timer or
// a chain of fetches) is waited for; a page quiet since load is not held for the full network-idle window.
import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ChromiumPool } from './chromium-pool.js';
import { FixtureSite, TINY_PNG } from './testing/fixture-site.js';
import { renderExecutable } from './render-executable.js';

// The binary worker-render launches (the headless shell when installed).
const CHROMIUM = renderExecutable(undefined, '/usr/bin/chromium');

/** Answers after `ms` (a slow API), with a JSON body. */
function later(ms: number, body: unknown): (req: unknown, res: ServerResponse) => void {
  return (_req, res) => {
    setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body)), ms);
  };
}

const page = (script: string): string =>
  `<!doctype html><html><body><main id="app"><p>loading</p></main><script>
   const show = (text) => { document.getElementById('app').insertAdjacentHTML('beforeend', '<p class="got">' + text + '</p>'); };
   ${script}</script></body></html>`;

describe.each([
  ['a context per job', false],
  ['tabs of a shared context', true],
])('ChromiumPool settling after load (%s)', (_name, shareContexts) => {
  const site = new FixtureSite();
  let pool: ChromiumPool;
  const render = (path: string, extra: { networkIdleMs?: number; settleCapMs?: number } = {}) =>
    pool.render({ url: site.url(path), timeoutMs: 15_000, isolationKey: 'acct', ...extra });

  beforeAll(async () => {
    await site.start();
    site
      .page('/static', '<!doctype html><html><body><article><h1>Static</h1><p>Nothing fetched after load.</p></article></body></html>')
      .route('/api/late', later(150, 'late-content'))
      .page('/on-load', page(`addEventListener('load', () => fetch('/api/late').then(r => r.json()).then(show));`))
      .route('/api/timed', later(50, 'timer-content'))
      .page('/short-timer', page(`addEventListener('load', () => setTimeout(() => fetch('/api/timed').then(r => r.json()).then(show), 50));`))
      .route('/api/first', later(100, '/api/second'))
      .route('/api/second', later(100, 'chained-content'))
      // The second fetch starts 300 ms after the first answered: longer than the brief window of a quiet page.
      .page(
        '/chained',
        page(`addEventListener('load', () => fetch('/api/first').then(r => r.json()).then((next) =>
          new Promise((ok) => setTimeout(ok, 300)).then(() => fetch(next)).then(r => r.json()).then(show)));`),
      )
      // The load handler keeps the main thread busy (a long task, as hydration can be) for longer than the brief
      // window, then fetches: a timer in the worker would call the page settled before the fetch started.
      .route('/api/after-work', later(50, 'after-long-task'))
      .page(
        '/long-task',
        page(`addEventListener('load', () => setTimeout(() => { const end = Date.now() + 400; while (Date.now() < end); fetch('/api/after-work').then(r => r.json()).then(show); }, 0));`),
      )
      // A fetch started while the document parses and still running at load.
      .route('/api/slow', later(400, 'in-flight-at-load'))
      .page('/busy-at-load', page(`fetch('/api/slow').then(r => r.json()).then(show);`))
      // After load: a favicon (answered slowly) and a script the page's Content-Security-Policy refuses. Neither can
      // change the document.
      .route('/icon.png', (_req, res) => {
        setTimeout(() => res.writeHead(200, { 'content-type': 'image/png' }).end(TINY_PNG), 100);
      })
      .route('/refused-after-load', (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': "script-src 'self' 'unsafe-inline'" });
        res.end(`<!doctype html><html><head><link rel="icon" href="/icon.png"></head><body><article><h1>Done at load</h1></article>
          <script>addEventListener('load', () => { const s = document.createElement('script'); s.src = 'http://refused.test/ads.js'; document.head.append(s); });</script>
          </body></html>`);
      });
    pool = new ChromiumPool({ executablePath: CHROMIUM, maxContexts: 2, pagesPerBrowser: 100, allowPrivateAddresses: true, shareContexts, reuseContexts: true });
  });

  afterAll(async () => {
    await pool?.close();
    await site.close();
  });

  it('waits for content fetched from the load handler', async () => {
    const result = await render('/on-load');
    expect(result.html).toContain('<p class="got">late-content</p>');
    expect(result.networkQuiet).toBe(true);
  });

  it('waits for a fetch started from a short timer after load', async () => {
    const result = await render('/short-timer');
    expect(result.html).toContain('<p class="got">timer-content</p>');
  });

  it('waits for scripts still running after load, and the content they fetch', async () => {
    const result = await render('/long-task');
    expect(result.html).toContain('<p class="got">after-long-task</p>');
  });

  it('waits for a chain of fetches with a pause between them once the page is fetching', async () => {
    const result = await render('/chained', { networkIdleMs: 1_500 });
    expect(result.html).toContain('<p class="got">chained-content</p>');
    expect(site.hits('/api/second')).toBeGreaterThanOrEqual(1);
  });

  it('waits for a request in flight at load', async () => {
    const result = await render('/busy-at-load');
    expect(result.html).toContain('<p class="got">in-flight-at-load</p>');
  });

  it('holds a page quiet since load for the brief window only, and an active page for the full one', async () => {
    const idle = 2_000;
    const quiet = await render('/static', { networkIdleMs: idle, settleCapMs: 5_000 });
    expect(quiet.networkQuiet).toBe(true);
    expect(quiet.timings.settleMs).toBeLessThan(idle);
    const active = await render('/on-load', { networkIdleMs: idle, settleCapMs: 5_000 });
    expect(active.networkQuiet).toBe(true);
    expect(active.timings.settleMs).toBeGreaterThanOrEqual(idle);
  });

  it('does not count a favicon or a script refused by the page\'s CSP after load as the page fetching content', async () => {
    const idle = 2_000;
    const result = await render('/refused-after-load', { networkIdleMs: idle, settleCapMs: 5_000 });
    expect(result.html).toContain('Done at load');
    expect(result.networkQuiet).toBe(true);
    expect(result.timings.settleMs).toBeLessThan(idle);
  });
});
