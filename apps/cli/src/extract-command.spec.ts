import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { runExtractCommand } from './extract-command.js';

const article = `<html lang="en"><head><title>CLI page</title></head><body><nav><a href="/">Home</a></nav><article><h1>Heading</h1>${'<p>Body text of the article, with commas, and words enough to count as content.</p>'.repeat(4)}<p>The story goes on in the <a href="next.html">next part</a>, which picks up the same argument.</p></article></body></html>`;

async function run(args: string[]): Promise<{ code: number; out: string; err: string }> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (d: Buffer) => (out += d.toString()));
  stderr.on('data', (d: Buffer) => (err += d.toString()));
  const code = await runExtractCommand(args, { stdout, stderr });
  return { code, out, err };
}

describe('extract command', () => {
  let dir: string;
  let server: Server;
  let base: string;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'trawl-extract-'));
    writeFileSync(path.join(dir, 'page.html'), article);
    writeFileSync(path.join(dir, 'page.html.gz'), gzipSync(Buffer.from(article)));
    // Latin-1 page declared only in the header: checks the charset path of the http loader.
    server = createServer((req, res) => {
      if (req.url === '/latin1') {
        res.writeHead(200, { 'content-type': 'text/html; charset=iso-8859-1' });
        res.end(Buffer.from(article.replace('Heading', 'Caf\u00e9 heading'), 'latin1'));
      } else {
        res.writeHead(404).end();
      }
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await new Promise((r) => server.close(r));
  });

  it('prints markdown of a local file by default', async () => {
    const { code, out } = await run([path.join(dir, 'page.html')]);
    expect(code).toBe(0);
    expect(out).toContain('# Heading');
    expect(out).not.toContain('Home');
  });

  it('reads gzip-compressed files and file: URLs, and prints page_text', async () => {
    const gz = await run([path.join(dir, 'page.html.gz'), '--format', 'page_text']);
    expect(gz.code).toBe(0);
    expect(gz.out).toContain('Body text of the article');
    const viaUrl = await run([pathToFileURL(path.join(dir, 'page.html')).href, '--format=page_text']);
    expect(viaUrl.out).toBe(gz.out);
  });

  it('prints all formats and metadata as json, resolving links against --url', async () => {
    const { code, out } = await run([path.join(dir, 'page.html'), '--format', 'json', '--url', 'https://site.example/a/b.html', '--converter', 'turndown']);
    expect(code).toBe(0);
    const page = JSON.parse(out) as Record<string, unknown>;
    expect(page.metadata).toMatchObject({ title: 'CLI page', language: 'en' });
    expect(page.markdown).toContain('(https://site.example/a/next.html)');
    expect(typeof page.enhanced_html).toBe('string');
    expect(typeof page.page_text).toBe('string');
  });

  it('fetches http URLs and decodes their charset', async () => {
    const { code, out } = await run([`${base}/latin1`, '--format', 'page_text']);
    expect(code).toBe(0);
    expect(out).toContain('Café heading');
  });

  it('fails cleanly on a missing file, an HTTP error and bad arguments', async () => {
    expect((await run([path.join(dir, 'nope.html')])).code).toBe(1);
    const notFound = await run([`${base}/missing`]);
    expect(notFound.code).toBe(1);
    expect(notFound.err).toContain('404');
    expect((await run([path.join(dir, 'page.html'), '--format', 'pdf'])).code).toBe(2);
    expect((await run(['ftp://x/y'])).code).toBe(1);
    expect((await run([])).code).toBe(2);
  });
});
