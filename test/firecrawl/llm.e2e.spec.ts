/**
 * Firecrawl's LLM formats through the real client, `@mendable/firecrawl-js` (v2 client and its v1 class), against the
 * real gateway and workers on loopback and a loopback OpenAI-compatible server (libs/llm/src/testing/openai-fixture.ts)
 * scripted per test: v2 `summary` and `{ type: "json", schema, prompt }`, v1 `"json"` with `jsonOptions`, the same
 * through firecrawl-mcp's scrape tool (started as its users start it), priced as
 * `/crawl` prices them (the page, plus the LLM's tokens), a failed format failing the scrape uncharged, and the
 * refusals (a bad schema; crawl, batch and search pages, which do not run them). The refusal without an LLM configured
 * is in sdk.e2e.spec.ts (a gateway without LLM_BASE_URL).
 */
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it, jest } from '@jest/globals';
import Firecrawl, { FirecrawlAppV1, SdkError } from '@mendable/firecrawl-js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { answer, failure, startOpenAiFixture, type OpenAiFixture } from '#llm/testing/openai-fixture.js';
import { REPO_ROOT } from '../support/env.js';
import type { FixtureServer } from '../support/fixture-server.js';
import { startHarness, type Harness } from '../support/harness.js';
import { pollUntil } from '../support/poll.js';
import { startSite } from './site.js';

jest.setTimeout(120_000);

let trawl: Harness;
let site: FixtureServer;
let llm: OpenAiFixture;
let mcp: Client | undefined;

/** LLM_CONTEXT_TOKENS 4096 at 1 credit per 1,000 tokens: each format reserves ceil(2 × 4096 / 1000) = 9 credits. */
const RESERVE_PER_FORMAT = 9;
const SCHEMA = { type: 'object', properties: { topic: { type: 'string' }, boats: { type: 'integer' } }, required: ['topic'], additionalProperties: false };

beforeAll(async () => {
  site = await startSite();
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
  await mcp?.close();
  await trawl?.close();
  await Promise.all([site?.close(), llm?.close()]);
});

beforeEach(() => {
  llm.requests.length = 0;
});

async function account() {
  const created = await trawl.createAccount();
  return { ...created, v2: new Firecrawl({ apiKey: created.apiKey, apiUrl: trawl.baseUrl }), v1: new FirecrawlAppV1({ apiKey: created.apiKey, apiUrl: trawl.baseUrl }) };
}
const balance = async (accountId: string) => (await trawl.admin.report(accountId)).account.balance;
const ledger = async (accountId: string) =>
  (await trawl.db.pool.query(`SELECT kind, amount::int AS amount FROM credit_ledger WHERE account_id = $1 AND kind <> 'grant' ORDER BY id`, [accountId])).rows;
const refusal = async (work: () => Promise<unknown>) => {
  const error = await work().then(() => null, (e: unknown) => e);
  expect(error).toBeInstanceOf(SdkError);
  return error as SdkError;
};

