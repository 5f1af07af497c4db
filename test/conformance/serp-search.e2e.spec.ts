/**
 * Specification conformance, `GET /serp-search` (spec §4.2, §2.2, §8) and its MCP tool `serp_search` (§4.6), against
 * the real gateway and workers with a SearXNG-shaped JSON upstream on 127.0.0.1 (SERP_ENGINE=searxng): each
 * parameter absent, at its default, at each allowed value and empty.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { key, startHarness, type Harness } from '../support/harness.js';
import { expectEach, expectError, expectShape } from './support/shape.js';
import {
  ANSWER_BOX, COST, KNOWLEDGE_GRAPH, ORGANIC_RESULT, RELATED_SEARCH, SERP_SEARCH_PARAMETERS, SERP_SEARCH_PARAMS, SERP_SEARCH_RESPONSE,
} from './support/spec.js';

let trawl: Harness;
let upstream: FixtureServer;
let apiKey: string;
let accountId: string;
const asked: URLSearchParams[] = [];

/** A SearXNG JSON answer: 12 results, an answer, an infobox and suggestions. */
function searxAnswer(q: string): string {
  return JSON.stringify({
    query: q,
    number_of_results: 1200,
    results: Array.from({ length: 12 }, (_, i) => ({
      url: `https://example.org/${i + 1}`, title: `${q} ${i + 1}`, content: `About ${q}, part ${i + 1}.`, engine: 'bing',
      publishedDate: '2025-01-02T00:00:00', img_src: `https://img.example.org/${i + 1}.jpg`, resolution: '640 x 480',
    })),
    answers: [`${q}: the answer`],
    infoboxes: [{ infobox: q, content: `${q} is a topic.`, attributes: [{ label: 'Origin', value: 'Ethiopia' }] }],
    suggestions: [`${q} history`, `${q} today`],
  });
}

async function serp(query: string) {
  const before = (await trawl.admin.report(accountId)).account.balance;
  const res = await trawl.get(`/serp-search?${query}`, key(apiKey));
  const after = (await trawl.admin.report(accountId)).account.balance;
  return { ...res, charged: before - after, upstream: asked.at(-1) };
}

/** Every §2.2 rule a successful answer follows. */
function expectSerpAnswer(res: { status: number; body: any }) {
  expect(res.status).toBe(200);
  expectShape(res.body, SERP_SEARCH_RESPONSE);
  expectShape(res.body.parameters, SERP_SEARCH_PARAMETERS, 'parameters');
  if (res.body.knowledgeGraph) expectShape(res.body.knowledgeGraph, KNOWLEDGE_GRAPH, 'knowledgeGraph');
  if (res.body.relatedSearches) expectEach(res.body.relatedSearches, RELATED_SEARCH, 'relatedSearches');
  if (res.body.answerBox) expectShape(res.body.answerBox, ANSWER_BOX, 'answerBox');
}

beforeAll(async () => {
  upstream = await startFixtureServer({
    '/search': (req, res) => {
      const params = new URL(req.url!, 'http://x').searchParams;
      asked.push(params);
      res.writeHead(200, { 'content-type': 'application/json' }).end(searxAnswer(params.get('q') ?? ''));
    },
  });
  trawl = await startHarness({ SERP_ENGINE: 'searxng', SEARCH_ENGINE: 'searxng', SEARXNG_BASE_URL: upstream.url });
  ({ apiKey, accountId } = await trawl.createAccount('pro'));
});

afterAll(async () => {
  await trawl?.close();
  await upstream?.close();
});

describe('/serp-search with only its required parameter (§4.2)', () => {
  it('answers 200 with §2.2 fields, the defaults echoed (gl=us, hl=en, num=10, page=1), no credits field, 10 credits charged', async () => {
    const res = await serp('q=coffee');
    expectSerpAnswer(res);
    expect(res.body.parameters).toMatchObject({ q: 'coffee', gl: 'us', hl: 'en', num: 10, page: 1 });
    expectEach(res.body.serp_search_results, ORGANIC_RESULT, 'serp_search_results');
    expect(res.body.serp_search_results.map((r: { position: number }) => r.position)).toEqual(Array.from({ length: 10 }, (_, i) => i + 1));
    expect(res.charged).toBe(COST.serpSearch);
  });

  it('answerBox, when present, carries answer and snippet, both strings (§2.2)', async () => {
    const res = await serp('q=coffee');
    expect(res.body.answerBox).toBeDefined();
    expectShape(res.body.answerBox, ANSWER_BOX, 'answerBox');
  });

  it('missing q is a 400 (§4.2, §7), charged nothing', async () => {
    const res = await serp('');
    expectError(res, 400);
    expect(res.body.error.message).toMatch(/\bq\b/);
    expect(res.charged).toBe(0);
  });
});

