/**
 * Requests that HTTP parsing refuses before any route runs (oversized headers, a malformed request line, an
 * oversized or malformed body, an overlong path parameter) still answer in the contract's error shape.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import net from 'node:net';
import { startHarness, type Harness } from './support/harness.js';

let trawl: Harness;

beforeAll(async () => {
  trawl = await startHarness();
});

afterAll(async () => {
  await trawl?.close();
});

/** Sends raw bytes and reads the whole answer (the server closes the connection). */
function raw(text: string): Promise<{ status: number; body: any }> {
  const { port } = new URL(trawl.baseUrl);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), '127.0.0.1', () => socket.write(text));
    let data = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (data += chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(data)?.[1] ?? 0);
      const text = data.slice(data.indexOf('\r\n\r\n') + 4);
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        // not JSON
      }
      resolve({ status, body });
    });
  });
}

const errorShape = { error: { code: expect.any(String), message: expect.any(String) } };

describe('errors refused below the routes', () => {
  it('headers too large → 431 in the error shape', async () => {
    const res = await raw(`GET /crawl HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    expect(res.status).toBe(431);
    expect(res.body).toEqual(errorShape);
  });

  it('a malformed request line → 400 in the error shape', async () => {
    const res = await raw('GARBAGE\r\n\r\n');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: { code: 'INVALID_REQUEST', message: 'Malformed HTTP request' } });
  });

  it('a body over the limit → 413, a malformed JSON body → 400, both in the error shape', async () => {
    const big = await raw(
      `POST /admin/accounts HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 70000\r\nConnection: close\r\n\r\n${'{'.repeat(70_000)}`,
    );
    expect(big.status).toBe(413);
    expect(big.body).toEqual(errorShape);
    const bad = await raw(`POST /admin/accounts HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 3\r\nConnection: close\r\n\r\n{{{`);
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual(errorShape);
  });

  it('an overlong URL → 414, not 431, in the error shape', async () => {
    const res = await raw(`GET /crawl?urls=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
    expect(res.status).toBe(414);
    expect(res.body).toEqual({ error: { code: 'INVALID_REQUEST', message: 'The request URL is too long' } });
  });

  it('no Host header on HTTP/1.1 → 400 in the error shape (Node answered with an empty body)', async () => {
    const res = await raw('GET /health HTTP/1.1\r\nConnection: close\r\n\r\n');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: { code: 'INVALID_REQUEST', message: 'The Host header is required' } });
  });

  it('an Expect other than 100-continue → 417 in the error shape (Node answered with an empty body)', async () => {
    const res = await raw('GET /health HTTP/1.1\r\nHost: x\r\nExpect: teapot\r\nConnection: close\r\n\r\n');
    expect(res.status).toBe(417);
    expect(res.body).toEqual(errorShape);
  });

  it('an overlong path parameter → 414 in the error shape', async () => {
    const res = await raw(`GET /admin/accounts/${'a'.repeat(300)} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
    expect(res.status).toBe(414);
    expect(res.body).toEqual(errorShape);
  });
});

describe('x-request-id', () => {
  it('echoes a valid client id, replaces an invalid one, and generates one when absent (errors included)', async () => {
    const honoured = await trawl.get('/health', { 'x-request-id': 'client-42.a:b_c' });
    expect(honoured.headers.get('x-request-id')).toBe('client-42.a:b_c');
    const invalid = await trawl.get('/health', { 'x-request-id': 'bad id/with spaces' });
    expect(invalid.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const tooLong = await trawl.get('/health', { 'x-request-id': 'x'.repeat(129) });
    expect(tooLong.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const generated = await trawl.get('/crawl?urls=https://unreachable.invalid');
    expect(generated.status).toBe(401);
    expect(generated.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });
});
