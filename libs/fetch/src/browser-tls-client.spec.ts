/**
 * The browser-TLS client: a Chrome handshake (Chrome's cipher suites in Chrome's order, not Node's), the same request
 * shape as the undici client (method, form body, device headers), and the address guard before any connection.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import http from 'node:http';
import net from 'node:net';
import { AddressGuard } from './address-guard.js';
import { BrowserTlsHttpClient } from './browser-tls-client.js';

const client = new BrowserTlsHttpClient({ guard: new AddressGuard({ allowPrivateAddresses: true, allowedKinds: ['loopback'] }) });
let echo: http.Server;
let echoUrl: string;

beforeAll(async () => {
  echo = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () =>
      res
        .writeHead(200, { 'content-type': 'application/json; charset=utf-8' })
        .end(JSON.stringify({ method: req.method, body, ua: req.headers['user-agent'], lang: req.headers['accept-language'] })),
    );
  });
  await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve));
  echoUrl = `http://127.0.0.1:${(echo.address() as net.AddressInfo).port}/html/`;
});

afterAll(async () => {
  await client.close();
  await new Promise((resolve) => echo.close(resolve));
});

/** Cipher suites of the first ClientHello that reaches a raw TCP listener. */
async function cipherSuitesOfClientHello(send: (url: string) => Promise<unknown>): Promise<number[]> {
  let resolveHello!: (suites: number[]) => void;
  const hello = new Promise<number[]>((resolve) => (resolveHello = resolve));
  const server = net.createServer((socket) => {
    socket.once('data', (data: Buffer) => {
      // record header (5) + handshake header (4) + version (2) + random (32), then session id, then cipher suites.
      let at = 5 + 4 + 2 + 32;
      at += 1 + data[at];
      const length = data.readUInt16BE(at);
      const suites: number[] = [];
      for (let i = 0; i < length; i += 2) suites.push(data.readUInt16BE(at + 2 + i));
      resolveHello(suites);
      socket.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  const request = send(`https://127.0.0.1:${port}/`).catch(() => undefined);
  const suites = await hello;
  await request;
  server.close();
  return suites;
}

const isGrease = (v: number) => (v & 0x0f0f) === 0x0a0a && v >> 8 === (v & 0xff);
/** The cipher suites Chrome offers, in its order (GREASE values aside): what JA3/JA4 fingerprints read. */
const CHROME_SUITES = [0x1301, 0x1302, 0x1303, 0xc02b, 0xc02f, 0xc02c, 0xc030, 0xcca9, 0xcca8, 0xc013, 0xc014, 0x9c, 0x9d, 0x2f, 0x35];

describe('BrowserTlsHttpClient', () => {
  it("speaks Chrome's TLS: its ClientHello offers Chrome's cipher suites in Chrome's order, unlike Node's", async () => {
    const chrome = await cipherSuitesOfClientHello((url) => client.fetch({ url, timeoutMs: 2000, maxBytes: 1000 }));
    expect(chrome.filter((v) => !isGrease(v))).toEqual(CHROME_SUITES);
    const node = await cipherSuitesOfClientHello((url) => fetch(url));
    expect(node.filter((v) => !isGrease(v))).not.toEqual(CHROME_SUITES);
  });

  it('sends the method, the form body and the device headers, and decodes the answer', async () => {
    const res = await client.fetch({
      url: echoUrl,
      method: 'POST',
      body: 'q=deep+sea&b=',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      device: 'mobile',
      acceptLanguage: 'de-DE,de;q=0.9',
      timeoutMs: 5000,
      maxBytes: 10_000,
    });
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toEqual({ method: 'POST', body: 'q=deep+sea&b=', ua: expect.stringContaining('Android'), lang: 'de-DE,de;q=0.9' });
    expect(res.charset).toBe('utf-8');
  });

  it('refuses metadata and link-local targets before connecting, and caps the body', async () => {
    await expect(client.fetch({ url: 'http://169.254.169.254/latest/meta-data', timeoutMs: 1000, maxBytes: 1000 })).rejects.toMatchObject({ code: 'BLOCKED_ADDRESS' });
    await expect(client.fetch({ url: echoUrl, timeoutMs: 5000, maxBytes: 10 })).rejects.toMatchObject({ code: 'TOO_LARGE' });
  });
});
