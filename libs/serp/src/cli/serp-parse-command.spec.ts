import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { runSerpParseCommand } from './serp-parse-command.js';

async function run(args: string[]): Promise<{ code: number; out: string; err: string }> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (d: Buffer) => (out += d.toString()));
  stderr.on('data', (d: Buffer) => (err += d.toString()));
  const code = await runSerpParseCommand(args, { stdout, stderr });
  return { code, out, err };
}

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'serp-cli-'));
  const page = '<div id="main"><div class="g"><a href="/url?q=https://a.example/&sa=U"><h3>A page</h3></a><div class="VwiC3b">About A.</div></div></div>';
  await writeFile(path.join(dir, 'google.html.gz'), gzipSync(page));
  await writeFile(path.join(dir, 'captcha.html'), '<form id="captcha-form" action="/sorry/index"></form>');
  await writeFile(path.join(dir, 'ddg.html'), '<div class="result"><a class="result__a" href="https://d.example/">D</a><a class="result__snippet">d</a></div>');
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('serp:parse', () => {
  it('prints the /serp-search body for a gzipped Google page', async () => {
    const { code, out } = await run(['--engine', 'google', path.join(dir, 'google.html.gz')]);
    expect(code).toBe(0);
    expect(JSON.parse(out)).toEqual({ serp_search_results: [{ title: 'A page', link: 'https://a.example/', snippet: 'About A.', position: 1 }] });
  });

  it('prints the verdict for a block page', async () => {
    const { code, out } = await run(['--engine', 'google', path.join(dir, 'captcha.html')]);
    expect(code).toBe(0);
    expect(JSON.parse(out)).toEqual({ verdict: { kind: 'blocked', reason: 'captcha' } });
  });

  it('prints a /search page for DuckDuckGo', async () => {
    const { out } = await run(['--engine', 'duckduckgo', path.join(dir, 'ddg.html')]);
    expect(JSON.parse(out).search_results).toEqual([{ title: 'D', link: 'https://d.example/', date: null, snippet: 'd', source: 'd.example' }]);
  });

  it('fails with usage on bad arguments or unreadable files', async () => {
    expect((await run(['--engine', 'altavista', 'x.html'])).code).toBe(1);
    expect((await run(['--engine', 'google', '--type', 'videos', 'x.html'])).err).toContain('unknown --type');
    expect((await run(['--engine', 'google'])).err).toContain('missing file');
    expect((await run(['--engine', 'google', path.join(dir, 'missing.html')])).err).toContain('cannot read');
  });
});
