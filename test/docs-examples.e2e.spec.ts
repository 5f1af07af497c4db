/**
 * Every documented example of the data endpoints is what the server answers: each `curl` of README.md and
 * docs/api.md for /crawl, /search, /serp-search, /serp-maps and /headful-browser is sent as written (its
 * `https://example.com` pointed at a loopback fixture site, the engines at loopback fixtures), and the JSON shown
 * after it is compared with the answer: every documented field is there with the documented JSON type, and the
 * figures a client relies on — credits, counts, positions, status codes, the echoed parameters, `status`,
 * `cache_state`, the error code of a failed URL — are exactly the documented ones. A change of the API that leaves
 * the docs behind (or docs that promise what the server does not do) fails here.
 *
 * The fixture pages play what the examples describe: a URL documented as failed with TIMEOUT never answers; the
 * search engine answers the example query with one page that loads and one that does not. Google (for /serp-search
 * and /serp-maps) serves captured pages from ../shared/corpus (those examples are skipped, with a message, without it).
 */
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { readFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { bingPage } from '#bench/support/bing-fixture.js';
import { WorkerRegistry } from '#queue';
import { CORPUS_DIR, REPO_ROOT } from './support/env.js';
import { html, startFixtureServer, type FixtureServer } from './support/fixture-server.js';
import { startHarness, type Harness } from './support/harness.js';
import { pollUntil } from './support/poll.js';
import { startRecordingProxy, type RecordingProxy } from './support/recording-proxy.js';
import { corpusPresent } from './support/requires.js';

jest.setTimeout(90_000);

const DATA_ENDPOINTS = ['/crawl', '/search', '/serp-search', '/serp-maps', '/headful-browser'];
/** Examples left out, and why: the LLM formats need an LLM (test/llm-formats.e2e.spec.ts runs them against a stand-in). */
const NEEDS_LLM = /\b(summary|json_schema|json_prompt)=/;

interface Example {
  where: string;
  path: string;
  headers: Record<string, string>;
  needsLlm: boolean;
  /** The JSON shown after the command (the last command of a block), when there is one. */
  documented?: unknown;
}

/** The `curl` commands of a Markdown file's ```bash blocks, each with the ```json block right after it. */
function examplesOf(file: string): Example[] {
  const text = readFileSync(`${REPO_ROOT}/${file}`, 'utf8');
  const examples: Example[] = [];
  const block = /```bash\n([\s\S]*?)```(?:\s*```json\n([\s\S]*?)```)?/g;
  for (let m = block.exec(text); m; m = block.exec(text)) {
    const line = text.slice(0, m.index).split('\n').length;
    const commands = m[1].replace(/\\\n\s*/g, ' ').split('\n').filter((c) => c.trim().startsWith('curl '));
    commands.forEach((command, i) => {
      if (/-X\s+(POST|DELETE|PUT)/.test(command)) return;
      const url = /"http:\/\/127\.0\.0\.1:8080(\/[^"]*)"/.exec(command)?.[1];
      if (!url || !DATA_ENDPOINTS.includes(url.split('?')[0])) return;
      const extra = [...command.matchAll(/--data-urlencode "([^=]+)=([^"]*)"/g)].map(([, k, v]) => `${k}=${encodeURIComponent(v)}`);
      const path = extra.length ? `${url}${url.includes('?') ? '&' : '?'}${extra.join('&')}` : url;
      const headers: Record<string, string> = {};
      for (const [, name, value] of command.matchAll(/-H "([^:]+): ([^"]*)"/g)) headers[name.toLowerCase()] = value;
      const documented = i === commands.length - 1 && m[2] ? (JSON.parse(m[2]) as unknown) : undefined;
      examples.push({ where: `${file}:${line}`, path, headers, needsLlm: NEEDS_LLM.test(command), ...(documented !== undefined ? { documented } : {}) });
    });
  }
  return examples;
}

/** Numbers a client relies on, compared exactly. */
const EXACT_NUMBERS = new Set(['credits', 'successful_pages', 'pages_fetched', 'credits_used', 'credits_remaining', 'position', 'status_code']);
/** Strings compared exactly, by path (`parameters` is compared whole). */
const EXACT_STRINGS = new Set(['query', 'status']);
const EXACT_STRING_KEYS = new Set(['cache_state']);
/** Lists whose documented length is the answer's length (one item per URL, per result). */
const RESULT_LISTS = new Set(['results', 'data']);
/**
 * Fields the documents show in an example but say are there only when the page has them (docs/api.md, the /search
 * and /serp-search decisions): `parent.field`.
 */
const WHEN_SHOWN = new Set([
  'questions_answers.snippet', 'questions_answers.link', 'sidebar.link', 'sidebar.source', 'sidebar.local_results',
  'direct_answer.snippet', 'direct_answer.source', 'direct_answer.link', 'ai_answer.sources',
]);

