/**
 * The LLM formats of `/crawl` (`summary`, `json`) end to end: the real gateway and workers, Postgres and Redis,
 * loopback fixture pages, and a loopback OpenAI-compatible server (libs/llm/src/testing/openai-fixture.ts) scripted
 * per test — answers, invalid JSON, a 500, no answer at all. LLM_CONCURRENCY=1 keeps the requests in a known order:
 * page by page, the summary before the extraction.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { answer, failure, startOpenAiFixture, type OpenAiFixture } from '#llm/testing/openai-fixture.js';
import { ARTICLE, startFixtureServer, type FixtureServer } from './support/fixture-server.js';
import { key, startHarness, type Harness } from './support/harness.js';
import { pollUntil } from './support/poll.js';

let trawl: Harness;
let site: FixtureServer;
let llm: OpenAiFixture;
const clients: Client[] = [];

/** LLM_CONTEXT_TOKENS 4096 at 1 credit per 1,000 tokens: each format reserves ceil(2 × 4096 / 1000) = 9 credits. */
const RESERVE_PER_FORMAT = 9;
const SCHEMA = { type: 'object', properties: { topic: { type: 'string' }, boats: { type: 'integer' } }, required: ['topic'], additionalProperties: false };

beforeAll(async () => {
  site = await startFixtureServer({ '/article': (_q, res) => void res.writeHead(200, { 'content-type': 'text/html' }).end(ARTICLE) });
  llm = await startOpenAiFixture();
  trawl = await startHarness({
    STANDALONE_WORKERS: 'http',
    LLM_BASE_URL: llm.baseUrl,
    LLM_MODEL: 'fixture-model',
    LLM_API_KEY: 'sk-fixture-key',
    LLM_CONTEXT_TOKENS: '4096',
    LLM_MAX_TOKENS: '512',
    LLM_TIMEOUT_MS: '1500',
    LLM_CONCURRENCY: '1',
  });
});

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
  await trawl?.close();
  await Promise.all([site?.close(), llm?.close()]);
});

beforeEach(() => {
  llm.requests.length = 0;
});

const article = () => encodeURIComponent(`${site.url}/article`);
const balance = async (accountId: string) => (await trawl.admin.report(accountId)).account.balance;
const openReservations = async (accountId: string) =>
  (await trawl.db.pool.query(`SELECT count(*)::int AS n FROM reservations WHERE account_id = $1 AND status = 'open'`, [accountId])).rows[0].n as number;

