import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Server as ProxyServer, type PrepareRequestFunctionOpts } from 'proxy-chain';
import { ErrorCode, type ProxyInfo } from '#contracts';
import { UndiciHttpClient } from './http-client.js';
import { StaticProxyPool } from './proxy-pool.js';
import { closedPort, startFixtureServer, type FixtureServer } from './testing/fixture-server.js';
import { expectTrawlError as failure } from '#test/support/trawl-error.js';

interface Carried {
  connectionId: number;
  hostname: string;
  port: number;
  isHttp: boolean;
  username: string;
  password: string;
}

/** A real forward proxy on loopback that records every request it carries (and can demand credentials). */
async function startProxy(credentials?: { username: string; password: string }) {
  const carried: Carried[] = [];
  const server = new ProxyServer({
    port: 0,
    host: '127.0.0.1',
    prepareRequestFunction: ({ connectionId, hostname, port, isHttp, username, password }: PrepareRequestFunctionOpts) => {
      carried.push({ connectionId, hostname, port, isHttp, username, password });
      if (credentials && (username !== credentials.username || password !== credentials.password)) {
        return { requestAuthentication: true };
      }
      return {};
    },
  });
  await server.listen();
  return { carried, server: `http://127.0.0.1:${server.port}`, close: () => server.close(true) };
}