const sorted = (record: Record<string, unknown>) => JSON.stringify(Object.fromEntries(Object.entries(record).sort(([a], [b]) => a.localeCompare(b))));

const kind = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);

/** Where the answer departs from the documented JSON, as `path: problem` lines. */
function departures(documented: unknown, actual: unknown, path = '', key = ''): string[] {
  const at = path || '(body)';
  if (documented === null || key === 'date') {
    // `date` is "string or null" (§2.1): a result without a date has null.
    return actual === null || typeof actual === 'string' ? [] : [`${at}: documented string or null, got ${kind(actual)}`];
  }
  if (kind(documented) !== kind(actual)) return [`${at}: documented ${kind(documented)}, got ${kind(actual)}`];
  if (Array.isArray(documented)) {
    const items = actual as unknown[];
    if (RESULT_LISTS.has(key) && items.length !== documented.length) return [`${at}: documented ${documented.length} item(s), got ${items.length}`];
    if (items.length === 0 && documented.length > 0 && !WHEN_SHOWN.has(`${path.split('.').at(-2)?.replace(/\[\d+\]$/, '')}.${key}`)) {
      return [`${at}: documented ${documented.length} item(s), got none`];
    }
    return documented.slice(0, items.length).flatMap((item, i) => departures(item, items[i], `${path}[${i}]`, key));
  }
  if (typeof documented === 'object') {
    const record = actual as Record<string, unknown>;
    if (key === 'parameters') return sorted(record) === sorted(documented as Record<string, unknown>) ? [] : [`${at}: documented ${JSON.stringify(documented)}, got ${JSON.stringify(record)}`];
    return Object.entries(documented as Record<string, unknown>).flatMap(([name, value]) => {
      if (name === '…') return [];
      if (!Object.hasOwn(record, name) && WHEN_SHOWN.has(`${key}.${name}`)) return [];
      if (!Object.hasOwn(record, name)) return [`${path ? `${path}.` : ''}${name}: documented, absent`];
      return departures(value, record[name], `${path ? `${path}.` : ''}${name}`, name);
    });
  }
  if (typeof documented === 'number' && EXACT_NUMBERS.has(key) && documented !== actual) return [`${at}: documented ${documented}, got ${String(actual)}`];
  if (typeof documented === 'string') {
    if ((EXACT_STRINGS.has(path) || EXACT_STRING_KEYS.has(key)) && documented !== actual) return [`${at}: documented "${documented}", got "${String(actual)}"`];
    if (key === 'error' && documented.split(':')[0] !== String(actual).split(':')[0]) return [`${at}: documented ${documented.split(':')[0]}, got "${String(actual)}"`];
  }
  return [];
}

/** Paths of example.com documented as failing with TIMEOUT: the fixture site holds those requests. */
function timeoutPaths(documented: unknown): string[] {
  const found: string[] = [];
  const walk = (v: unknown) => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') {
      const r = v as Record<string, unknown>;
      if (typeof r.url === 'string' && typeof r.error === 'string' && r.error.startsWith('TIMEOUT')) found.push(new URL(r.url).pathname);
      Object.values(r).forEach(walk);
    }
  };
  walk(documented);
  return found;
}

const EXAMPLES = [...examplesOf('README.md'), ...examplesOf('docs/api.md')];
const GOOGLE = `${CORPUS_DIR}/serp/google/zlurad-serp-parser/desktop-2023/html/coffee.html.gz`;
const MAPS = `${CORPUS_DIR}/serp/google-maps/gosom-google-maps-scraper/raw`;
const hasCorpus = corpusPresent(GOOGLE, 'documented /serp-search and /serp-maps examples') && corpusPresent(`${MAPS}/raw.json.gz`, 'documented /serp-maps examples');
const needsGoogle = (e: Example) => /^\/serp-(search|maps)/.test(e.path);

const CRAB_FARM = html(
  `<main><article><h1>Crab farm guide</h1><p>Visiting the crab farm on the coast is a fine day out for the whole family,
  with tanks, boats and a small museum about crabbing in the bay.</p><h2>Ticket prices</h2>
  <p>A ticket costs 12 euros for adults and 6 euros for children; families of four pay 30 euros at the gate.</p></article></main>`,
  'Crab farm guide',
);
const EXAMPLE_DOMAIN = html(
  '<div><h1>Example Domain</h1><p>This domain is for use in illustrative examples in documents. You may use this domain in literature without prior coordination or asking for permission.</p></div>',
  'Example Domain',
);

let trawl: Harness;
let site: FixtureServer;
let engines: FixtureServer;
let proxy: RecordingProxy;
const hanging = new Set<string>();
const held: ServerResponse[] = [];

