/** Form posts (DuckDuckGo's HTML endpoint): the body and method reach the server; a 303 turns the post into a GET. */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { UndiciHttpClient } from './http-client.js';
import { startFixtureServer, type FixtureServer } from './testing/fixture-server.js';

describe('UndiciHttpClient POST', () => {
  let server: FixtureServer;
  let client: UndiciHttpClient;
  const received: Array<{ path: string; method: string; body: string }> = [];
  const record = (then: (res: ServerResponse) => void) => (req: IncomingMessage, res: ServerResponse) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      received.push({ path: req.url ?? '', method: req.method ?? '', body });
      then(res);
    });
  };

  beforeAll(async () => {
    server = await startFixtureServer({
      '/form': record((res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<p>ok</p>')),
      '/see-other': record((res) => res.writeHead(303, { location: '/form' }).end()),
      '/temporary': record((res) => res.writeHead(307, { location: '/form' }).end()),
    });
    client = new UndiciHttpClient({ allowPrivateAddresses: true });
  });

  afterAll(async () => {
    await client.close();
    await server.close();
  });

  const post = (path: string) =>
    client.fetch({ url: server.url(path), timeoutMs: 5_000, maxBytes: 100_000, method: 'POST', body: 'q=ducks&b=', headers: { 'content-type': 'application/x-www-form-urlencoded' } });

  it('sends the method and the form body', async () => {
    received.length = 0;
    const res = await post('/form');
    expect(res.status).toBe(200);
    expect(received).toEqual([{ path: '/form', method: 'POST', body: 'q=ducks&b=' }]);
  });

  it('follows a 303 with a GET without the body, and a 307 with the same POST', async () => {
    received.length = 0;
    await post('/see-other');
    await post('/temporary');
    expect(received.map((r) => [r.path, r.method, r.body])).toEqual([
      ['/see-other', 'POST', 'q=ducks&b='], ['/form', 'GET', ''],
      ['/temporary', 'POST', 'q=ducks&b='], ['/form', 'POST', 'q=ducks&b='],
    ]);
  });
});
