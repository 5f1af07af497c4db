/**
 * Query-relevant chunks end to end (issue #36): `/crawl?query=…`, `/search` with auto-crawling, and the MCP `crawl`
 * and `web_search` tools, on the real gateway and workers, Postgres and Redis, against loopback fixture pages and a
 * fixture Bing. The chunks are made in the worker and put under one token budget by the gateway.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { countTokens } from '#chunks';
import { bingPage } from '#bench/support/bing-fixture.js';
import { html, startFixtureServer, type FixtureServer } from './support/fixture-server.js';
import { key, startHarness, type Harness } from './support/harness.js';

let trawl: Harness;
let site: FixtureServer;
let bing: FixtureServer;
const clients: Client[] = [];

const section = (title: string, sentences: string[]) => `<h2>${title}</h2>${sentences.map((s) => `<p>${s}</p>`).join('')}`;
const words = (topic: string, n: number) => Array.from({ length: n }, (_, i) => `Note ${i + 1} on ${topic} and the coastal walks around the bay, described at length.`);

const FARM = html(
  `<main><article><h1>Crab farm guide</h1>
   <p>We raise crabs on the coast and welcome visitors all year round.</p>
   ${section('History', words('the harbour history', 6))}
   ${section('Ticket prices', ['A ticket costs 12 euros for adults and 6 euros for children; family tickets cost 30 euros.'])}
   ${section('Opening hours', ['Open every day from 9 to 17, closed on Mondays in winter.'])}
   ${section('Wildlife', words('the seabirds', 6))}
   </article></main>`,
  'Crab farm guide',
);
const WEATHER = html(
  `<main><article><h1>Coastal weather</h1>
   ${section('Forecast', words('the forecast', 5))}
   ${section('Events', ['The storm museum sells a ticket for 4 euros.'])}
   </article></main>`,
  'Coastal weather',
);

const balance = async (accountId: string) => (await trawl.admin.report(accountId)).account.balance;

beforeAll(async () => {
  site = await startFixtureServer({
    '/farm': (_q, res) => void res.writeHead(200, { 'content-type': 'text/html' }).end(FARM),
    '/weather': (_q, res) => void res.writeHead(200, { 'content-type': 'text/html' }).end(WEATHER),
  });
  bing = await startFixtureServer({
    '/search': (req, res) => {
      const q = new URL(req.url!, 'http://x').searchParams.get('q') ?? '';
      const results = [
        // Results about the query: the engine's answer is checked for relevance to it.
        { title: `Crab farm guide: ${q}`, link: `${site.url}/farm`, snippet: `Visit the crab farm: ${q}.` },
        { title: `Coastal weather and ${q}`, link: `${site.url}/weather`, snippet: `The forecast, and ${q}.` },
        { title: `Gone: ${q}`, link: "http://127.0.0.1:1/gone", snippet: `A page about ${q} that is not there.` },
      ];
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(bingPage({ query: q, offset: 0, hasNext: false, results }));
    },
  });
  trawl = await startHarness({ STANDALONE_WORKERS: 'http', SEARCH_ENGINE: 'bing', BING_BASE_URL: bing.url, SEARCH_CRAWL_TIMEOUT_MS: '5000', SEARCH_CRAWL_DEADLINE_MS: '8000' });
});

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
  await trawl?.close();
  await Promise.all([site?.close(), bing?.close()]);
});

interface Chunk {
  text: string;
  headings: string[];
  score: number;
  tokens: number;
}

const urls = () => encodeURIComponent(`${site.url}/farm,${site.url}/weather`);

describe('GET /crawl with query', () => {
  it('returns each page\'s passages about the query, best first, with heading path, score and tokens; 1 credit a page', async () => {
    const account = await trawl.createAccount();
    const res = await trawl.get(`/crawl?urls=${urls()}&query=${encodeURIComponent('ticket prices')}&markdown=false&enhanced_html=false`, key(account.apiKey));
    expect(res.status).toBe(200);
    const [farm, weather] = res.body.results as Array<{ chunks: Chunk[]; markdown?: string }>;
    expect(farm).not.toHaveProperty('markdown');
    expect(farm.chunks[0]).toMatchObject({ headings: ['Crab farm guide', 'Ticket prices'], text: expect.stringContaining('12 euros') });
    expect(farm.chunks[0].tokens).toBe(countTokens(farm.chunks[0].text));
    expect(farm.chunks.length).toBeLessThanOrEqual(5);
    for (const list of [farm.chunks, weather.chunks]) for (let i = 1; i < list.length; i++) expect(list[i - 1].score).toBeGreaterThanOrEqual(list[i].score);
    expect(weather.chunks[0]).toMatchObject({ headings: ['Coastal weather', 'Events'] });
    // Scores compare across pages: the farm's price section outranks the museum's ticket line.
    expect(farm.chunks[0].score).toBeGreaterThan(weather.chunks[0].score);
    const all = [...farm.chunks, ...weather.chunks];
    expect(res.body.tokens).toBe(all.reduce((sum, c) => sum + c.tokens, 0));
    expect(res.body.token_encoding).toBe('o200k_base');
    expect(res.body.credits).toBe(2);
    expect(await balance(account.accountId)).toBe(10_000 - 2);
  });

  it('keeps chunks_per_page a page and max_tokens over the response, highest score first', async () => {
    const account = await trawl.createAccount();
    const one = await trawl.get(`/crawl?urls=${urls()}&query=ticket&chunks_per_page=1`, key(account.apiKey));
    expect(one.body.results.map((r: { chunks: Chunk[] }) => r.chunks.length)).toEqual([1, 1]);
    expect(one.body.results[0].markdown).toContain('Crab farm guide'); // Markdown still comes by default

    const best = one.body.results[0].chunks[0] as Chunk;
    const tight = await trawl.get(`/crawl?urls=${urls()}&query=ticket&max_tokens=${best.tokens}`, key(account.apiKey));
    expect(tight.body.tokens).toBeLessThanOrEqual(best.tokens);
    expect(tight.body.results[0].chunks).toEqual([best]);
    expect(tight.body.results[1].chunks).toEqual([]);
  });

  it.each([
    ['chunks_per_page=0&query=x', /^chunks_per_page must be an integer from 1 to 50/],
    ['chunks_per_page=51&query=x', /^chunks_per_page/],
    ['max_tokens=0&query=x', /^max_tokens must be an integer from 1 to 1000000/],
    ['max_tokens=lots&query=x', /^max_tokens/],
    ['chunks_per_page=3', /^chunks_per_page needs query/],
    ['max_tokens=300', /^max_tokens needs query/],
    ['query=%20', /^query must not be empty/],
    [`query=${'q'.repeat(2049)}`, /^query must be at most 2048/],
  ])('400 naming the parameter, nothing charged (%#)', async (params, message) => {
    const account = await trawl.createAccount();
    const res = await trawl.get(`/crawl?urls=${encodeURIComponent(`${site.url}/farm`)}&${params}`, key(account.apiKey));
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('INVALID_PARAMETER');
    expect(res.body.error.message).toMatch(message);
    expect(await balance(account.accountId)).toBe(10_000);
    expect(site.hits.get('/farm') ?? 0).toBeGreaterThan(0); // from earlier tests; this one fetched nothing new
  });
});

describe('LLM formats without an LLM configured', () => {
  it('are a 400 naming the parameter and the setting, nothing charged', async () => {
    const account = await trawl.createAccount();
    for (const params of ['summary=true', 'json_prompt=prices']) {
      const res = await trawl.get(`/crawl?urls=${encodeURIComponent(`${site.url}/farm`)}&${params}`, key(account.apiKey));
      expect(res.status).toBe(400);
      expect(res.body.error.message).toMatch(new RegExp(`^${params.split('=')[0]} needs an LLM.*LLM_BASE_URL`));
    }
    expect(await balance(account.accountId)).toBe(10_000);
  });
});

describe('GET /search with chunks', () => {
  it('gives every crawled result its passages about the search query under one budget', async () => {
    const account = await trawl.createAccount();
    const res = await trawl.get(`/search?query=${encodeURIComponent('ticket prices')}&auto_crawling=true&chunks_per_page=2&max_tokens=500`, key(account.apiKey));
    expect(res.status).toBe(200);
    const [farm, weather, gone] = res.body.pages['1'].search_results;
    expect(farm.chunks[0]).toMatchObject({ headings: ['Crab farm guide', 'Ticket prices'] });
    expect(farm.chunks.length).toBeLessThanOrEqual(2);
    expect(weather.chunks.length).toBeGreaterThan(0);
    expect(gone).not.toHaveProperty('chunks');
    expect(farm.page_content ?? {}).toEqual({}); // no format asked: the chunks alone
    const tokens = [...farm.chunks, ...weather.chunks].reduce((sum: number, c: Chunk) => sum + c.tokens, 0);
    expect(res.body).toMatchObject({ tokens, token_encoding: 'o200k_base', credits: 10 + 2 });
    expect(tokens).toBeLessThanOrEqual(500);
  });

  it('refuses chunk sizes without auto_crawling (400 naming the parameter, nothing charged)', async () => {
    const account = await trawl.createAccount();
    const res = await trawl.get('/search?query=ticket&max_tokens=100', key(account.apiKey));
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(/^max_tokens needs auto_crawling=true/);
    expect(await balance(account.accountId)).toBe(10_000);
  });
});

describe('MCP tools with chunks', () => {
  async function connect(apiKey: string): Promise<Client> {
    const client = new Client({ name: 'trawl-e2e', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${trawl.baseUrl}/mcp`), { requestInit: { headers: key(apiKey) } }));
    clients.push(client);
    return client;
  }
  const call = (client: Client, name: string, args: Record<string, unknown>) => client.callTool({ name, arguments: args }) as Promise<CallToolResult>;
  const textOf = (result: CallToolResult) => result.content.map((b) => (b.type === 'text' ? b.text : '')).join('\n');

  it('web_search and crawl take the chunk parameters and show the passages to read', async () => {
    const account = await trawl.createAccount();
    const client = await connect(account.apiKey);
    const search = await call(client, 'web_search', { query: 'opening hours', auto_crawling: true, chunks_per_page: 1 });
    expect(search.isError).toBeFalsy();
    const farm = (search.structuredContent as any).pages['1'].search_results[0];
    expect(farm.chunks).toEqual([expect.objectContaining({ headings: ['Crab farm guide', 'Opening hours'] })]);
    expect(textOf(search)).toContain(`### Passages of ${site.url}/farm relevant to the query`);
    expect(textOf(search)).toContain('Crab farm guide › Opening hours');
    expect(textOf(search)).toMatch(/Passages: \d+ tokens \(o200k_base\)/);

    const crawl = await call(client, 'crawl', { urls: [`${site.url}/farm`], query: 'opening hours', markdown: false, enhanced_html: false, chunks_per_page: 1 });
    expect((crawl.structuredContent as any).results[0].chunks[0].text).toContain('closed on Mondays');
    expect(textOf(crawl)).toContain('closed on Mondays');

    const refused = await call(client, 'crawl', { urls: [`${site.url}/farm`], max_tokens: 10 });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(/max_tokens needs query/);
    expect(await balance(account.accountId)).toBe(10_000 - 10 - 2 - 1);
  });
});