describe('v2 scrape with the LLM formats', () => {
  it('summary: the LLM reads the page, the Document carries it; the page plus the tokens are charged, reserved first', async () => {
    const { accountId, v2 } = await account();
    llm.reply(answer('Trawling pulls a net behind boats.', { prompt: 2500, completion: 600 }));
    const doc = await v2.scrape(`${site.url}/article`, { formats: ['markdown', 'summary'] });
    expect(doc.summary).toBe('Trawling pulls a net behind boats.');
    expect(doc.markdown).toContain('pulling a fishing net');
    expect(JSON.stringify(llm.requests[0].body.messages)).toContain('pulling a fishing net');
    expect(llm.requests[0].body.model).toBe('fixture-model');
    // 1 for the page over plain HTTP, ceil(3100 / 1000) = 4 for the summary.
    expect(doc.metadata?.creditsUsed).toBe(5);
    expect(await balance(accountId)).toBe(10_000 - 5);
    // proxy auto reserves the dearest engine it may climb to (Chromium, 10) and the summary's worst case.
    expect(await ledger(accountId)).toEqual([{ kind: 'reserve', amount: -(10 + RESERVE_PER_FORMAT) }, { kind: 'settle', amount: 10 + RESERVE_PER_FORMAT - 5 }]);
    await pollUntil(async () => (await trawl.db.pool.query(`SELECT 1 FROM request_log WHERE account_id = $1`, [accountId])).rowCount === 1, 'the request log row');
    const log = await trawl.db.pool.query(`SELECT endpoint, credits, detail FROM request_log WHERE account_id = $1`, [accountId]);
    expect(log.rows[0]).toMatchObject({ endpoint: '/v2/scrape', credits: 5, detail: { llm: { model: 'fixture-model', prompt_tokens: 2500, completion_tokens: 600, credits: 4 } } });
  });

  it('json with a schema and a prompt: the extracted object, the schema sent as response_format; Markdown only when asked', async () => {
    const { accountId, v2 } = await account();
    llm.reply(answer('{"topic":"trawling","boats":2}', { prompt: 1200, completion: 30 }));
    const doc = await v2.scrape(`${site.url}/article`, { formats: [{ type: 'json', schema: SCHEMA, prompt: 'What is the page about, and how many boats?' }] });
    expect(doc.json).toEqual({ topic: 'trawling', boats: 2 });
    expect(doc).not.toHaveProperty('markdown'); // read by the LLM, not asked for
    const sent = llm.requests[0].body;
    expect(sent.response_format).toMatchObject({ type: 'json_schema', json_schema: { schema: SCHEMA } });
    expect(JSON.stringify(sent.messages)).toContain('how many boats');
    expect(doc.metadata?.creditsUsed).toBe(1 + 2);
    expect(await balance(accountId)).toBe(10_000 - 3);
  });

  it('summary and json together, with a prompt alone for the json', async () => {
    const { v2 } = await account();
    llm.reply(answer('About trawling.'), answer('{"gear":"a trawl"}'));
    const doc = await v2.scrape(`${site.url}/article`, { formats: ['summary', { type: 'json', prompt: 'The fishing gear, as { gear }' }] });
    expect(doc).toMatchObject({ summary: 'About trawling.', json: { gear: 'a trawl' } });
    expect(llm.requests).toHaveLength(2);
  });

  it('a format the LLM fails fails the scrape with the LLM\'s code, as a 500 the client does not retry; nothing is charged', async () => {
    const { accountId, v2 } = await account();
    llm.reply(failure(500, 'model crashed'));
    const crashed = await refusal(() => v2.scrape(`${site.url}/article`, { formats: ['markdown', 'summary'] }));
    expect(crashed).toMatchObject({ status: 500, code: 'LLM_UNAVAILABLE' });
    expect(crashed.message).toMatch(/^format summary failed: LLM_UNAVAILABLE: .*model crashed/);
    expect(llm.requests).toHaveLength(1); // firecrawl-js retries a 502: it would have asked the LLM again
    llm.reply(answer('not json at all'), answer('{"topic": 5}'));
    const invalid = await refusal(() => v2.scrape(`${site.url}/article`, { formats: [{ type: 'json', schema: SCHEMA }] }));
    expect(invalid).toMatchObject({ status: 500, code: 'LLM_INVALID_OUTPUT' });
    expect(invalid.message).toMatch(/^format json failed: LLM_INVALID_OUTPUT/);
    llm.reply({ hang: true });
    const slow = await refusal(() => v2.scrape(`${site.url}/article`, { formats: ['summary'] }));
    expect(slow.code).toBe('LLM_TIMEOUT');
    expect(llm.requests).toHaveLength(4);
    expect(await balance(accountId)).toBe(10_000);
    expect((await ledger(accountId)).reduce((sum, row) => sum + Number(row.amount), 0)).toBe(0);
  });

  it('refuses an unusable schema or prompt by its Firecrawl name before anything is sent or charged', async () => {
    const { accountId, v2 } = await account();
    const schema = await refusal(() => v2.scrape(`${site.url}/article`, { formats: ['markdown', { type: 'json', schema: { type: 'nope' } }] }));
    expect(schema).toMatchObject({ status: 400, code: 'BAD_REQUEST' });
    expect(schema.message).toMatch(/^formats\.1\.schema is not a valid JSON Schema/);
    const empty = await refusal(() => v2.scrape(`${site.url}/article`, { formats: [{ type: 'json', prompt: '   ' }] }));
    expect(empty.message).toBe('formats.0: prompt must not be empty');
    const neither = await refusal(() => v2.scrape(`${site.url}/article`, { formats: [{ type: 'json', schema: SCHEMA, bogus: 1 } as never] }));
    expect(neither.message).toBe('formats.0: bogus is not supported by this server');
    expect(llm.requests).toEqual([]);
    expect(await balance(accountId)).toBe(10_000);
  });
});

