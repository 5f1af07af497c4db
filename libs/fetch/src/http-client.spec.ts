import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DEVICE_PROFILES, ErrorCode } from '#contracts';
import { UndiciHttpClient } from './http-client.js';
import { closedPort, startFixtureServer, type FixtureServer } from './testing/fixture-server.js';
import type { FetchOptions } from './types.js';
import { expectTrawlError as failure } from '#test/support/trawl-error.js';

const html = (body: string) => (_req: unknown, res: import('node:http').ServerResponse) =>
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body);
const redirect = (status: number, location: string) => (_req: unknown, res: import('node:http').ServerResponse) =>
  res.writeHead(status, { location }).end();

/** Runs `work` and returns the TrawlError it throws (fails the test when it resolves). */

/** What a loaded 2-core CI machine may add to a 300 ms budget; a missing timeout would run to the test's 30 s. */
const SLACK_MS = 3_000;
describe('UndiciHttpClient', () => {
  let server: FixtureServer;
  let local: UndiciHttpClient; // loopback allowed, as tests and local development configure it
  let strict: UndiciHttpClient; // the production default
  const opts = (path: string, extra: Partial<FetchOptions> = {}): FetchOptions => ({
    url: server.url(path),
    timeoutMs: 5000,
    maxBytes: 1_000_000,
    ...extra,
  });

  beforeAll(async () => {
    server = await startFixtureServer({
      '/page': html('<h1>hello</h1>'),
      '/r1': redirect(301, '/r2'),
      '/r2': (req, res) => res.writeHead(302, { location: `http://${req.headers.host}/r3?x=1` }).end('moved'),
      '/r3': redirect(303, 'r4'),
      '/r4': redirect(307, '/r5#fragment'),
      '/r5': redirect(308, '/page'),
      '/loop': redirect(302, '/loop'),
      '/to-metadata': redirect(302, 'http://169.254.169.254/latest/meta-data/'),
      '/to-private': redirect(301, 'http://10.0.0.1/admin'),
      '/to-mapped': redirect(302, 'http://[::ffff:a9fe:a9fe]/'),
      '/to-file': redirect(302, 'file:///etc/passwd'),
      '/to-internal-name': redirect(302, 'http://internal.test/'),
      '/no-location': (_req, res) => res.writeHead(302).end('<p>moved somewhere</p>'),
      '/gone': (_req, res) => res.writeHead(500, { 'content-type': 'text/html' }).end('<h1>oops</h1>'),
      '/echo': (req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(req.headers)),
      '/to-other-origin': (_req, res) => res.writeHead(302, { location: `http://other.test:${server.port}/echo` }).end(),
      '/image': (_req, res) => res.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.alloc(100)),
      '/pdf': (_req, res) => res.writeHead(200, { 'content-type': 'application/pdf' }).end('%PDF-1.4'),
      '/octet': (_req, res) => res.writeHead(200, { 'content-type': 'application/octet-stream' }).end('bin'),
      '/image-404': (_req, res) => res.writeHead(404, { 'content-type': 'image/png' }).end(Buffer.alloc(10)),
      '/no-type': (_req, res) => res.end('<p>untyped</p>'),
      '/empty': (_req, res) => res.writeHead(204).end(),
      '/json': (_req, res) => res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' }).end('{"ok":true}'),
      '/xhtml': (_req, res) => res.writeHead(200, { 'content-type': 'application/xhtml+xml' }).end('<html/>'),
      '/never': () => {
        // accepts the request and never answers
      },
      '/stalls-body': (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.write('<p>first part');
      },
    });
    local = new UndiciHttpClient({
      allowPrivateAddresses: true,
      resolve: async (hostname) => {
        if (hostname === 'internal.test') return [{ address: '10.0.0.1', family: 4 }];
        if (hostname === 'app.test' || hostname === 'other.test') return [{ address: '127.0.0.1', family: 4 }];
        if (hostname === 'mixed.test') return [{ address: '127.0.0.1', family: 4 }, { address: '10.0.0.7', family: 4 }];
        if (hostname === 'hanging-dns.test') return new Promise(() => {});
        if (hostname === 'flaky-dns.test') throw Object.assign(new Error('getaddrinfo EAI_AGAIN'), { code: 'EAI_AGAIN' });
        throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
      },
    });
    strict = new UndiciHttpClient({ allowPrivateAddresses: false });
  });

  afterAll(async () => {
    await Promise.all([local.close(), strict.close()]);
    await server.close();
  });

  describe('redirects', () => {
    it('follows 301/302/303/307/308 with relative and absolute Locations, reporting every hop', async () => {
      const result = await local.fetch(opts('/r1'));
      expect(result.status).toBe(200);
      expect(result.body).toBe('<h1>hello</h1>');
      expect(result.url).toBe(server.url('/r1'));
      expect(result.finalUrl).toBe(server.url('/page'));
      expect(result.redirects).toEqual([
        server.url('/r2'),
        server.url('/r3?x=1'),
        server.url('/r4'),
        server.url('/r5'),
        server.url('/page'),
      ]);
    });

    it('stops a redirect loop with TOO_MANY_REDIRECTS after maxRedirects hops', async () => {
      const before = server.requests.filter((r) => r.path === '/loop').length;
      const error = await failure(local.fetch(opts('/loop', { maxRedirects: 3 })));
      expect(error.code).toBe(ErrorCode.TOO_MANY_REDIRECTS);
      expect(error.retryable).toBe(false);
      expect(server.requests.filter((r) => r.path === '/loop').length - before).toBe(4);
    });

    it('defaults to 10 redirects', async () => {
      const before = server.requests.length;
      expect((await failure(local.fetch(opts('/loop')))).code).toBe(ErrorCode.TOO_MANY_REDIRECTS);
      expect(server.requests.length - before).toBe(11);
    });

    it('returns a 3xx without Location as the response', async () => {
      const result = await local.fetch(opts('/no-location'));
      expect(result.status).toBe(302);
      expect(result.redirects).toEqual([]);
    });

    it.each([
      ['/to-metadata', /metadata/],
      ['/to-private', /private/],
      ['/to-mapped', /metadata/],
    ])('refuses a redirect from an allowed fixture to a forbidden address (%s) before connecting', async (path, kind) => {
      const started = Date.now();
      const error = await failure(local.fetch(opts(path, { timeoutMs: 20_000 })));
      expect(error.code).toBe(ErrorCode.BLOCKED_ADDRESS);
      expect(error.message).toMatch(kind);
      // A connection attempt to an unroutable address would hang until the 20 s timeout; the guard answers at once
      // (the bound is what a loaded 2-core CI machine holds, far below the timeout).
      expect(Date.now() - started).toBeLessThan(5_000);
    });

    it('refuses a redirect to a non-http scheme', async () => {
      expect((await failure(local.fetch(opts('/to-file')))).code).toBe(ErrorCode.INVALID_URL);
    });

    it('refuses a redirect to a host name that resolves to a private address (checked after DNS)', async () => {
      const error = await failure(local.fetch(opts('/to-internal-name')));
      expect(error.code).toBe(ErrorCode.BLOCKED_ADDRESS);
      expect(error.message).toMatch(/private/);
    });

    it('drops cookies and authorization when a redirect leaves the origin', async () => {
      // The Location points at other.test on the fixture's port (resolved to 127.0.0.1 by the test resolver).
      const headers = { Cookie: 'session=secret', Authorization: 'Bearer secret', 'X-Trace': 'kept' };
      const result = await local.fetch(opts('/to-other-origin', { headers }));
      const echoed = JSON.parse(result.body) as Record<string, string>;
      expect(result.finalUrl).toBe(`http://other.test:${server.port}/echo`);
      expect(echoed.host).toBe(`other.test:${server.port}`);
      expect(echoed.cookie).toBeUndefined();
      expect(echoed.authorization).toBeUndefined();
      expect(echoed['x-trace']).toBe('kept');
    });
  });

  describe('the SSRF guard', () => {
    it('refuses loopback by default, without sending anything', async () => {
      const before = server.requests.length;
      const error = await failure(strict.fetch(opts('/page')));
      expect(error.code).toBe(ErrorCode.BLOCKED_ADDRESS);
      expect(error.message).toMatch(/loopback/);
      expect(server.requests.length).toBe(before);
    });

    it('refuses decimal, IPv6 and mapped spellings of loopback', async () => {
      for (const url of [`http://2130706433:${server.port}/page`, `http://[::1]:${server.port}/`, `http://[::ffff:127.0.0.1]:${server.port}/`]) {
        expect((await failure(strict.fetch({ url, timeoutMs: 2000, maxBytes: 1000 }))).code).toBe(ErrorCode.BLOCKED_ADDRESS);
      }
    });

    it('checks host names after DNS resolution, at connect time (localhost is refused by default)', async () => {
      const before = server.requests.length;
      const error = await failure(strict.fetch({ url: `http://localhost:${server.port}/page`, timeoutMs: 5000, maxBytes: 1000 }));
      expect(error.code).toBe(ErrorCode.BLOCKED_ADDRESS);
      expect(server.requests.length).toBe(before);
    });

    it('connects to a host name whose addresses are allowed, sending its Host header', async () => {
      const result = await local.fetch({ url: `http://app.test:${server.port}/echo`, timeoutMs: 5000, maxBytes: 100_000 });
      expect(JSON.parse(result.body).host).toBe(`app.test:${server.port}`);
    });

    it('refuses a host name that resolves to a private address', async () => {
      const error = await failure(local.fetch({ url: 'http://internal.test/', timeoutMs: 5000, maxBytes: 1000 }));
      expect(error.code).toBe(ErrorCode.BLOCKED_ADDRESS);
    });

    it('refuses a host name when any of its addresses is forbidden', async () => {
      const error = await failure(local.fetch({ url: `http://mixed.test:${server.port}/page`, timeoutMs: 5000, maxBytes: 1000 }));
      expect(error.code).toBe(ErrorCode.BLOCKED_ADDRESS);
    });

    it('reports a temporary DNS failure as a transient DNS_FAILED', async () => {
      const error = await failure(local.fetch({ url: 'http://flaky-dns.test/', timeoutMs: 5000, maxBytes: 1000 }));
      expect(error.code).toBe(ErrorCode.DNS_FAILED);
      expect(error.retryable).toBe(true);
    });

    it('reports an unknown host as a permanent DNS_FAILED', async () => {
      const error = await failure(local.fetch({ url: 'http://no-such-host.test/', timeoutMs: 5000, maxBytes: 1000 }));
      expect(error.code).toBe(ErrorCode.DNS_FAILED);
      expect(error.retryable).toBe(false);
    });

    it('rejects malformed URLs and other schemes with INVALID_URL', async () => {
      expect((await failure(local.fetch({ url: 'not a url', timeoutMs: 1000, maxBytes: 10 }))).code).toBe(ErrorCode.INVALID_URL);
      expect((await failure(local.fetch({ url: 'ftp://127.0.0.1/', timeoutMs: 1000, maxBytes: 10 }))).code).toBe(ErrorCode.INVALID_URL);
    });
  });

  describe('responses', () => {
    it('returns 404 and 500 as results with their status, not errors', async () => {
      const missing = await local.fetch(opts('/missing'));
      expect(missing.status).toBe(404);
      expect(missing.body).toBe('<h1>Not found</h1>');
      const broken = await local.fetch(opts('/gone'));
      expect(broken.status).toBe(500);
      expect(broken.body).toBe('<h1>oops</h1>');
    });

    it('reports headers, content type, charset, bytes and timing', async () => {
      const result = await local.fetch(opts('/page'));
      expect(result.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(result.contentType).toBe('text/html');
      expect(result.charset).toBe('utf-8');
      expect(result.bytes).toBe(14);
      expect(result.timings.totalMs).toBeGreaterThan(0);
    });

    it.each(['/image', '/pdf', '/octet'])('refuses a non-text content type (%s) with UNSUPPORTED_CONTENT', async (path) => {
      const error = await failure(local.fetch(opts(path)));
      expect(error.code).toBe(ErrorCode.UNSUPPORTED_CONTENT);
      expect(error.retryable).toBe(false);
    });

    it('reads a PDF as document bytes when the caller takes documents, within maxBytes', async () => {
      const result = await local.fetch({ ...opts('/pdf'), documents: true });
      expect(result).toMatchObject({ status: 200, body: '', contentType: 'application/pdf' });
      expect(result.document?.kind).toBe('pdf');
      expect(Buffer.from(result.document?.bytes ?? []).toString()).toBe('%PDF-1.4');
      expect((await failure(local.fetch({ ...opts('/pdf'), documents: true, maxBytes: 4 }))).code).toBe(ErrorCode.TOO_LARGE);
      expect((await failure(local.fetch({ ...opts('/image'), documents: true }))).code).toBe(ErrorCode.UNSUPPORTED_CONTENT);
    });

    it('returns an empty body for 204 No Content', async () => {
      expect(await local.fetch(opts('/empty'))).toMatchObject({ status: 204, body: '', bytes: 0 });
    });

    it('reports a binary error page by its status with an empty body', async () => {
      const result = await local.fetch(opts('/image-404'));
      expect(result).toMatchObject({ status: 404, body: '', contentType: 'image/png' });
    });

    it.each([
      ['/no-type', ''],
      ['/json', 'application/json'],
      ['/xhtml', 'application/xhtml+xml'],
    ])('accepts %s', async (path, type) => {
      const result = await local.fetch(opts(path));
      expect(result.status).toBe(200);
      expect(result.contentType).toBe(type);
    });
  });

  describe('failures', () => {
    it('times out a server that never answers within the budget', async () => {
      const started = Date.now();
      const error = await failure(local.fetch(opts('/never', { timeoutMs: 300 })));
      expect(error.code).toBe(ErrorCode.TIMEOUT);
      expect(error.retryable).toBe(true);
      expect(Date.now() - started).toBeLessThan(300 + SLACK_MS);
    });

    it('times out a body that stalls halfway', async () => {
      const started = Date.now();
      const error = await failure(local.fetch(opts('/stalls-body', { timeoutMs: 300 })));
      expect(error.code).toBe(ErrorCode.TIMEOUT);
      expect(Date.now() - started).toBeLessThan(300 + SLACK_MS);
    });

    it('times out while still waiting for a connection (DNS that never answers)', async () => {
      const started = Date.now();
      const error = await failure(local.fetch({ url: 'http://hanging-dns.test/', timeoutMs: 300, maxBytes: 1000 }));
      expect(error.code).toBe(ErrorCode.TIMEOUT);
      expect(Date.now() - started).toBeLessThan(300 + SLACK_MS);
    });

    it('reports a failed TLS handshake as a permanent CONNECTION_FAILED', async () => {
      const error = await failure(local.fetch({ url: `https://127.0.0.1:${server.port}/page`, timeoutMs: 3000, maxBytes: 1000 }));
      expect(error.code).toBe(ErrorCode.CONNECTION_FAILED);
      expect(error.retryable).toBe(false);
    });

    it('reports a closed port as a transient CONNECTION_FAILED', async () => {
      const port = await closedPort();
      const error = await failure(local.fetch({ url: `http://127.0.0.1:${port}/`, timeoutMs: 3000, maxBytes: 1000 }));
      expect(error.code).toBe(ErrorCode.CONNECTION_FAILED);
      expect(error.retryable).toBe(true);
    });

    it("stops when the caller's signal aborts", async () => {
      const controller = new AbortController();
      const pending = local.fetch(opts('/never', { signal: controller.signal }));
      controller.abort();
      const error = await failure(pending);
      expect(error.code).toBe(ErrorCode.NETWORK_ERROR);
    });

    it('keeps serving after failures (the connection pool recovers)', async () => {
      await failure(local.fetch(opts('/never', { timeoutMs: 100 })));
      expect((await local.fetch(opts('/page'))).status).toBe(200);
    });
  });

  describe('device realism', () => {
    it('sends the desktop profile by default, with a default Accept-Language', async () => {
      const headers = JSON.parse((await local.fetch(opts('/echo'))).body) as Record<string, string>;
      expect(headers['user-agent']).toBe(DEVICE_PROFILES.desktop.userAgent);
      expect(headers['sec-ch-ua-mobile']).toBe('?0');
      expect(headers['sec-ch-ua-platform']).toBe('"Windows"');
      expect(headers['accept-language']).toBe('en-US,en;q=0.9');
      expect(headers['accept-encoding']).toBe('gzip, deflate, br');
      expect(headers.accept).toMatch(/^text\/html/);
    });

    it('sends a consistent mobile profile when asked', async () => {
      const headers = JSON.parse((await local.fetch(opts('/echo', { device: 'mobile' }))).body) as Record<string, string>;
      expect(headers['user-agent']).toBe(DEVICE_PROFILES.mobile.userAgent);
      expect(headers['user-agent']).toMatch(/Mobile/);
      expect(headers['sec-ch-ua-mobile']).toBe('?1');
      expect(headers['sec-ch-ua-platform']).toBe('"Android"');
    });

    it('lets the caller set Accept-Language and extra headers', async () => {
      const result = await local.fetch(opts('/echo', { acceptLanguage: 'fr-FR,fr;q=0.9', headers: { 'X-Custom': '1', 'User-Agent': 'custom/1.0' } }));
      const headers = JSON.parse(result.body) as Record<string, string>;
      expect(headers['accept-language']).toBe('fr-FR,fr;q=0.9');
      expect(headers['x-custom']).toBe('1');
      expect(headers['user-agent']).toBe('custom/1.0');
    });
  });
});
