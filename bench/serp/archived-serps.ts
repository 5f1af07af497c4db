/**
 * Result pages nobody tuned for: the archived Google, Bing and DuckDuckGo pages of the Archive Query Log's manual
 * annotations (web.archive.org captures from 2009 to 2022, every market, web and vertical searches), each with the
 * results its authors' parser extracted. Per engine: the pages whose every expected result link comes out of ours,
 * in order (extra results allowed), and the verdicts given where nothing was expected.
 *
 * Their parser's lists are a reference, not a truth: it counts a few links to Google's own searches ("News for …",
 * an entity's search) as results, which ours leaves out; `--verbose` prints every page that misses a link.
 *
 * Run: `npm run build:server && node dist/bench/serp/archived-serps.js --repo PATH [--verbose]`, PATH: a checkout of
 * the public archive-query-log repository (data/manual-annotations/archived-raw-serps/{warcs,expected}).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { createSearchProviders, parseGoogleSerp } from '#serp';
import { normalizeUrl, unwrapGoogleLink } from '#serp/util/urls.js';

const args = process.argv.slice(2);
const repo = args.includes('--repo') ? args[args.indexOf('--repo') + 1] : undefined;
const verbose = args.includes('--verbose');
const dir = repo && path.join(repo, 'data/manual-annotations/archived-raw-serps');
if (!dir || !existsSync(path.join(dir, 'warcs'))) {
  console.error('usage: node dist/bench/serp/archived-serps.js --repo PATH (a checkout of archive-query-log)');
  process.exit(2);
}

/** The body of the capture's response record: WARC headers, then the HTTP head, then the page (chunked or not). */
function responseBody(warc: Buffer): string {
  const text = gunzipSync(warc).toString('latin1');
  const at = text.indexOf('WARC-Type: response');
  if (at < 0) return '';
  const httpStart = text.indexOf('\r\n\r\n', at) + 4;
  const bodyStart = text.indexOf('\r\n\r\n', httpStart) + 4;
  const head = text.slice(httpStart, bodyStart);
  let body = text.slice(bodyStart);
  if (/transfer-encoding:\s*chunked/i.test(head) && /^[0-9a-f]+\r\n/i.test(body)) {
    let out = '';
    let p = 0;
    for (;;) {
      const eol = body.indexOf('\r\n', p);
      const size = parseInt(body.slice(p, eol), 16);
      if (!(size > 0)) break;
      out += body.slice(eol + 2, eol + 2 + size);
      p = eol + 2 + size + 2;
    }
    body = out;
  }
  return Buffer.from(body, 'latin1').toString('utf8');
}

const engines = createSearchProviders({ googleBaseUrl: 'http://127.0.0.1/', bingBaseUrl: 'http://127.0.0.1/', duckduckgoBaseUrl: 'http://127.0.0.1/' });

function ourLinks(engine: string, html: string): { links: string[]; verdict: string } {
  if (engine === 'google') {
    const { verdict, result } = parseGoogleSerp(html, { type: 'search', page: 1, num: 10 });
    return { links: (result?.serp_search_results ?? []).map((r) => ('link' in r ? String(r.link) : '')), verdict: verdict.kind };
  }
  const { verdict, page } = engines[engine as 'bing' | 'duckduckgo'].parseSearchPage?.(html, { query: '', page: 1 }) ?? { verdict: { kind: 'blocked' } };
  return { links: (page?.search_results ?? []).map((r) => r.link), verdict: verdict.kind };
}

const key = (u: string) => normalizeUrl(unwrapGoogleLink(u) || u).replace(/^https?:\/\/(www\.)?/i, '').replace(/\/$/, '').toLowerCase();

interface Row { pages: number; expected: number; complete: number; verdicts: Record<string, number> }
const rows: Record<string, Row> = {};
for (const file of readdirSync(path.join(dir, 'warcs')).filter((f) => f.endsWith('.warc.gz')).sort()) {
  const engine = file.split('-')[0];
  if (!['google', 'bing', 'duckduckgo'].includes(engine)) continue;
  const stem = file.slice(0, -'.warc.gz'.length);
  const expectedFile = path.join(dir, 'expected', `${stem}.approved.txt`);
  const expected = existsSync(expectedFile) ? (JSON.parse(readFileSync(expectedFile, 'utf8')) as { results: Array<{ url: string }> }).results.map((r) => r.url) : [];
  const { links, verdict } = ourLinks(engine, responseBody(readFileSync(path.join(dir, 'warcs', file))));
  const row = (rows[engine] ??= { pages: 0, expected: 0, complete: 0, verdicts: {} });
  row.pages++;
  if (!expected.length) {
    row.verdicts[verdict] = (row.verdicts[verdict] ?? 0) + 1;
    continue;
  }
  row.expected++;
  const ours = links.map(key);
  let from = 0;
  const missing = expected.filter((u) => {
    const at = ours.indexOf(key(u), from);
    if (at < 0) return true;
    from = at + 1;
    return false;
  });
  if (!missing.length) row.complete++;
  else if (verbose) console.log(`${stem}: ${verdict}, ${links.length} results, ${expected.length} expected; not found in order: ${missing.slice(0, 3).join(' ')}`);
}
for (const [engine, r] of Object.entries(rows)) {
  const pct = r.expected ? ` (${((100 * r.complete) / r.expected).toFixed(1)} %)` : '';
  console.log(`${engine.padEnd(11)} ${r.pages} pages: ${r.complete}/${r.expected} with every expected result in order${pct}; `
    + `where none was expected: ${Object.entries(r.verdicts).map(([v, n]) => `${v} ${n}`).join(', ') || '-'}`);
}
