/**
 * The site-crawl MCP tools end to end, with the SDK client against the standalone app and a small fixture site:
 * `crawl_site` starts a crawl and answers its id, `crawl_status` reads it with each page's Markdown cut for an
 * assistant, `map_site` lists the site's URLs. Inputs are validated by the REST bodies' schemas (tool errors naming
 * the field, 0 credits); a page is charged as it is stored, reading is free, a map costs 2.
 */
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { html, startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { key, startHarness, type Harness } from '../support/harness.js';
import { pollUntil } from '../support/poll.js';

jest.setTimeout(60_000);

let trawl: Harness;
let site: FixtureServer;
const clients: Client[] = [];

const LONG = 'Trawling nets are towed along the sea floor. '.repeat(40);

beforeAll(async () => {
  const page = (title: string, links: string[]) => (_q: unknown, res: import('node:http').ServerResponse) =>
    void res
      .writeHead(200, { 'content-type': 'text/html' })
      .end(html(`<main><h1>${title}</h1><p>${LONG}</p>${links.map((l) => `<a href="${l}">${l}</a>`).join(' ')}</main>`, title));
  site = await startFixtureServer({
    '/': page('Home of nets', ['/nets', '/boats']),
    '/nets': page('All about nets', ['/']),
    '/boats': page('Boats', []),
  });
  trawl = await startHarness({});
});

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
  await trawl?.close();
  await site?.close();
});

