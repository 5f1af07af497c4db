// Kept tabs (reuseTabs, with shareContexts): a key's next job navigates the tab of its previous one. Each job still
// gets its own settings, a failed job's tab is never kept, a kept tab runs no script while it waits, and no tab ever
// serves another key.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { DEVICE_PROFILES } from '#contracts';
import { pollUntil } from '#test/support/poll.js';
import type { DnsResolver } from '#fetch';
import { ChromiumPool } from './chromium-pool.js';
import { FixtureSite, TINY_PNG } from './testing/fixture-site.js';
import { renderExecutable } from './render-executable.js';

// The binary worker-render launches (the headless shell when installed).
const CHROMIUM = renderExecutable(undefined, '/usr/bin/chromium');

/** No real DNS: `*.test` names are loopback (two names = two sites, so a kept tab changes renderer process). */
const fakeResolve: DnsResolver = async (hostname) => {
  if (hostname.endsWith('.test')) return [{ address: '127.0.0.1', family: 4 }];
  throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
};

const ENV_PAGE = `<!doctype html><html><body><img src="/pixel.png"><script>
  const o = Intl.DateTimeFormat().resolvedOptions();
  document.body.insertAdjacentHTML('beforeend', '<pre id=' + '"env">' + JSON.stringify({ tz: o.timeZone, lang: navigator.language,
    session: sessionStorage.getItem('owner'), name: window.name, ua: navigator.userAgent }) + '</pre>');
</script></body></html>`;

const MARK_PAGE = `<!doctype html><html><body><p>marked</p><script>
  sessionStorage.setItem('owner', 'key-a'); window.name = 'key-a';
</script></body></html>`;

/** The JSON the env page printed. */
interface Env {
  tz: string;
  lang: string;
  session: string | null;
  name: string;
  ua: string;
}

function env(html: string): Env {
  const match = /<pre id="env">([^<]*)<\/pre>/.exec(html);
  if (!match) throw new Error(`no env in ${html.slice(0, 200)}`);
  return JSON.parse(match[1].replaceAll('&quot;', '"')) as Env;
}

