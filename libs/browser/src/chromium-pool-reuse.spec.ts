// Context reuse between jobs of one isolation key: nothing of one job is visible to the next (same key or not), no
// context crosses keys, and the SSRF guard decides afresh for every job of a reused context.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ChromiumPool } from './chromium-pool.js';
import { FixtureSite } from './testing/fixture-site.js';
import { internalNetwork } from './testing/internal-network.js';
import { renderExecutable } from './render-executable.js';

// The binary worker-render launches (the headless shell when installed).
const CHROMIUM = renderExecutable(undefined, '/usr/bin/chromium');

/** What /read shows: the cookie and the localStorage / sessionStorage / IndexedDB state the page can see. */
const READ_PAGE = `<!doctype html><html><body><pre id="out">pending</pre><script>
  const dbs = indexedDB.databases ? indexedDB.databases() : Promise.resolve([]);
  dbs.then((list) => {
    document.getElementById('out').textContent = 'seen=' + JSON.stringify({
      cookie: document.cookie, local: localStorage.getItem('owner'), session: sessionStorage.getItem('owner'),
      idb: list.map((d) => d.name),
    });
  });
</script></body></html>`;

const SET_PAGE = `<!doctype html><html><body><p id="out">pending</p><script>
  document.cookie = 'script_cookie=account-a; path=/';
  localStorage.setItem('owner', 'account-a');
  sessionStorage.setItem('owner', 'account-a');
  const open = indexedDB.open('account-a-db');
  open.onsuccess = () => { open.result.close(); document.getElementById('out').textContent = 'stored'; };
</script></body></html>`;

const EMPTY = 'seen={"cookie":"","local":null,"session":null,"idb":[]}';

describe('ChromiumPool context reuse and isolation', () => {
  const site = new FixtureSite();
  let pool: ChromiumPool;

  beforeAll(async () => {
    await site.start();
    site
      .route('/set', (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'set-cookie': 'header_cookie=account-a; Path=/; Max-Age=3600' });
        res.end(SET_PAGE);
      })
      .page('/read', READ_PAGE);
    pool = new ChromiumPool({ executablePath: CHROMIUM, maxContexts: 2, pagesPerBrowser: 100, allowPrivateAddresses: true, reuseContexts: true });
  });

  afterAll(async () => {
    await pool?.close();
    await site.close();
  });

  const cookieHeaders = (): (string | undefined)[] => site.requests.filter((r) => r.path === '/read').map((r) => r.headers.cookie);

  it('stores state in job A, and shows none of it to a job of another account', async () => {
    const stored = await pool.render({ url: site.url('/set'), timeoutMs: 15_000, isolationKey: 'account-a' });
    expect(stored.html).toContain('stored');
    const reusedBefore = pool.stats().reusedContexts;

    const other = await pool.render({ url: site.url('/read'), timeoutMs: 15_000, isolationKey: 'account-b' });
    expect(other.html).toContain(EMPTY);
    expect(pool.stats().reusedContexts).toBe(reusedBefore); // account-a's context was not handed to account-b
    expect(cookieHeaders()).toEqual([undefined]);
  });

  it('reuses the context for the same account, reset: no cookie, storage or IndexedDB of the earlier job', async () => {
    await pool.render({ url: site.url('/set'), timeoutMs: 15_000, isolationKey: 'account-a' });
    const reusedBefore = pool.stats().reusedContexts;
    const again = await pool.render({ url: site.url('/read'), timeoutMs: 15_000, isolationKey: 'account-a' });
    expect(pool.stats().reusedContexts).toBe(reusedBefore + 1);
    expect(again.html).toContain(EMPTY);
    expect(cookieHeaders().every((cookie) => cookie === undefined)).toBe(true);
  });

  it('never reuses a context for a job without an isolation key', async () => {
    await pool.render({ url: site.url('/set'), timeoutMs: 15_000 });
    const reusedBefore = pool.stats().reusedContexts;
    const next = await pool.render({ url: site.url('/read'), timeoutMs: 15_000 });
    expect(next.html).toContain(EMPTY);
    expect(pool.stats().reusedContexts).toBe(reusedBefore);
  });

  it('keeps at most maxContexts reset contexts', async () => {
    for (const key of ['k1', 'k2', 'k3', 'k4']) await pool.render({ url: site.url('/read'), timeoutMs: 15_000, isolationKey: key });
    expect(pool.stats().idleContexts).toBeLessThanOrEqual(2);
  });
});

describe('ChromiumPool SSRF guard in a reused context', () => {
  const net = internalNetwork({ 'site.test': '127.0.0.1', 'flip.test': '127.0.0.1' });
  const { outside, inside, answers } = net;
  let pool: ChromiumPool;

  beforeAll(async () => {
    await net.start();
    const api = (_req: unknown, res: import('node:http').ServerResponse): void => {
      res.writeHead(200, { 'content-type': 'text/plain', 'cache-control': 'no-store' });
      res.end('api');
    };
    outside.route('/api', api);
    inside.route('/api', api);
    outside.page(
      '/probe',
      `<!doctype html><html><body><p id="out">probing</p><script>
        fetch('http://flip.test:${outside.portNumber}/api').then(() => 'reached', () => 'refused')
          .then((r) => { document.getElementById('out').textContent = r; });
      </script></body></html>`,
    );
    pool = new ChromiumPool({
      executablePath: CHROMIUM, maxContexts: 1, pagesPerBrowser: 100, allowPrivateAddresses: true, addressPolicy: net.policy, resolve: net.resolve,
      reuseContexts: true,
    });
  });

  afterAll(async () => {
    await pool?.close();
    await net.close();
  });

  it('checks a host again for the next job: a name rebound to an internal address is refused, old connections are not reused', async () => {
    const url = `http://site.test:${outside.portNumber}/probe`;
    const first = await pool.render({ url, timeoutMs: 15_000, isolationKey: 'acct' });
    expect(first.html).toContain('reached');
    expect(outside.hits('/api')).toBe(1);

    answers.set('flip.test', '127.0.0.2'); // DNS rebinding between two jobs of the same account
    const reusedBefore = pool.stats().reusedContexts;
    const second = await pool.render({ url, timeoutMs: 15_000, isolationKey: 'acct' });
    expect(pool.stats().reusedContexts).toBe(reusedBefore + 1);
    expect(second.html).toContain('refused');
    expect(outside.hits('/api')).toBe(1); // no keep-alive connection or tunnel pinned to the old answer served it
    expect(inside.requests).toHaveLength(0);
  });
});