beforeAll(async () => {
  const page = (body: string) => (_req: unknown, res: ServerResponse) => void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body);
  const holdOr = (path: string, body: string) => (req: unknown, res: ServerResponse) => (hanging.has(path) ? void held.push(res) : page(body)(req, res));
  site = await startFixtureServer({
    '/': holdOr('/', EXAMPLE_DOMAIN),
    '/a': holdOr('/a', CRAB_FARM),
    '/b': holdOr('/b', EXAMPLE_DOMAIN),
    '/product': page(CRAB_FARM),
    '/article': page(CRAB_FARM),
    '/slow': (_req, res) => void held.push(res),
  });
  const corpus = hasCorpus
    ? {
        coffee: gunzipSync(readFileSync(GOOGLE)).toString('utf8'),
        mapsSearch: `)]}'\n${gunzipSync(readFileSync(`${MAPS}/output.json.gz`)).toString('utf8')}`,
        mapsPlace: `)]}'\n${gunzipSync(readFileSync(`${MAPS}/raw.json.gz`)).toString('utf8')}`,
      }
    : null;
  engines = await startFixtureServer({
    // Bing for /search: the example query gets a page that loads and one that never does.
    '/bing/search': (req, res) => {
      const params = new URL(req.url!, 'http://x').searchParams;
      const offset = Number(params.get('first') ?? 1) - 1;
      const results = [
        { title: 'Deep sea trawling', link: `${site.url}/article`, snippet: 'Trawling is a method of fishing.' },
        { title: 'Trawling, slowly', link: `${site.url}/slow`, snippet: 'A page that never finishes loading.' },
      ];
      res.writeHead(200, { 'content-type': 'text/html' }).end(bingPage({ query: params.get('q') ?? '', offset, hasNext: offset < 10, blocks: true, results }));
    },
    // Google for /serp-search (a captured result page) and /serp-maps (captured Maps payloads).
    '/search': (req, res) => {
      const maps = new URL(req.url!, 'http://x').searchParams.get('tbm') === 'map';
      if (!corpus) return void res.writeHead(503).end();
      res.writeHead(200, { 'content-type': maps ? 'application/json' : 'text/html; charset=utf-8' }).end(maps ? corpus.mapsSearch : corpus.coffee);
    },
    '/maps/preview/place': (_req, res) => void res.writeHead(200, { 'content-type': 'application/json' }).end(corpus?.mapsPlace ?? ''),
  });
  proxy = await startRecordingProxy();
  // The workers are npm start's default, as the README's examples assume: http, render and headful.
  trawl = await startHarness({
    RESIDENTIAL_PROXIES: `de=${proxy.url}`,
    SEARCH_ENGINE: 'bing',
    BING_BASE_URL: `${engines.url}/bing`,
    GOOGLE_BASE_URL: engines.url,
    GOOGLE_TRANSPORT: 'http',
    CRAWL_TIMEOUT_MS: '1500',
    SEARCH_CRAWL_TIMEOUT_MS: '1500',
    SEARCH_CRAWL_DEADLINE_MS: '2500',
    HEADFUL_TIMEOUT_MS: '40000',
  });
  const registry = trawl.app.get(WorkerRegistry, { strict: false });
  await pollUntil(async () => (await registry.seen('worker-headful')) > 0, 'the worker-headful heartbeat');
});

afterAll(async () => {
  for (const res of held) res.destroy();
  await trawl?.close();
  await site?.close();
  await engines?.close();
  await proxy?.close();
});

describe('documented examples (README.md, docs/api.md) are what the server answers', () => {
  it('finds the examples of every data endpoint in both documents', () => {
    const endpoints = (file: string) => new Set(EXAMPLES.filter((e) => e.where.startsWith(file)).map((e) => e.path.split('?')[0]));
    for (const file of ['README.md', 'docs/api.md']) expect([...endpoints(file)].sort()).toEqual([...DATA_ENDPOINTS].sort());
    expect(EXAMPLES.filter((e) => e.documented !== undefined).length).toBeGreaterThanOrEqual(12);
  });

  const runnable = EXAMPLES.filter((e) => !e.needsLlm);
  it.each(runnable.map((e) => [`${e.where} ${e.path.slice(0, 90)}`, e] as const))('%s', async (_label, example) => {
    if (needsGoogle(example) && !hasCorpus) return;
    const account = await trawl.createAccount('free');
    const headers = Object.fromEntries(Object.entries(example.headers).map(([k, v]) => [k, v.replace('$KEY', account.apiKey)]));
    hanging.clear();
    for (const path of timeoutPaths(example.documented)) hanging.add(path);
    const path = example.path.replaceAll('https://example.com', site.url).replaceAll(encodeURIComponent('https://example.com'), encodeURIComponent(site.url));
    // An example showing a cache hit is the second call of the same request: the first one fills the cache.
    if (JSON.stringify(example.documented ?? '').includes('"cache_state":"hit"')) await trawl.get(path, headers);
    const res = await trawl.get(path, headers);
    expect({ status: res.status, error: res.body?.error }).toEqual({ status: 200, error: undefined });
    if (example.documented !== undefined) expect(departures(example.documented, res.body)).toEqual([]);
  });
});