/** Polls `condition` until it holds, failing after `timeoutMs`. */
async function until(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('ChromiumPool kept tabs', () => {
  const site = new FixtureSite();
  let pool: ChromiumPool;
  const render = (path: string, isolationKey: string, extra: Record<string, unknown> = {}) =>
    pool.render({ url: site.url(path), timeoutMs: 15_000, isolationKey, ...extra });

  beforeAll(async () => {
    await site.start();
    site
      .page('/env', ENV_PAGE)
      .page('/env-two', ENV_PAGE)
      .page('/env-three', ENV_PAGE)
      .route('/pixel.png', (_q, r) => r.writeHead(200, { 'content-type': 'image/png' }).end(TINY_PNG))
      .page('/mark', MARK_PAGE)
      .page('/tick', 'ok', 200, 'text/plain')
      .page('/ticker', `<!doctype html><html><body><p>ticking</p><script>setInterval(() => fetch('/tick'), 20);</script></body></html>`)
      .page('/slow-api', '[]', 200, 'application/json');
    for (let hop = 1; hop <= 12; hop++) site.redirect(`/hop/${hop}`, hop === 12 ? '/env' : `/hop/${hop + 1}`);
    pool = new ChromiumPool({ executablePath: CHROMIUM, maxContexts: 2, pagesPerBrowser: 1000, allowPrivateAddresses: true, shareContexts: true, resolve: fakeResolve });
  });

  afterAll(async () => {
    await pool?.close();
    await site.close();
  });

  // Kept tabs are few per browser (maxContexts): each test starts once the earlier tests' tabs have expired.
  beforeEach(() => until(() => pool.stats().keptTabs === 0));

  it("reuses a key's tab for its next job, which gets its own time zone, language and resource blocking", async () => {
    const fresh = env((await render('/env', 'fresh-key')).html);
    const before = pool.stats().reusedTabs;
    const pixels = site.hits('/pixel.png');
    const first = env((await render('/env', 'key-z', { timezoneId: 'Asia/Tokyo', locale: 'ja-JP', acceptLanguage: 'ja-JP,ja;q=0.9', blockResources: false })).html);
    expect(first.tz).toBe('Asia/Tokyo');
    expect(first.lang).toBe('ja-JP');
    expect(site.hits('/pixel.png')).toBe(pixels + 1);
    const second = env((await render('/env', 'key-z')).html);
    expect(pool.stats().reusedTabs).toBe(before + 1);
    expect(second.tz).toBe(fresh.tz);
    expect(second.lang).toBe(fresh.lang);
    expect(site.hits('/pixel.png')).toBe(pixels + 1); // blocked again, as by default
  });

  it("keeps the job's language, user agent and headers when a kept tab goes to another site", async () => {
    const onSite = (host: string) => `http://${host}:${site.portNumber}`;
    await pool.render({ url: `${onSite('one.test')}/env`, timeoutMs: 15_000, isolationKey: 'key-x', device: 'mobile', acceptLanguage: 'de-DE,de;q=0.9' });
    const before = pool.stats().reusedTabs;
    const sent = site.waitForRequest('/env-two');
    const other = env((await pool.render({ url: `${onSite('two.test')}/env-two`, timeoutMs: 15_000, isolationKey: 'key-x', device: 'mobile', acceptLanguage: 'fr-FR,fr;q=0.9' })).html);
    expect(pool.stats().reusedTabs).toBe(before + 1);
    expect(other.lang).toBe('fr-FR');
    expect(other.ua).toBe(DEVICE_PROFILES.mobile.userAgent);
    expect((await sent).headers['accept-language']).toBe('fr-FR,fr;q=0.9');
  });

  it("keeps sending the language and user agent of a kept tab's previous job when the next job asks for the same", async () => {
    const onSite = (host: string) => `http://${host}:${site.portNumber}`;
    const ask = { timeoutMs: 15_000, isolationKey: 'key-same', device: 'mobile' as const, acceptLanguage: 'nl-NL,nl;q=0.9' };
    await pool.render({ url: `${onSite('one.test')}/env`, ...ask });
    const before = pool.stats().reusedTabs;
    const sent = site.waitForRequest('/env-three');
    const again = env((await pool.render({ url: `${onSite('two.test')}/env-three`, ...ask })).html);
    expect(pool.stats().reusedTabs).toBe(before + 1);
    expect(again.lang).toBe('nl-NL');
    expect(again.ua).toBe(DEVICE_PROFILES.mobile.userAgent);
    expect((await sent).headers['accept-language']).toBe('nl-NL,nl;q=0.9');
    expect((await sent).headers['user-agent']).toBe(DEVICE_PROFILES.mobile.userAgent);
  });

  it('never hands a tab to another key, nor shows it what a page of another key left in its tab', async () => {
    await render('/mark', 'key-a');
    const before = pool.stats().reusedTabs;
    const other = env((await render('/env', 'key-b')).html);
    expect(pool.stats().reusedTabs).toBe(before);
    expect(other.session).toBeNull();
    expect(other.name).toBe('');
  });

  it('does not keep the tab of a failed job', async () => {
    await render('/env', 'key-f');
    const before = pool.stats().reusedTabs;
    await expect(render('/hop/1', 'key-f')).rejects.toMatchObject({ code: 'TOO_MANY_REDIRECTS' });
    expect(pool.stats().reusedTabs).toBe(before + 1); // the failing job ran in the kept tab…
    await render('/env', 'key-f');
    expect(pool.stats().reusedTabs).toBe(before + 1); // …which was closed, not kept again
  });

  it("stops a kept tab's scripts: its timers do not run while it waits", async () => {
    await render('/ticker', 'key-t');
    expect(pool.stats().keptTabs).toBe(1);
    // Stopping its scripts takes a DevTools round trip after the job returned: wait until the ticks stop arriving (a
    // running 20 ms interval never goes 300 ms without one), then count what still comes.
    let last = -1;
    await pollUntil(() => {
      const now = site.hits('/tick');
      const quiet = now === last;
      last = now;
      return quiet;
    }, 'the kept tab to stop ticking', 10_000, 300);
    const hits = site.hits('/tick');
    // Work of another key, long enough for a running 20 ms interval to fetch many times meanwhile.
    for (let i = 0; i < 3; i++) await render('/env', 'key-other');
    // Only fetches already on their way when the scripts stopped may still arrive (a running interval: ~100).
    expect(site.hits('/tick') - hits).toBeLessThanOrEqual(5);
  });
});