describe('v1 scrape with formats ["json"] and jsonOptions', () => {
  it('extracts with jsonOptions.schema and prompt, answered as the v1 client reads it', async () => {
    const { accountId, v1 } = await account();
    llm.reply(answer('{"topic":"trawling"}', { prompt: 900, completion: 20 }));
    // The v1 types ask for a zod schema; a JSON Schema object is sent as it is.
    const scraped = await v1.scrapeUrl(`${site.url}/article`, { formats: ['json'], jsonOptions: { schema: SCHEMA as never, prompt: 'The topic' } });
    expect(scraped).toMatchObject({ success: true, json: { topic: 'trawling' } });
    expect(llm.requests[0].body.response_format).toMatchObject({ json_schema: { schema: SCHEMA } });
    expect(await balance(accountId)).toBe(10_000 - 2);
  });

  it('refuses json without jsonOptions and jsonOptions without json, by name', async () => {
    const { v1 } = await account();
    await expect(v1.scrapeUrl(`${site.url}/article`, { formats: ['json'] })).rejects.toThrow(/formats\.0: format json needs jsonOptions/);
    await expect(v1.scrapeUrl(`${site.url}/article`, { formats: ['markdown'], jsonOptions: { prompt: 'The topic' } })).rejects.toThrow(/jsonOptions: needs the format "json" in formats/);
    await expect(v1.scrapeUrl(`${site.url}/article`, { formats: ['json'], jsonOptions: { prompt: '' } })).rejects.toThrow(/jsonOptions\.prompt must not be empty/);
    expect(llm.requests).toEqual([]);
  });
});

describe('where Trawl does not run the LLM formats: a clear 400, nothing charged', () => {
  it('crawl and batch scrape pages (POST /crawls and /batches have no LLM formats), and search results', async () => {
    const { accountId, v2 } = await account();
    const crawl = await refusal(() => v2.startCrawl(`${site.url}/tree/`, { limit: 2, scrapeOptions: { formats: ['markdown', 'summary'] } }));
    expect(crawl.status).toBe(400);
    expect(crawl.message).toMatch(/^scrapeOptions\.formats\.1: format summary \(an LLM format\) is offered by scrape only/);
    const batch = await refusal(() => v2.startBatchScrape([`${site.url}/article`], { options: { formats: [{ type: 'json', prompt: 'The topic' }] } }));
    expect(batch.message).toMatch(/^formats\.0: format json \(an LLM format\) is offered by scrape only/);
    const search = await refusal(() => v2.search('trawling', { scrapeOptions: { formats: ['summary'] } }));
    expect(search.message).toMatch(/^scrapeOptions\.formats\.0: format summary \(an LLM format\) is offered by scrape only, not for search results/);
    expect(llm.requests).toEqual([]);
    expect(await balance(accountId)).toBe(10_000);
  });
});

describe('firecrawl-mcp', () => {
  it('its scrape tool asks for summary, and for json with jsonOptions (sent as the v2 format object)', async () => {
    const { accountId, apiKey } = await account();
    mcp = new Client({ name: 'trawl-test', version: '1.0.0' });
    await mcp.connect(
      new StdioClientTransport({
        command: path.join(REPO_ROOT, 'node_modules/.bin/firecrawl-mcp'),
        env: { PATH: process.env.PATH ?? '', FIRECRAWL_API_URL: trawl.baseUrl, FIRECRAWL_API_KEY: apiKey },
        stderr: 'ignore',
      }),
    );
    const scrape = async (args: Record<string, unknown>) => {
      const result = (await mcp!.callTool({ name: 'firecrawl_scrape', arguments: { url: `${site.url}/article`, ...args } })) as CallToolResult;
      expect(result.isError).toBeFalsy();
      return JSON.parse(result.content.find((c) => c.type === 'text')?.text ?? '{}');
    };
    llm.reply(answer('Trawling pulls a net behind boats.'), answer('{"topic":"trawling","boats":2}'));
    expect(await scrape({ formats: ['summary'] })).toMatchObject({ summary: 'Trawling pulls a net behind boats.' });
    expect(await scrape({ formats: ['json'], jsonOptions: { schema: SCHEMA, prompt: 'The topic and the boats' } })).toMatchObject({ json: { topic: 'trawling', boats: 2 } });
    expect(llm.requests[1].body.response_format).toMatchObject({ json_schema: { schema: SCHEMA } });
    // Each: 1 for the page and ceil(120 / 1000) = 1 for the format.
    expect(await balance(accountId)).toBe(10_000 - 4);
  });
});