describe('GET /crawl with summary and json', () => {
  it('summarises and extracts through the configured LLM, priced by its tokens, reserved first and settled after', async () => {
    const account = await trawl.createAccount();
    llm.reply(answer('Trawling pulls a net behind boats.', { prompt: 2500, completion: 600 }), answer('{"topic":"trawling","boats":2}', { prompt: 1200, completion: 30 }));
    const res = await trawl.get(`/crawl?urls=${article()}&summary=true&json_schema=${encodeURIComponent(JSON.stringify(SCHEMA))}&markdown=false&enhanced_html=false`, key(account.apiKey));
    expect(res.status).toBe(200);
    const [page] = res.body.results;
    expect(page).toMatchObject({ summary: 'Trawling pulls a net behind boats.', json: { topic: 'trawling', boats: 2 } });
    expect(page).not.toHaveProperty('markdown'); // read by the LLM, not asked for
    // 1 for the page, ceil(3100 / 1000) = 4 for the summary, ceil(1230 / 1000) = 2 for the extraction.
    expect(res.body.llm_usage).toEqual({ model: 'fixture-model', prompt_tokens: 3700, completion_tokens: 630, credits: 6 });
    expect(res.body.credits).toBe(7);
    expect(await balance(account.accountId)).toBe(10_000 - 7);
    expect(await openReservations(account.accountId)).toBe(0);
    const { rows } = await trawl.db.pool.query(`SELECT kind, amount::int AS amount FROM credit_ledger WHERE account_id = $1 AND kind <> 'grant' ORDER BY id`, [account.accountId]);
    expect(rows).toEqual([{ kind: 'reserve', amount: -(1 + 2 * RESERVE_PER_FORMAT) }, { kind: 'settle', amount: 1 + 2 * RESERVE_PER_FORMAT - 7 }]);

    // What was sent: the model, the key, the page's Markdown, and the schema as response_format.
    const [summary, extraction] = llm.requests.map((r) => r.body);
    expect(llm.requests[0].headers.authorization).toBe('Bearer sk-fixture-key');
    expect(summary.model).toBe('fixture-model');
    expect(JSON.stringify(summary.messages)).toContain('pulling a fishing net');
    expect(extraction.response_format).toMatchObject({ type: 'json_schema', json_schema: { schema: SCHEMA } });

    // The request log holds the tokens and their price.
    await pollUntil(async () => (await trawl.db.pool.query(`SELECT 1 FROM request_log WHERE account_id = $1`, [account.accountId])).rowCount === 1, 'the request log row');
    const log = await trawl.db.pool.query(`SELECT credits, detail FROM request_log WHERE account_id = $1`, [account.accountId]);
    expect(log.rows[0]).toMatchObject({ credits: 7, detail: { llm: { prompt_tokens: 3700, completion_tokens: 630, credits: 6 } } });
  });

  it('gives each failed format a per-URL error at no charge: a 500, an answer invalid twice, a timeout', async () => {
    const account = await trawl.createAccount();
    llm.reply(failure(500, 'model crashed'), answer('not json at all', { prompt: 900, completion: 10 }), answer('{"topic": 5}', { prompt: 950, completion: 10 }));
    const res = await trawl.get(`/crawl?urls=${article()}&summary=true&json_schema=${encodeURIComponent(JSON.stringify(SCHEMA))}`, key(account.apiKey));
    const [page] = res.body.results;
    expect(page.summary_error).toMatch(/^LLM_UNAVAILABLE: The LLM endpoint failed \(HTTP 500\): model crashed/);
    expect(page.json_error).toMatch(/^LLM_INVALID_OUTPUT: The LLM answer was invalid twice/);
    expect(page).not.toHaveProperty('summary');
    expect(page).not.toHaveProperty('json');
    expect(page.markdown).toContain('pulling a fishing net'); // the page itself is fine, and charged
    expect(res.body.llm_usage).toEqual({ model: 'fixture-model', prompt_tokens: 1850, completion_tokens: 20, credits: 0 });
    expect(res.body.credits).toBe(1);
    expect(await balance(account.accountId)).toBe(10_000 - 1);

    llm.reply({ hang: true });
    const slow = await trawl.get(`/crawl?urls=${article()}&summary=true`, key(account.apiKey));
    expect(slow.body.results[0].summary_error).toMatch(/^LLM_TIMEOUT/);
    expect(slow.body.credits).toBe(1);
    expect(await balance(account.accountId)).toBe(10_000 - 2);
    expect(await openReservations(account.accountId)).toBe(0);
  });

  it('asks nothing of the LLM for a page that failed to crawl', async () => {
    const account = await trawl.createAccount();
    const res = await trawl.get(`/crawl?urls=${encodeURIComponent('http://127.0.0.1:1/x')}&summary=true`, key(account.apiKey));
    expect(res.body.results[0].error).toMatch(/^CONNECTION_FAILED|^NETWORK_ERROR/);
    expect(res.body).toMatchObject({ credits: 0, llm_usage: { prompt_tokens: 0, completion_tokens: 0, credits: 0 } });
    expect(llm.requests).toEqual([]);
    expect(await balance(account.accountId)).toBe(10_000);
  });

  it.each([
    ['json_schema=not-json', /^json_schema must be a JSON Schema object/],
    [`json_schema=${encodeURIComponent('{"type":"nope"}')}`, /^json_schema is not a valid JSON Schema/],
    [`json_schema=${encodeURIComponent('{"$schema":"http://json-schema.org/draft-04/schema#"}')}`, /^json_schema: "\$schema" must name/],
    [`json_schema=${encodeURIComponent(JSON.stringify({ type: 'object', patternProperties: { '^a': {} } }))}`, /^json_schema: "patternProperties" is not supported/],
    [`json_prompt=${'p'.repeat(4001)}`, /^json_prompt must be at most 4000 characters/],
    ['json_prompt=%20', /^json_prompt must not be empty/],
    ['summary=yes', /^summary must be true or false/],
  ])('400 naming the parameter before anything is charged or sent (%#)', async (params, message) => {
    const account = await trawl.createAccount();
    const res = await trawl.get(`/crawl?urls=${article()}&${params}`, key(account.apiKey));
    expect(res.status).toBe(400);
    expect(res.body.error).toEqual({ code: 'INVALID_PARAMETER', message: expect.stringMatching(message) });
    expect(await balance(account.accountId)).toBe(10_000);
    expect(llm.requests).toEqual([]);
  });

  it('takes a prompt alone, and the MCP crawl tool takes the schema as an object', async () => {
    const account = await trawl.createAccount();
    llm.reply(answer('{"boats": "one or more"}'));
    const rest = await trawl.get(`/crawl?urls=${article()}&json_prompt=${encodeURIComponent('How many boats pull the net?')}`, key(account.apiKey));
    expect(rest.body.results[0].json).toEqual({ boats: 'one or more' });
    expect(JSON.stringify(llm.requests[0].body.messages)).toContain('How many boats pull the net?');

    const client = new Client({ name: 'trawl-e2e', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${trawl.baseUrl}/mcp`), { requestInit: { headers: key(account.apiKey) } }));
    clients.push(client);
    llm.reply(answer('A summary.'), answer('{"topic":"trawls"}'));
    const result = (await client.callTool({ name: 'crawl', arguments: { urls: [`${site.url}/article`], summary: true, json_schema: SCHEMA } })) as CallToolResult;
    expect(result.isError).toBeFalsy();
    expect((result.structuredContent as any).results[0]).toMatchObject({ summary: 'A summary.', json: { topic: 'trawls' } });
    const text = result.content.map((b) => (b.type === 'text' ? b.text : '')).join('\n');
    expect(text).toContain('### Summary\n\nA summary.');
    expect(text).toContain('"topic": "trawls"');
  });
});
