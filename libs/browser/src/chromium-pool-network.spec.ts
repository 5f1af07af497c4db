// SSRF refusal (top level, redirects, every subresource, WebSockets) and per-job geolocation proxies.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import https from 'node:https';
import net, { type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Server as ProxyServer } from 'proxy-chain';
import { ErrorCode, type ProxyInfo } from '#contracts';
import type { DnsResolver } from '#fetch';
import { ChromiumPool } from './chromium-pool.js';
import type { AddressPolicy } from './render-types.js';
import { FixtureSite } from './testing/fixture-site.js';
import { expectTrawlError as rejection } from '#test/support/trawl-error.js';
import { renderExecutable } from './render-executable.js';

// The binary worker-render launches (the headless shell when installed).
const CHROMIUM = renderExecutable(undefined, '/usr/bin/chromium');

/** Stands in for "the internal network": 127.0.0.2 is refused, the rest of loopback plays the public internet. */
const internalIsBlocked: AddressPolicy = { blockedKind: (ip) => (ip === '127.0.0.2' ? 'private' : null) };

const fakeResolve: DnsResolver = async (hostname) => {
  if (hostname === 'inside.test') return [{ address: '127.0.0.2', family: 4 }];
  if (hostname === 'outside.test') return [{ address: '127.0.0.1', family: 4 }];
  throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
};

describe('ChromiumPool SSRF refusal with the default policy', () => {
  const site = new FixtureSite();
  let pool: ChromiumPool;

  beforeAll(async () => {
    await site.start();
    site.page('/secret', '<p>internal</p>');
    pool = new ChromiumPool({ executablePath: CHROMIUM, maxContexts: 1, pagesPerBrowser: 10, allowPrivateAddresses: false });
  });

  afterAll(async () => {
    await pool?.close();
    await site.close();
  });

  it('refuses loopback targets in every spelling before any browser work when allowPrivateAddresses is false', async () => {
    const port = site.portNumber;
    for (const url of [site.url('/secret'), `http://localhost:${port}/secret`, `http://2130706433:${port}/secret`, `http://[::1]:${port}/secret`]) {
      const error = await rejection(pool.render({ url, timeoutMs: 5_000 }));
      expect(error.code).toBe(ErrorCode.BLOCKED_ADDRESS);
      expect(error.kind).toBe('permanent');
    }
    expect(site.requests).toHaveLength(0);
    expect(pool.stats().launches).toBe(0);
  });
});