/** Each optional parameter: absent, at its default, empty (the default), and each value the spec lists. */
const OPTIONAL = SERP_SEARCH_PARAMS.filter((row) => !row.required);
const cases = OPTIONAL.flatMap((row) => [
  ...(row.default !== undefined
    ? [
        { row: row.name, what: 'absent', query: '', echo: row.default },
        { row: row.name, what: `at its default (${row.default})`, query: `&${row.name}=${row.default}`, echo: row.default },
        { row: row.name, what: 'empty (means the default)', query: `&${row.name}=`, echo: row.default },
      ]
    : [{ row: row.name, what: 'absent', query: '', echo: undefined }]),
  ...(row.values ?? []).map((value) => ({ row: row.name, what: `= ${value}`, query: `&${row.name}=${encodeURIComponent(value)}`, echo: value })),
]);

describe.each(OPTIONAL.map((row) => row.name))('/serp-search %s', (name) => {
  it.each(cases.filter((c) => c.row === name))('$what: 200, §2.2 fields, 10 credits', async ({ query, echo }) => {
    const res = await serp(`q=coffee${query}`);
    expectSerpAnswer(res);
    if (echo !== undefined) expect(String(res.body.parameters[name])).toBe(echo);
    else expect(res.body.parameters).not.toHaveProperty(name);
    expect(res.charged).toBe(COST.serpSearch);
  });
});

describe('/serp-search values the engines read', () => {
  it('num bounds the results (1 to 100); outside is a 400 naming num', async () => {
    expect((await serp('q=coffee&num=1')).body.serp_search_results).toHaveLength(1);
    for (const num of ['0', '101']) {
      const res = await serp(`q=coffee&num=${num}`);
      expectError(res, 400, 'INVALID_PARAMETER');
      expect(res.body.error.message).toMatch(/^num/);
      expect(res.charged).toBe(0);
    }
  });

  it('page is 1-indexed: page=2 continues the ranking', async () => {
    const res = await serp('q=coffee&page=2&num=10');
    expect(res.body.serp_search_results[0].position).toBe(11);
    expect(res.upstream?.get('pageno')).toBe('2');
  });

  it('gl=uk means gb (the United Kingdom), as the engines read it', async () => {
    const res = await serp('q=coffee&gl=uk');
    expectSerpAnswer(res);
    expect(res.body.parameters.gl).toBe('gb');
    expect(res.upstream?.get('language')).toBe('en-GB');
  });

  it('empty gl and hl reach the engine as the defaults (en-US)', async () => {
    const res = await serp('q=coffee&gl=&hl=');
    expect(res.upstream?.get('language')).toBe('en-US');
  });
});

describe('the serp_search tool (§4.2, §4.6): the same operation over MCP', () => {
  let client: Client;
  beforeAll(async () => {
    client = new Client({ name: 'conformance', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${trawl.baseUrl}/mcp`), { requestInit: { headers: key(apiKey) } }));
  });
  afterAll(async () => client?.close());

  it('is listed with the inputs q, gl, hl, tbs, page, num, type; q required', async () => {
    const { tools } = await client.listTools();
    const tool = tools.find((t) => t.name === 'serp_search');
    expect(Object.keys(tool?.inputSchema.properties ?? {}).sort()).toEqual(['gl', 'hl', 'num', 'page', 'q', 'tbs', 'type']);
    expect(tool?.inputSchema.required).toEqual(['q']);
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['serp_search', 'headful_browser']));
  });

  it('answers the §2.2 body as structured content', async () => {
    const result = (await client.callTool({ name: 'serp_search', arguments: { q: 'coffee', gl: 'de', type: 'news' } })) as CallToolResult;
    expect(result.isError).toBeFalsy();
    expectSerpAnswer({ status: 200, body: result.structuredContent });
    expect(result.structuredContent).toMatchObject({ parameters: { q: 'coffee', gl: 'de', type: 'news' } });
  });
});
