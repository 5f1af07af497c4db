// Page actions in the render pool: what each does to a real page, their bounds, and the SSRF guard on every request
// they set off (a click's navigation, a script's fetch).
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ErrorCode, MAX_SCRIPT_RETURN_BYTES, type PageAction } from '#contracts';
import type { DnsResolver } from '#fetch';
import { expectTrawlError as rejection } from '#test/support/trawl-error.js';
import { ChromiumPool } from './chromium-pool.js';
import { renderExecutable } from './render-executable.js';
import type { AddressPolicy } from './render-types.js';
import { FixtureSite } from './testing/fixture-site.js';

const CHROMIUM = renderExecutable(undefined, '/usr/bin/chromium');

/** 127.0.0.2 plays the internal network (refused); the rest of loopback the public internet. */
const internalIsBlocked: AddressPolicy = { blockedKind: (ip) => (ip === '127.0.0.2' ? 'private' : null) };
const resolve: DnsResolver = async (hostname) => {
  throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
};

describe('page actions', () => {
  const outside = new FixtureSite('127.0.0.1');
  const inside = new FixtureSite('127.0.0.2');
  let pool: ChromiumPool;

  beforeAll(async () => {
    await Promise.all([outside.start(), inside.start()]);
    inside.page('/secret', '<p>internal secret</p>').page('/api', 'internal', 200, 'text/plain');
    outside
      .page('/links', `<main><a id="in" href="${inside.url('/secret')}">inside</a></main>`)
      .page(
        '/widgets',
        `<!doctype html><html><body style="margin:0">
         <button class="b" onclick="this.dataset.hit = 1">1</button><button class="b" onclick="this.dataset.hit = 1">2</button><button class="b" onclick="this.dataset.hit = 1">3</button>
         <div id="box" style="height: 100px; overflow: auto"><div style="height: 1000px">tall</div></div>
         </body></html>`,
      );
    pool = new ChromiumPool({ executablePath: CHROMIUM, maxContexts: 1, pagesPerBrowser: 20, allowPrivateAddresses: true, addressPolicy: internalIsBlocked, resolve });
  });

  afterAll(async () => {
    await pool?.close();
    await Promise.all([outside.close(), inside.close()]);
  });

  const render = (path: string, actions: PageAction[], timeoutMs = 10_000) => pool.render({ url: outside.url(path), timeoutMs, actions });

  it('clicks every match with all, scrolls an element, screenshots at a viewport size', async () => {
    const result = await render('/widgets', [
      { type: 'click', selector: '.b', all: true },
      { type: 'scroll', direction: 'down', selector: '#box' },
      { type: 'executeJavascript', script: 'return [document.querySelectorAll("[data-hit]").length, document.getElementById("box").scrollTop]' },
      { type: 'screenshot', fullPage: false, viewport: { width: 640, height: 480 } },
    ]);
    expect(result.actions?.javascriptReturns).toEqual([{ type: 'object', value: [3, 100] }]);
    const png = Buffer.from(result.actions!.screenshots[0], 'base64');
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([640, 480]);
  });

  it('a click navigating to a refused address fails as BLOCKED_ADDRESS; the address is never reached', async () => {
    const error = await rejection(render('/links', [{ type: 'click', selector: '#in', all: false }, { type: 'scrape' }]));
    expect(error.code).toBe(ErrorCode.BLOCKED_ADDRESS);
    expect(inside.requests).toHaveLength(0);
  });

  it("a script's fetch passes the guard too: refused, the page goes on", async () => {
    const result = await render('/links', [{ type: 'executeJavascript', script: `return fetch('${inside.url('/api')}').then((r) => r.text()).catch(() => 'refused')` }]);
    expect(result.actions?.javascriptReturns[0].value).not.toBe('internal');
    expect(inside.requests).toHaveLength(0);
  });

  it('bounds a return value, and every action by the job budget', async () => {
    const big = await rejection(render('/links', [{ type: 'executeJavascript', script: `'x'.repeat(${MAX_SCRIPT_RETURN_BYTES + 1})` }]));
    expect(big.code).toBe(ErrorCode.ACTION_FAILED);
    expect(big.message).toMatch(/^actions\.0\.script: its return value is \d+ bytes as JSON/);
    const started = performance.now();
    const late = await rejection(render('/links', [{ type: 'wait', milliseconds: 20_000 }], 2_000));
    expect(late.code).toBe(ErrorCode.TIMEOUT);
    expect(late.message).toMatch(/^actions\.0 \(wait\) did not finish within the page's timeout/);
    expect(performance.now() - started).toBeLessThan(4_000);
  });
});