describe('ChromiumPool SSRF guard on every hop', () => {
  const outside = new FixtureSite('127.0.0.1');
  const inside = new FixtureSite('127.0.0.2');
  let pool: ChromiumPool;

  let closedPort = 0;

  beforeAll(async () => {
    await Promise.all([outside.start(), inside.start()]);
    // A port nothing listens on: bound and released again.
    const probe = net.createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    closedPort = (probe.address() as AddressInfo).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    inside.page('/secret', '<p>internal secret</p>').page('/pixel.png', 'x', 200, 'image/png');
    outside
      .redirect('/to-inside', inside.url('/secret'))
      .redirect('/to-inside-by-name', `http://inside.test:${inside.portNumber}/secret`)
      .redirect('/bounce.png', inside.url('/bounced.png'))
      .page('/api', 'public', 200, 'text/plain')
      .page('/sends-inside', `<p>moving on</p><script>location.replace('${inside.url('/secret')}')</script>`)
      .page('/sends-to-https', `<p>moving on</p><script>location.replace(location.href.replace('http:', 'https:').replace('/sends-to-https', '/api'))</script>`)
      .page('/sends-nowhere', `<p>moving on</p><script>location.replace('http://127.0.0.1:${closedPort}/')</script>`)
      .page(
        '/mixed',
        `<!doctype html><html><body><p>public page</p>
         <img src="${inside.url('/pixel.png')}"><img src="/bounce.png">
         <iframe src="${inside.url('/frame')}"></iframe>
         <script src="${inside.url('/lib.js')}"></script>
         <link rel="stylesheet" href="http://inside.test:${inside.portNumber}/style.css">
         <script>
           fetch('${inside.url('/api')}').catch(() => {});
           fetch('/api');
           try { new WebSocket('ws://127.0.0.2:${inside.portNumber}/ws'); } catch {}
           try { new WebSocket('ws://127.0.0.1:${outside.portNumber}/ws'); } catch {}
         </script></body></html>`,
      );
    pool = new ChromiumPool({
      executablePath: CHROMIUM,
      maxContexts: 1,
      pagesPerBrowser: 20,
      allowPrivateAddresses: true,
      addressPolicy: internalIsBlocked,
      resolve: fakeResolve,
    });
  });

  afterAll(async () => {
    await pool?.close();
    await Promise.all([outside.close(), inside.close()]);
  });

  it('refuses a redirect to a blocked address (by IP and by name) without ever connecting to it', async () => {
    for (const start of ['/to-inside', '/to-inside-by-name']) {
      const error = await rejection(pool.render({ url: outside.url(start), timeoutMs: 10_000 }));
      expect(error.code).toBe(ErrorCode.BLOCKED_ADDRESS);
    }
    expect(outside.hits('/to-inside')).toBe(1);
    expect(inside.requests).toHaveLength(0);
  });

  it("fails a page that sends itself somewhere unreachable or refused, instead of returning Chromium's error page", async () => {
    const unreachable = await rejection(pool.render({ url: outside.url('/sends-nowhere'), timeoutMs: 10_000 }));
    expect(unreachable.code).toBe(ErrorCode.CONNECTION_FAILED);
    expect(unreachable.message).toContain('ECONNREFUSED');
    // Sent to https on a plain-HTTP server: the TLS handshake fails in Chromium, which shows its own error page.
    const notTls = await rejection(pool.render({ url: outside.url('/sends-to-https'), timeoutMs: 10_000 }));
    expect(notTls.code).toBe(ErrorCode.CONNECTION_FAILED);
    expect(notTls.message).toMatch(/TLS handshake failed \(ERR_SSL_/);
    const refused = await rejection(pool.render({ url: outside.url('/sends-inside'), timeoutMs: 10_000 }));
    expect(refused.code).toBe(ErrorCode.BLOCKED_ADDRESS);
    expect(inside.requests).toHaveLength(0);
  });

  it('refuses a top-level host name that resolves to a blocked address', async () => {
    const error = await rejection(pool.render({ url: `http://inside.test:${inside.portNumber}/secret`, timeoutMs: 10_000 }));
    expect(error.code).toBe(ErrorCode.BLOCKED_ADDRESS);
    expect(inside.requests).toHaveLength(0);
  });

  it('renders the page but never lets a subresource, frame, redirect hop or WebSocket reach a blocked address', async () => {
    const result = await pool.render({ url: outside.url('/mixed'), timeoutMs: 10_000, blockResources: false });
    expect(result.status).toBe(200);
    expect(result.html).toContain('public page');
    expect(outside.hits('/api')).toBe(1); // the allowed fetch went out…
    expect(outside.hits('/bounce.png')).toBe(1); // …and so did the first hop of the redirecting image,
    expect(outside.upgrades).toBe(1); // and the allowed WebSocket handshake: the guard sees WebSockets too.
    expect(inside.requests).toHaveLength(0);
    expect(inside.upgrades).toBe(0);
  });
});

describe('ChromiumPool over HTTPS (CONNECT through the guard)', () => {
  let dir = '';
  let server: https.Server | undefined;
  let pool: ChromiumPool;
  let port = 0;
  const haveOpenssl = (() => {
    try {
      execFileSync('openssl', ['version'], { stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  })();

  beforeAll(async () => {
    if (!haveOpenssl) return;
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'trawl-browser-tls-'));
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=127.0.0.1',
      '-keyout', path.join(dir, 'key.pem'), '-out', path.join(dir, 'cert.pem')], { stdio: 'ignore' });
    server = https.createServer({ key: fs.readFileSync(path.join(dir, 'key.pem')), cert: fs.readFileSync(path.join(dir, 'cert.pem')) }, (req, res) => {
      if (req.url === '/to-inside') {
        res.writeHead(302, { location: `https://127.0.0.2:${port}/` }).end();
        return;
      }
      res.writeHead(200, { 'content-type': 'text/html' }).end('<p>over tls</p>');
    });
    await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', () => resolve()));
    port = (server.address() as AddressInfo).port;
    pool = new ChromiumPool({ executablePath: CHROMIUM, maxContexts: 1, pagesPerBrowser: 10, allowPrivateAddresses: true, addressPolicy: internalIsBlocked });
  });

  afterAll(async () => {
    await pool?.close();
    server?.closeAllConnections();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('renders an https page and refuses an https redirect to a blocked address', async () => {
    if (!haveOpenssl) {
      console.warn('skipped: openssl is not installed, so no test certificate can be made');
      return;
    }
    const result = await pool.render({ url: `https://127.0.0.1:${port}/`, timeoutMs: 10_000 });
    expect(result.html).toContain('over tls');
    const error = await rejection(pool.render({ url: `https://127.0.0.1:${port}/to-inside`, timeoutMs: 10_000 }));
    expect(error.code).toBe(ErrorCode.BLOCKED_ADDRESS);
  });
});

describe('ChromiumPool geolocation proxies', () => {
  const site = new FixtureSite();
  const inside = new FixtureSite('127.0.0.2');
  const carried: Record<string, { url: string; username: string }[]> = { de: [], fr: [] };
  const proxies: ProxyServer[] = [];
  const proxyInfo: Record<string, ProxyInfo> = {};
  let pool: ChromiumPool;
  let guardedPool: ChromiumPool;

  beforeAll(async () => {
    await Promise.all([site.start(), inside.start()]);
    site
      .page('/where', '<!doctype html><html><body><p>hello traveller</p><script>fetch("/where-sub")</script></body></html>')
      .page('/where-sub', 'ok', 200, 'text/plain')
      .redirect('/to-inside', inside.url('/secret'));
    for (const country of ['de', 'fr']) {
      const proxy = new ProxyServer({
        port: 0,
        host: '127.0.0.1',
        prepareRequestFunction: ({ request, username, password }) => {
          const authorized = username === `user-country-${country}` && password === 'secret';
          if (authorized) carried[country].push({ url: request.url ?? '', username });
          return { requestAuthentication: !authorized };
        },
      });
      await proxy.listen();
      proxies.push(proxy);
      proxyInfo[country] = { server: `http://127.0.0.1:${proxy.port}`, username: `user-country-${country}`, password: 'secret', country };
    }
    pool = new ChromiumPool({ executablePath: CHROMIUM, maxContexts: 2, pagesPerBrowser: 20, allowPrivateAddresses: true });
    guardedPool = new ChromiumPool({ executablePath: CHROMIUM, maxContexts: 1, pagesPerBrowser: 20, allowPrivateAddresses: true, addressPolicy: internalIsBlocked });
  });

  afterAll(async () => {
    await Promise.all([pool?.close(), guardedPool?.close()]);
    await Promise.all(proxies.map((proxy) => proxy.close(true)));
    await Promise.all([site.close(), inside.close()]);
  });

  it('routes each job through the proxy of its country, page and subresources alike', async () => {
    await pool.render({ url: site.url('/where'), timeoutMs: 10_000, proxy: proxyInfo.de });
    expect(carried.de.map((c) => c.url)).toEqual(expect.arrayContaining([site.url('/where'), site.url('/where-sub')]));
    expect(carried.de.every((c) => c.username === 'user-country-de')).toBe(true);
    expect(carried.fr).toHaveLength(0);

    const deCount = carried.de.length;
    const result = await pool.render({ url: site.url('/where'), timeoutMs: 10_000, proxy: proxyInfo.fr });
    expect(result.html).toContain('hello traveller');
    expect(carried.fr.map((c) => c.url)).toContain(site.url('/where'));
    expect(carried.de).toHaveLength(deCount);
  });

  it('runs jobs with different proxies side by side in one browser', async () => {
    const before = { de: carried.de.length, fr: carried.fr.length };
    await Promise.all([
      pool.render({ url: site.url('/where'), timeoutMs: 10_000, proxy: proxyInfo.de }),
      pool.render({ url: site.url('/where'), timeoutMs: 10_000, proxy: proxyInfo.fr }),
      pool.render({ url: site.url('/where'), timeoutMs: 10_000 }),
    ]);
    expect(carried.de.length - before.de).toBe(2);
    expect(carried.fr.length - before.fr).toBe(2);
    expect(site.hits('/where')).toBe(5);
    expect(pool.stats().launches).toBe(1);
  });

  it('fails with PROXY_FAILED (transient) when the proxy is down or refuses the credentials', async () => {
    const down = await rejection(pool.render({ url: site.url('/where'), timeoutMs: 10_000, proxy: { server: 'http://127.0.0.1:9', country: 'de' } }));
    expect(down.code).toBe(ErrorCode.PROXY_FAILED);
    expect(down.kind).toBe('transient');
    const denied = await rejection(pool.render({ url: site.url('/where'), timeoutMs: 10_000, proxy: { ...proxyInfo.de, password: 'wrong' } }));
    expect(denied.code).toBe(ErrorCode.PROXY_FAILED);
    expect(denied.message).not.toContain('secret');
  });

  it('keeps refusing blocked redirect targets behind a proxy, before the proxy is asked', async () => {
    const before = carried.de.length;
    const error = await rejection(guardedPool.render({ url: site.url('/to-inside'), timeoutMs: 10_000, proxy: proxyInfo.de }));
    expect(error.code).toBe(ErrorCode.BLOCKED_ADDRESS);
    expect(carried.de.slice(before).map((c) => c.url)).toEqual([site.url('/to-inside')]);
    expect(inside.requests).toHaveLength(0);
  });
});