describe('UndiciHttpClient through a proxy', () => {
  let site: FixtureServer;
  let open: Awaited<ReturnType<typeof startProxy>>;
  let authed: Awaited<ReturnType<typeof startProxy>>;
  let client: UndiciHttpClient;

  beforeAll(async () => {
    site = await startFixtureServer({
      '/echo': (req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(req.headers)),
      '/hop': (_req, res) => res.writeHead(302, { location: '/echo' }).end(),
    });
    open = await startProxy();
    authed = await startProxy({ username: 'crawler', password: 's3cr:et' });
    client = new UndiciHttpClient({
      allowPrivateAddresses: true,
      resolve: async (hostname) => {
        if (hostname === 'internal.test') return [{ address: '10.1.2.3', family: 4 }];
        throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
      },
    });
  });

  afterAll(async () => {
    await client.close();
    await Promise.all([open.close(), authed.close()]);
    await site.close();
  });

  const viaProxy = (proxy: ProxyInfo, path = '/echo') => client.fetch({ url: site.url(path), timeoutMs: 5000, maxBytes: 100_000, proxy });

  it('routes a plain-http fetch through the proxy (absolute-form), every redirect hop included', async () => {
    const before = open.carried.length;
    const result = await viaProxy({ server: open.server, country: 'us' }, '/hop');
    expect(result.status).toBe(200);
    expect(result.redirects).toEqual([site.url('/echo')]);
    const hops = open.carried.slice(before);
    expect(hops).toHaveLength(2);
    for (const hop of hops) expect(hop).toMatchObject({ hostname: '127.0.0.1', port: site.port, isHttp: true });
  });

  it('reuses keep-alive connections to a proxy across fetches', async () => {
    const before = open.carried.length;
    for (let i = 0; i < 6; i++) await viaProxy({ server: open.server, country: 'us' });
    const ids = open.carried.slice(before).map((c) => c.connectionId);
    expect(ids).toHaveLength(6);
    // undici may open a second socket when a fetch starts before the previous one's socket is released.
    expect(new Set(ids).size).toBeLessThanOrEqual(2);
  });

  it('sends the Accept-Language of the proxy country', async () => {
    const headers = JSON.parse((await viaProxy({ server: open.server, country: 'de' })).body) as Record<string, string>;
    expect(headers['accept-language']).toBe('de-DE,de;q=0.9,en;q=0.8');
    const us = JSON.parse((await viaProxy({ server: open.server, country: 'us' })).body) as Record<string, string>;
    expect(us['accept-language']).toBe('en-US,en;q=0.9');
  });

  it('authenticates with the credentials from the pool, which the target never sees', async () => {
    const pool = StaticProxyPool.parse(`jp=http://crawler:${encodeURIComponent('s3cr:et')}@${authed.server.slice('http://'.length)}`);
    const proxy = pool.next('jp') as ProxyInfo;
    expect(proxy.server).toBe(authed.server);
    const result = await viaProxy(proxy);
    expect(result.status).toBe(200);
    expect(authed.carried.at(-1)).toMatchObject({ username: 'crawler', password: 's3cr:et' });
    const seenByTarget = JSON.parse(result.body) as Record<string, string>;
    expect(seenByTarget['proxy-authorization']).toBeUndefined();
    expect(seenByTarget['accept-language']).toBe('ja-JP,ja;q=0.9,en;q=0.8');
  });

  it('reports refused proxy credentials as PROXY_FAILED without echoing them', async () => {
    const error = await failure(viaProxy({ server: authed.server, username: 'crawler', password: 'wrong-hunter2', country: 'us' }));
    expect(error.code).toBe(ErrorCode.PROXY_FAILED);
    expect(error.retryable).toBe(true);
    expect(error.message).not.toContain('hunter2');
  });

  it('reports refused credentials on a CONNECT tunnel as PROXY_FAILED', async () => {
    const error = await failure(
      client.fetch({
        url: `https://127.0.0.1:${site.port}/`,
        timeoutMs: 5000,
        maxBytes: 1000,
        proxy: { server: authed.server, username: 'crawler', password: 'wrong', country: 'us' },
      }),
    );
    expect(error.code).toBe(ErrorCode.PROXY_FAILED);
    expect(error.message).toMatch(/407/);
  });

  it('reports an unreachable proxy as PROXY_FAILED', async () => {
    const port = await closedPort();
    const error = await failure(viaProxy({ server: `http://127.0.0.1:${port}`, country: 'us' }));
    expect(error.code).toBe(ErrorCode.PROXY_FAILED);
  });

  it('tunnels https with CONNECT', async () => {
    const before = open.carried.length;
    // The target is the plain-http fixture, so the TLS handshake inside the tunnel fails: what matters is that the
    // proxy was asked for a CONNECT tunnel to the target rather than an absolute-form request.
    const error = await failure(client.fetch({ url: `https://127.0.0.1:${site.port}/echo`, timeoutMs: 5000, maxBytes: 1000, proxy: { server: open.server, country: 'us' } }));
    expect(error.code).toBe(ErrorCode.CONNECTION_FAILED);
    expect(open.carried.slice(before)).toEqual([expect.objectContaining({ hostname: '127.0.0.1', port: site.port, isHttp: false })]);
  });

  it('reports a CONNECT the proxy cannot open as PROXY_FAILED', async () => {
    const port = await closedPort();
    const error = await failure(client.fetch({ url: `https://127.0.0.1:${port}/`, timeoutMs: 5000, maxBytes: 1000, proxy: { server: open.server, country: 'us' } }));
    expect(error.code).toBe(ErrorCode.PROXY_FAILED);
  });

  it('still applies the SSRF guard to the target: the proxy is never asked for a private address', async () => {
    const strict = new UndiciHttpClient({ allowPrivateAddresses: false });
    const before = open.carried.length;
    try {
      const literal = await failure(strict.fetch({ url: site.url('/echo'), timeoutMs: 5000, maxBytes: 1000, proxy: { server: open.server, country: 'us' } }));
      expect(literal.code).toBe(ErrorCode.BLOCKED_ADDRESS);
      const named = await failure(client.fetch({ url: 'http://internal.test/', timeoutMs: 5000, maxBytes: 1000, proxy: { server: open.server, country: 'us' } }));
      expect(named.code).toBe(ErrorCode.BLOCKED_ADDRESS);
      expect(open.carried.length).toBe(before);
    } finally {
      await strict.close();
    }
  });
});
