import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { ServerResponse } from 'node:http';
import zlib from 'node:zlib';
import { ErrorCode } from '#contracts';
import { UndiciHttpClient } from './http-client.js';
import { startFixtureServer, type FixtureServer } from './testing/fixture-server.js';
import { expectTrawlError as failure } from '#test/support/trawl-error.js';

const PAGE = `<!doctype html><html><body><h1>Déjà vu</h1><p>${'lorem ipsum '.repeat(200)}</p></body></html>`;
// "café – “€”" in windows-1252 and "日本語" in Shift_JIS (encoders for these are not in Node, so bytes by hand).
const CAFE_1252 = Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x20, 0x96, 0x20, 0x93, 0x80, 0x94]);
const NIHONGO_SJIS = Buffer.from([0x93, 0xfa, 0x96, 0x7b, 0x8c, 0xea]);

const send = (headers: Record<string, string | number>, body: Buffer | string) => (_req: unknown, res: ServerResponse) =>
  res.writeHead(200, headers).end(body);

/** Streams `total` bytes of HTML in 16 KB chunks without a Content-Length, stopping early if the client goes away. */
const endless = (total: number) => (_req: unknown, res: ServerResponse) => {
  res.writeHead(200, { 'content-type': 'text/html' });
  const chunk = Buffer.alloc(16 * 1024, 'a');
  let sent = 0;
  const pump = (): void => {
    while (sent < total && !res.destroyed) {
      sent += chunk.length;
      if (!res.write(chunk)) {
        res.once('drain', pump);
        return;
      }
    }
    res.end();
  };
  res.on('close', () => (sent = total));
  pump();
};

