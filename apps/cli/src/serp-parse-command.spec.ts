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
  // A windows-1252 page that says so only in <meta>: read with the crawler's decoder, not as UTF-8.
  await writeFile(path.join(dir, 'latin.html'), Buffer.from(
    '<meta charset="windows-1252"><div id="main"><div class="g"><a href="/url?q=https://a.example/caf%C3%A9&sa=U"><h3>Caf\xe9 cr\xe8me</h3></a><div class="VwiC3b">Br\xfbl\xe9e \x96 good.</div></div></div>',
    'latin1',
  ));
  await writeFile(path.join(dir, 'captcha.html'), '<form id="captcha-form" action="/sorry/index"></form>');
  await writeFile(path.join(dir, 'ddg.html'), '<div class="result"><a class="result__a" href="https://d.example/">D</a><a class="result__snippet">d</a></div>');
  await writeFile(path.join(dir, 'bing.html'), '<span class="sb_count">About 1,000 results</span><ol id="b_results">'
    + '<li class="b_algo"><h2><a href="https://b.example/">B</a></h2><div class="b_caption"><p>b</p></div></li>'
    + '<li class="b_ans"><div class="b_rs"><ul><li><a href="/search?q=b+c">b c</a></li></ul></div></li></ol>'
    + '<ol id="b_context"><li class="b_ans"><div class="b_entityTP"><h2 class="b_entityTitle">B</h2><div class="b_entitySubTitle">Thing</div>'
    + '<div class="b_snippet">About B.</div></div></li></ol>');
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('serp:parse', () => {
  it('decodes a page file by its declared charset, as the crawler would', async () => {
    const { code, out } = await run(['--engine', 'google', path.join(dir, 'latin.html')]);
    expect(code).toBe(0);
    const [result] = JSON.parse(out).serp_search_results;
    expect(result).toMatchObject({ title: 'Café crème', snippet: 'Brûlée – good.' });
  });

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

  it('prints the /search page object for Bing: the object the endpoint puts under pages["1"]', async () => {
    const { code, out } = await run(['--engine', 'bing', path.join(dir, 'bing.html')]);
    expect(code).toBe(0);
    expect(JSON.parse(out)).toEqual({
      total_results: 'About 1,000 results',
      search_results: [{ title: 'B', link: 'https://b.example/', date: null, snippet: 'b', source: 'b.example' }],
      related_queries: ['b c'],
      sidebar: { title: 'B', type: 'Thing', description: 'About B.', attributes: {} },
    });
  });

  it('takes the HTTP status into account (DuckDuckGo answers distrusted clients 202) and Google --shape web', async () => {
    expect(JSON.parse((await run(['--engine', 'duckduckgo', '--status', '202', path.join(dir, 'ddg.html')])).out))
      .toEqual({ verdict: { kind: 'blocked', reason: 'captcha' } });
    expect(JSON.parse((await run(['--engine', 'google', '--shape', 'web', path.join(dir, 'google.html.gz')])).out)).toEqual({
      total_results: '', search_results: [{ title: 'A page', link: 'https://a.example/', date: null, snippet: 'About A.', source: 'a.example' }], related_queries: [],
    });
    expect((await run(['--engine', 'bing', '--status', 'x', path.join(dir, 'bing.html')])).err).toContain('--status');
  });

  it('fails with usage on bad arguments or unreadable files', async () => {
    expect((await run(['--engine', 'altavista', 'x.html'])).code).toBe(1);
    expect((await run(['--engine', 'google', '--type', 'videos', 'x.html'])).err).toContain('unknown --type');
    expect((await run(['--engine', 'google'])).err).toContain('missing file');
    expect((await run(['--engine', 'google', path.join(dir, 'missing.html')])).err).toContain('cannot read');
  });
});
