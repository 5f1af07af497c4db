// The guard proxy on its own (no browser): tunnels and forwards allowed traffic, refuses blocked hosts, chains upstream.
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Server as ProxyServer } from 'proxy-chain';
import type { ProxyInfo } from '#contracts';
import { GUARD_HEADER, GuardProxy } from './guard-proxy.js';
import { HostPolicy } from './host-policy.js';
import type { AddressPolicy } from './render-types.js';

const blocks127002: AddressPolicy = { blockedKind: (ip) => (ip === '127.0.0.2' ? 'private' : null) };
const noDns = async (): Promise<never> => {
  throw Object.assign(new Error('ENOTFOUND'), { code: 'ENOTFOUND' });
};

/** Opens a CONNECT tunnel through `proxyPort`; resolves with the status line and, when 200, the raw socket. */
function connectThrough(proxyPort: number, authority: string): Promise<{ status: number; socket: net.Socket }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port: proxyPort, method: 'CONNECT', path: authority });
    req.once('connect', (res, socket) => resolve({ status: res.statusCode ?? 0, socket }));
    req.once('error', reject);
    req.end();
  });
}

function echoOnce(socket: net.Socket, text: string): Promise<string> {
  return new Promise((resolve) => {
    socket.once('data', (data) => resolve(data.toString()));
    socket.write(text);
  });
}

describe('GuardProxy', () => {
  const echoConnections: string[] = [];
  let echo: net.Server;
  let echoPort = 0;
  let web: http.Server;
  let webPort = 0;
  let upstream: ProxyServer;
  const upstreamSaw: string[] = [];

  beforeAll(async () => {
    echo = net.createServer((socket) => {
      echoConnections.push(socket.localAddress ?? '');
      socket.on('data', (data) => socket.write(`echo:${data.toString()}`));
    });
    await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', () => resolve()));
    echoPort = (echo.address() as AddressInfo).port;
    web = http.createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain', 'x-saw-proxy-connection': String(req.headers['proxy-connection'] ?? 'none') });
      res.end(`web:${req.url}`);
    });
    await new Promise<void>((resolve) => web.listen(0, '127.0.0.1', () => resolve()));
    webPort = (web.address() as AddressInfo).port;
    upstream = new ProxyServer({
      port: 0,
      host: '127.0.0.1',
      prepareRequestFunction: ({ request, username }) => {
        upstreamSaw.push(`${username} ${request.method} ${request.url}`);
        return {};
      },
    });
    await upstream.listen();
  });

  afterAll(async () => {
    await upstream.close(true);
    web.closeAllConnections();
    await new Promise<void>((resolve) => web.close(() => resolve()));
    await new Promise<void>((resolve) => echo.close(() => resolve()));
  });

  async function withGuard(upstreamProxy: ProxyInfo | null, test: (guard: GuardProxy, port: number) => Promise<void>): Promise<void> {
    const guard = await GuardProxy.start();
    guard.assign(new HostPolicy(blocks127002, noDns, upstreamProxy !== null), upstreamProxy);
    try {
      await test(guard, Number(new URL(guard.url).port));
    } finally {
      await guard.close();
    }
  }

  it('tunnels CONNECT to an allowed host and refuses a blocked one with 403 without connecting', async () => {
    await withGuard(null, async (guard, port) => {
      const open = await connectThrough(port, `127.0.0.1:${echoPort}`);
      expect(open.status).toBe(200);
      expect(await echoOnce(open.socket, 'hi')).toBe('echo:hi');
      open.socket.destroy();

      const before = echoConnections.length;
      const refused = await connectThrough(port, `127.0.0.2:${echoPort}`);
      expect(refused.status).toBe(403);
      refused.socket.destroy();
      expect(echoConnections.length).toBe(before);
      expect(guard.failureFor('127.0.0.2')).toMatchObject({ kind: 'blocked', addressKind: 'private' });
    });
  });

  it('refuses everything until a job is assigned (a warm context must not fetch)', async () => {
    const guard = await GuardProxy.start();
    try {
      const before = echoConnections.length;
      const answer = await connectThrough(Number(new URL(guard.url).port), `127.0.0.1:${echoPort}`);
      expect(answer.status).toBe(403);
      answer.socket.destroy();
      expect(echoConnections.length).toBe(before);
    } finally {
      await guard.close();
    }
  });

  it('records a refused connection so the page layer can report CONNECTION_FAILED', async () => {
    const closed = net.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', () => resolve()));
    const deadPort = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    await withGuard(null, async (guard, port) => {
      const answer = await connectThrough(port, `127.0.0.1:${deadPort}`);
      expect(answer.status).toBe(502);
      answer.socket.destroy();
      expect(guard.failureFor('127.0.0.1')).toMatchObject({ kind: 'connect', detail: 'ECONNREFUSED' });
    });
  });

  it('forwards plain HTTP without leaking hop-by-hop headers, and marks refusals with its header', async () => {
    await withGuard(null, async (_guard, port) => {
      const get = (url: string): Promise<http.IncomingMessage & { body: string }> =>
        new Promise((resolve, reject) => {
          const req = http.request({ host: '127.0.0.1', port, path: url, headers: { 'proxy-connection': 'keep-alive' } }, (res) => {
            let body = '';
            res.on('data', (chunk: Buffer) => (body += chunk.toString()));
            res.on('end', () => resolve(Object.assign(res, { body })));
          });
          req.on('error', reject);
          req.end();
        });
      const ok = await get(`http://127.0.0.1:${webPort}/page?q=1`);
      expect(ok.statusCode).toBe(200);
      expect(ok.body).toBe('web:/page?q=1');
      expect(ok.headers['x-saw-proxy-connection']).toBe('none');
      const refused = await get(`http://127.0.0.2:${webPort}/secret`);
      expect(refused.statusCode).toBe(403);
      expect(refused.headers[GUARD_HEADER]).toBe('blocked');
    });
  });

  it('chains allowed traffic through the upstream proxy with its credentials', async () => {
    const proxy: ProxyInfo = { server: `http://127.0.0.1:${upstream.port}`, username: 'user-country-jp', password: 'pw', country: 'jp' };
    await withGuard(proxy, async (_guard, port) => {
      const open = await connectThrough(port, `127.0.0.1:${echoPort}`);
      expect(open.status).toBe(200);
      expect(await echoOnce(open.socket, 'via')).toBe('echo:via');
      open.socket.destroy();
      const refused = await connectThrough(port, `127.0.0.2:${echoPort}`);
      expect(refused.status).toBe(403);
      refused.socket.destroy();
    });
    expect(upstreamSaw).toEqual([`user-country-jp CONNECT 127.0.0.1:${echoPort}`]);
  });

  it('refuses a name that does not resolve here instead of letting the upstream proxy resolve it', async () => {
    const proxy: ProxyInfo = { server: `http://127.0.0.1:${upstream.port}`, username: 'user-country-de', password: 'pw', country: 'de' };
    const before = upstreamSaw.length;
    await withGuard(proxy, async (guard, port) => {
      // The upstream's resolver could answer this name with a private address that nobody checked.
      const refused = await connectThrough(port, `localhost.localdomain:${echoPort}`);
      expect(refused.status).not.toBe(200);
      refused.socket.destroy();
      expect(guard.failureFor('localhost.localdomain')).toMatchObject({ kind: 'dns' });
    });
    expect(upstreamSaw.slice(before)).toEqual([]);
  });
});