describe('UndiciHttpClient bodies', () => {
  let server: FixtureServer;
  let client: UndiciHttpClient;
  const fetchPath = (path: string, maxBytes = 1_000_000) => client.fetch({ url: server.url(path), timeoutMs: 10_000, maxBytes });

  // 64 concatenated gzip members of 16 MB of zeros: 1 GiB once inflated from ~1 MB on the wire, with an honest,
  // small Content-Length. Inflating it all would take seconds and a gigabyte of memory.
  const bomb = Buffer.concat(new Array<Buffer>(64).fill(zlib.gzipSync(Buffer.alloc(16 * 1024 * 1024))));

  beforeAll(async () => {
    const html = { 'content-type': 'text/html; charset=utf-8' };
    server = await startFixtureServer({
      '/gzip': send({ ...html, 'content-encoding': 'gzip' }, zlib.gzipSync(PAGE)),
      '/br': send({ ...html, 'content-encoding': 'br' }, zlib.brotliCompressSync(PAGE)),
      '/deflate': send({ ...html, 'content-encoding': 'deflate' }, zlib.deflateSync(PAGE)),
      '/deflate-raw': send({ ...html, 'content-encoding': 'deflate' }, zlib.deflateRawSync(PAGE)),
      '/gzip-then-br': send({ ...html, 'content-encoding': 'gzip, br' }, zlib.brotliCompressSync(zlib.gzipSync(PAGE))),
      '/truncated-gzip': send({ ...html, 'content-encoding': 'gzip' }, zlib.gzipSync(PAGE).subarray(0, 200)),
      '/corrupt-gzip': send({ ...html, 'content-encoding': 'gzip' }, Buffer.from('this is not gzip at all')),
      '/corrupt-br': send({ ...html, 'content-encoding': 'br' }, Buffer.from([0xff, 0xff, 0xff, 0xff])),
      '/zstd': send({ ...html, 'content-encoding': 'zstd' }, 'whatever'),
      '/exact': send(html, 'x'.repeat(1000)),
      '/big-declared': send(html, 'x'.repeat(5000)),
      '/big-chunked': endless(8 * 1024 * 1024),
      '/bomb': send({ ...html, 'content-encoding': 'gzip', 'content-length': bomb.length }, bomb),
      '/cp1252-header': send({ 'content-type': 'text/html; charset=windows-1252' }, Buffer.concat([Buffer.from('<p>'), CAFE_1252])),
      '/sjis-meta': send(
        { 'content-type': 'text/html' },
        Buffer.concat([Buffer.from('<html><head><meta http-equiv="Content-Type" content="text/html; charset=Shift_JIS"></head><body>'), NIHONGO_SJIS]),
      ),
      '/sjis-header': send({ 'content-type': 'text/plain; charset=shift_jis' }, NIHONGO_SJIS),
      '/cp1252-meta-gzip': send(
        { 'content-type': 'text/html', 'content-encoding': 'gzip' },
        zlib.gzipSync(Buffer.concat([Buffer.from('<meta charset="windows-1252"><p>'), CAFE_1252])),
      ),
      '/bogus-charset': send({ 'content-type': 'text/html; charset=klingon-8' }, '<p>naïve</p>'),
    });
    client = new UndiciHttpClient({ allowPrivateAddresses: true });
  });

  afterAll(async () => {
    await client.close();
    await server.close();
  });

  describe('decompression', () => {
    it.each(['/gzip', '/br', '/deflate', '/deflate-raw', '/gzip-then-br'])('decodes %s', async (path) => {
      const result = await fetchPath(path);
      expect(result.body).toBe(PAGE);
      expect(result.bytes).toBe(Buffer.byteLength(PAGE));
    });

    it('keeps what a truncated gzip stream decoded, as browsers do', async () => {
      const result = await fetchPath('/truncated-gzip');
      expect(result.body.length).toBeGreaterThan(0);
      expect(PAGE.startsWith(result.body)).toBe(true);
    });

    it.each(['/corrupt-gzip', '/corrupt-br'])('reports a corrupt compressed body (%s) as a permanent error', async (path) => {
      const error = await failure(fetchPath(path));
      expect(error.code).toBe(ErrorCode.NETWORK_ERROR);
      expect(error.retryable).toBe(false);
    });

    it('refuses a content encoding it did not ask for', async () => {
      expect((await failure(fetchPath('/zstd'))).code).toBe(ErrorCode.UNSUPPORTED_CONTENT);
    });
  });

  describe('size cap', () => {
    it('accepts a body of exactly maxBytes', async () => {
      expect((await fetchPath('/exact', 1000)).bytes).toBe(1000);
    });

    it('refuses an oversize body from its Content-Length before reading it', async () => {
      const error = await failure(fetchPath('/big-declared', 1000));
      expect(error.code).toBe(ErrorCode.TOO_LARGE);
      expect(error.retryable).toBe(false);
    });

    it('stops reading a chunked body as soon as it passes the cap', async () => {
      const started = Date.now();
      expect((await failure(fetchPath('/big-chunked', 64 * 1024))).code).toBe(ErrorCode.TOO_LARGE);
      expect(Date.now() - started).toBeLessThan(5_000); // well under the 10 s budget on a loaded 2-core CI machine
    });

    it('caps the decompressed size of a gzip bomb without inflating all of it', async () => {
      const memoryBefore = process.memoryUsage().arrayBuffers;
      const started = Date.now();
      const error = await failure(fetchPath('/bomb', 1024 * 1024));
      expect(error.code).toBe(ErrorCode.TOO_LARGE);
      // Inflating all of it takes seconds and a gigabyte: the memory bound is the claim, the time one a loose second.
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(process.memoryUsage().arrayBuffers - memoryBefore).toBeLessThan(64 * 1024 * 1024);
    });

    it('still serves normal pages after aborted oversize reads', async () => {
      await failure(fetchPath('/big-chunked', 1024));
      expect((await fetchPath('/gzip')).body).toBe(PAGE);
    });
  });

  describe('charset', () => {
    it('decodes windows-1252 from the Content-Type header', async () => {
      const result = await fetchPath('/cp1252-header');
      expect(result.body).toBe('<p>café – “€”');
      expect(result.charset).toBe('windows-1252');
    });

    it('decodes shift_jis from an http-equiv meta tag', async () => {
      const result = await fetchPath('/sjis-meta');
      expect(result.body.endsWith('<body>日本語')).toBe(true);
      expect(result.charset).toBe('shift_jis');
    });

    it('decodes shift_jis from the header', async () => {
      expect((await fetchPath('/sjis-header')).body).toBe('日本語');
    });

    it('sniffs the meta charset after decompression', async () => {
      expect((await fetchPath('/cp1252-meta-gzip')).body).toContain('café – “€”');
    });

    it('falls back to UTF-8 for a bogus charset label', async () => {
      const result = await fetchPath('/bogus-charset');
      expect(result.body).toBe('<p>naïve</p>');
      expect(result.charset).toBe('utf-8');
    });
  });
});