async function connect(apiKey: string): Promise<Client> {
  const client = new Client({ name: 'trawl-crawl-e2e', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${trawl.baseUrl}/mcp`), { requestInit: { headers: key(apiKey) } }));
  clients.push(client);
  return client;
}

const call = (client: Client, name: string, args: Record<string, unknown>) => client.callTool({ name, arguments: args }) as Promise<CallToolResult>;
const textOf = (result: CallToolResult) => result.content.map((b) => (b.type === 'text' ? b.text : '')).join('\n');
const errorOf = (result: CallToolResult) => {
  expect(result.isError).toBe(true);
  return JSON.parse((result.content[0] as { text: string }).text).error as { code: string; message: string };
};
const balance = async (accountId: string) => (await trawl.admin.report(accountId)).account.balance;

describe('MCP crawl_site, crawl_status, map_site', () => {
  it('lists the tools with the REST bodies as their input schemas', async () => {
    const account = await trawl.createAccount();
    const { tools } = await (await connect(account.apiKey)).listTools();
    const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
    expect(Object.keys(byName)).toEqual(expect.arrayContaining(['crawl_site', 'crawl_status', 'map_site']));
    expect(byName.crawl_site.inputSchema.required).toEqual(['url']);
    expect(Object.keys(byName.crawl_site.inputSchema.properties!)).toEqual(expect.arrayContaining(['limit', 'max_depth', 'include_paths', 'render_js', 'webhook']));
    expect(byName.crawl_status.inputSchema.required).toEqual(['id']);
    expect(byName.map_site.inputSchema.properties!.search).toMatchObject({ type: 'string', maxLength: 500 });
    expect(byName.crawl_site.annotations?.readOnlyHint).toBe(false);
  });

  it('crawl_site starts a crawl; crawl_status reads its pages cut to max_chars, by cursor; pages are charged as stored', async () => {
    const account = await trawl.createAccount();
    const client = await connect(account.apiKey);
    const started = await call(client, 'crawl_site', { url: `${site.url}/`, sitemap: 'skip', enhanced_html: false });
    expect(started.isError).toBeFalsy();
    const created = started.structuredContent as { id: string; status: string; url: string };
    expect(created.status).toBe('queued');
    expect(created.url).toBe(`${trawl.baseUrl}/crawls/${created.id}`);
    expect(started._meta?.['trawl/credits']).toBe(0);
    expect(textOf(started)).toContain(`crawl_status {"id": "${created.id}"}`);

    const done = await pollUntil(async () => {
      const result = await call(client, 'crawl_status', { id: created.id, limit: 2, max_chars: 200 });
      return (result.structuredContent as { status: string }).status === 'completed' ? result : null;
    }, 'the crawl to complete', 30_000, 200);
    const first = done.structuredContent as any;
    expect(first.counts).toMatchObject({ discovered: 3, done: 3, failed: 0 });
    expect(first.credits).toBe(3);
    expect(first.pages).toHaveLength(2);
    for (const page of first.pages) {
      expect(page.markdown.length).toBeLessThanOrEqual(201);
      expect(page.truncated).toBe(true);
      expect(page.enhanced_html).toBeUndefined();
      expect(page.links).toBeUndefined();
    }
    expect(first.next_cursor).toEqual(expect.any(String));
    expect(done._meta?.['trawl/credits']).toBe(0);
    const text = textOf(done);
    expect(text).toContain('completed — 3 pages stored of 3 discovered');
    expect(text).toContain(`## ${first.pages[0].metadata.title}`);
    expect(text).toContain(`"cursor": "${first.next_cursor}"`);

    const rest = await call(client, 'crawl_status', { id: created.id, cursor: first.next_cursor, max_chars: 100_000 });
    const second = rest.structuredContent as any;
    expect(second.pages).toHaveLength(1);
    expect(second.pages[0].truncated).toBeUndefined();
    expect(second.next_cursor).toBeNull();
    expect(textOf(rest)).toContain('Every stored page has been read.');
    const urls = [...first.pages, ...second.pages].map((p: { url: string }) => p.url).sort();
    expect(urls).toEqual([`${site.url}/`, `${site.url}/boats`, `${site.url}/nets`]);
    expect(await balance(account.accountId)).toBe(10_000 - 3);
  });

  it('map_site lists the URLs with their titles for 2 credits', async () => {
    const account = await trawl.createAccount();
    const client = await connect(account.apiKey);
    const result = await call(client, 'map_site', { url: `${site.url}/`, search: 'nets' });
    expect(result.isError).toBeFalsy();
    const body = result.structuredContent as { links: Array<{ url: string; title?: string }>; credits: number };
    expect(body.links.map((l) => l.url)).toEqual([`${site.url}/`, `${site.url}/nets`, `${site.url}/boats`]);
    expect(body.links[0].title).toBe('Home of nets');
    expect(result._meta?.['trawl/credits']).toBe(2);
    expect(textOf(result)).toContain(`- [Home of nets](${site.url}/)`);
    expect(await balance(account.accountId)).toBe(10_000 - 2);
  });

  it('refuses bad input as tool errors naming the field, at 0 credits; another account’s crawl is not found', async () => {
    const owner = await trawl.createAccount();
    const other = await trawl.createAccount();
    const client = await connect(other.apiKey);
    const badUrl = await call(client, 'crawl_site', { url: 'ftp://nope' });
    expect(errorOf(badUrl).message).toMatch(/^url/);
    expect(badUrl._meta).toEqual({ 'trawl/status': 400, 'trawl/credits': 0 });
    expect(errorOf(await call(client, 'crawl_site', { url: `${site.url}/`, include_paths: ['^/(?!private)'] })).message).toMatch(/^include_paths\[0\]/);
    expect(errorOf(await call(client, 'map_site', { url: `${site.url}/`, limit: 0 })).message).toMatch(/^limit/);
    expect(errorOf(await call(client, 'crawl_status', { id: 'nope' })).message).toMatch(/^id must be the id crawl_site answered/);
    expect(errorOf(await call(client, 'crawl_status', { id: crypto.randomUUID(), max_chars: 5 })).message).toMatch(/^max_chars/);

    const ownerClient = await connect(owner.apiKey);
    const started = (await call(ownerClient, 'crawl_site', { url: `${site.url}/`, sitemap: 'skip', limit: 1 })).structuredContent as { id: string };
    const foreign = await call(client, 'crawl_status', { id: started.id });
    expect(errorOf(foreign).code).toBe('NOT_FOUND');
    expect(foreign._meta).toEqual({ 'trawl/status': 404, 'trawl/credits': 0 });
    expect(await balance(other.accountId)).toBe(10_000);
    // Its owner reads it, to its end (nothing left in flight when the app closes).
    await pollUntil(async () => {
      const own = await call(ownerClient, 'crawl_status', { id: started.id });
      return (own.structuredContent as { status: string }).status === 'completed';
    }, "the owner's crawl to complete", 30_000, 200);
  });
});
