/**
 * Specification conformance, `GET /headful-browser` (spec §4.5, §2.5, §8) and its MCP tool `headful_browser`: headed
 * Chromium on the worker's own display, behind a loopback "residential" proxy serving every country the spec names.
 */
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { WorkerRegistry } from '#queue';
import { ARTICLE, startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { key, startHarness, type Harness } from '../support/harness.js';
import { pollUntil } from '../support/poll.js';
import { startRecordingProxy, type RecordingProxy } from '../support/recording-proxy.js';
import { expectEach, expectError, expectShape } from './support/shape.js';
import { COST, HEADFUL_FORMAT_FIELDS, HEADFUL_ITEM, HEADFUL_PARAMS, HEADFUL_RESPONSE } from './support/spec.js';

jest.setTimeout(90_000);

let trawl: Harness;
let site: FixtureServer;
let proxy: RecordingProxy;
let apiKey: string;
let accountId: string;

const COUNTRIES = HEADFUL_PARAMS.find((row) => row.name === 'country')?.values ?? [];
const FORMATS = HEADFUL_PARAMS.find((row) => row.name === 'output_format')?.values ?? [];

/** `query` may say `{article}` for the fixture article's URL (tables are built before the fixture starts). */
async function headful(query: string) {
  const before = (await trawl.admin.report(accountId)).account.balance;
  const res = await trawl.get(`/headful-browser?${query.replaceAll('{article}', article())}`, key(apiKey));
  const after = (await trawl.admin.report(accountId)).account.balance;
  return { ...res, charged: before - after, balance: after };
}

const article = () => encodeURIComponent(`${site.url}/article`);

/** §2.5: the body, each item, exactly the asked-for format, 50 credits per successful URL. */
function expectHeadfulAnswer(res: Awaited<ReturnType<typeof headful>>, format = 'markdown', successes = 1) {
  expect(res.status).toBe(200);
  expectShape(res.body, HEADFUL_RESPONSE);
  expect(res.body.status).toBe('success');
  expectEach(res.body.data, HEADFUL_ITEM, 'data');
  for (const item of res.body.data.filter((d: { error?: string }) => d.error === undefined)) {
    expect(typeof item[format]).toBe('string');
    for (const other of HEADFUL_FORMAT_FIELDS.filter((f) => f !== format)) expect(item).not.toHaveProperty(other);
    expect(item.blocked).toBe(false);
  }
  expect(res.body.credits_used).toBe(successes * COST.headful);
  expect(res.charged).toBe(successes * COST.headful);
  expect(res.body.credits_remaining).toBe(res.balance);
}

beforeAll(async () => {
  site = await startFixtureServer({ '/article': (_req, res) => void res.writeHead(200, { 'content-type': 'text/html' }).end(ARTICLE) });
  proxy = await startRecordingProxy();
  trawl = await startHarness({
    STANDALONE_WORKERS: 'headful',
    RESIDENTIAL_PROXIES: COUNTRIES.map((c) => `${c}=${proxy.url}`).join(','),
    HEADFUL_TIMEOUT_MS: '40000',
  });
  const registry = trawl.app.get(WorkerRegistry, { strict: false });
  await pollUntil(async () => (await registry.seen('worker-headful')) > 0, 'the worker-headful heartbeat');
  ({ apiKey, accountId } = await trawl.createAccount('pro'));
});

afterAll(async () => {
  await trawl?.close();
  await site?.close();
  await proxy?.close();
});

describe('/headful-browser with only its required parameter (§4.5)', () => {
  it('answers 200 with §2.5 fields, markdown (the default format), 50 credits, credits_remaining the balance after', async () => {
    const res = await headful(`urls=${article()}`);
    expectHeadfulAnswer(res);
    expect(res.body.data[0]).not.toHaveProperty('screenshot');
  });

  it('a failed URL costs 0 credits (§4.5)', async () => {
    const res = await headful(`urls=${encodeURIComponent('http://127.0.0.1:9/refused')}`);
    expectHeadfulAnswer(res, 'markdown', 0);
  });

  it.each([
    ['missing urls', '', /urls/],
    ['an output_format the spec does not list', 'urls={article}&output_format=pdf', /output_format/],
    ['more than one output_format', 'urls={article}&output_format=markdown,raw_html', /output_format/],
  ])('%s: 400 (§7 "invalid parameters"), charged nothing', async (_what, query, message) => {
    const res = await headful(query);
    expectError(res, 400, 'INVALID_PARAMETER');
    expect(res.body.error.message).toMatch(message);
    expect(res.charged).toBe(0);
  });

  // Only urls on a deployment with no residential proxy at all (a fresh install) works too, going direct: that needs a
  // deployment of its own, test/geolocation-fresh-install.e2e.spec.ts.
});

describe('/headful-browser output_format (default markdown): exactly one format', () => {
  it.each([...FORMATS.map((f) => [f, `&output_format=${f}`, f]), ['absent', '', 'markdown'], ['empty (means the default)', '&output_format=', 'markdown']])(
    '%s',
    async (_what, extra, field) => {
      expectHeadfulAnswer(await headful(`urls=${article()}${extra}`), field);
    },
  );
});

describe('/headful-browser country (default us)', () => {
  it.each([...COUNTRIES, 'US', ''])('country=%s: 200 through that country\'s proxy, 50 credits', async (country) => {
    const carried = proxy.carried.length;
    expectHeadfulAnswer(await headful(`urls=${article()}&country=${country}`));
    expect(proxy.carried.length).toBeGreaterThan(carried);
  });
});

describe('/headful-browser screenshot (boolean, default false)', () => {
  it('true: a full-page screenshot returned as a URL', async () => {
    const res = await headful(`urls=${article()}&screenshot=true`);
    expectHeadfulAnswer(res);
    expect(res.body.data[0].screenshot).toMatch(/^https?:\/\//);
  });

  it.each(['false', ''])('screenshot=%s: no screenshot', async (value) => {
    const res = await headful(`urls=${article()}&screenshot=${value}`);
    expectHeadfulAnswer(res);
    expect(res.body.data[0]).not.toHaveProperty('screenshot');
  });
});

describe('the headful_browser tool (§4.5): url, output_format, country; a single URL', () => {
  it('is listed with those inputs and answers the §2.5 body', async () => {
    const client = new Client({ name: 'conformance', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${trawl.baseUrl}/mcp`), { requestInit: { headers: key(apiKey) } }));
    try {
      const tool = (await client.listTools()).tools.find((t) => t.name === 'headful_browser');
      expect(Object.keys(tool?.inputSchema.properties ?? {}).sort()).toEqual(['country', 'output_format', 'url']);
      const result = await client.callTool({ name: 'headful_browser', arguments: { url: `${site.url}/article`, output_format: 'page_text', country: 'gb' } });
      expect(result.isError).toBeFalsy();
      const body = result.structuredContent as any;
      expectShape(body, HEADFUL_RESPONSE);
      expect(body.data).toHaveLength(1);
      expect(typeof body.data[0].page_text).toBe('string');
      expect(body.credits_used).toBe(COST.headful);
    } finally {
      await client.close();
    }
  });
});
