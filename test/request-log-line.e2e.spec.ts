/** One pino line per request at info (request id, account, endpoint, status, credits, duration, error code); no key ever logged. */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { logTo } from '#platform';
import { ARTICLE, startFixtureServer, type FixtureServer } from './support/fixture-server.js';
import { key, startHarness, type Harness } from './support/harness.js';
import { pollUntil } from './support/poll.js';

let trawl: Harness;
let site: FixtureServer;
const lines: Record<string, any>[] = [];
const raw: string[] = [];

beforeAll(async () => {
  logTo({
    write: (line: string) => {
      raw.push(line);
      lines.push(JSON.parse(line));
    },
  });
  site = await startFixtureServer({ '/a': (_q, res) => void res.writeHead(200, { 'content-type': 'text/html' }).end(ARTICLE) });
  // trace: the most Trawl ever logs, Fastify's request lines included.
  trawl = await startHarness({ LOG_LEVEL: 'trace' });
});

afterAll(async () => {
  await trawl?.close();
  await site?.close();
  logTo(undefined);
});

const requestLine = (reqId: string) => pollUntil(async () => lines.find((l) => l.msg === 'request' && l.reqId === reqId) ?? null, `the line of ${reqId}`);

describe('the request line', () => {
  it('logs a metered call once at info with its request id, account, endpoint, status, credits and duration', async () => {
    const account = await trawl.createAccount();
    const res = await trawl.get(`/crawl?urls=${encodeURIComponent(`${site.url}/a`)}`, { ...key(account.apiKey), 'x-request-id': 'log-test-1' });
    expect(res.status).toBe(200);
    const line = await requestLine('log-test-1');
    expect(line).toMatchObject({ level: 30, name: 'trawl', accountId: account.accountId, endpoint: '/crawl', status: 200, credits: 1, errorCode: null });
    expect(typeof line.durationMs).toBe('number');
    expect(typeof line.time).toBe('number');
    expect(lines.filter((l) => l.msg === 'request' && l.reqId === 'log-test-1')).toHaveLength(1);
  });

  it("logs an MCP tool call under mcp:<tool> with the id of the HTTP request that carried it", async () => {
    const account = await trawl.createAccount();
    const call = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'crawl', arguments: { urls: [`${site.url}/a`] } } };
    const res = await fetch(`${trawl.baseUrl}/mcp`, {
      method: 'POST',
      headers: {
        ...key(account.apiKey),
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2025-11-25',
        'x-request-id': 'log-test-mcp',
      },
      body: JSON.stringify(call),
    });
    expect(res.status).toBe(200);
    const line = await requestLine('log-test-mcp');
    expect(line).toMatchObject({ accountId: account.accountId, endpoint: 'mcp:crawl', status: 200, credits: 1 });
    // The call has its own id (its ledger rows and request-log row), logged beside the request's.
    expect(typeof line.callId).toBe('string');
    expect(line.callId).not.toBe('log-test-mcp');
  });

  it('logs a refused request from the error filter, and never the key pasted into its URL', async () => {
    const secret = 'tr_pasted_secret_0123456789';
    const res = await trawl.get(`/crawl?urls=https://unreachable.invalid&api_key=${secret}&token=${secret}`, { 'x-request-id': 'log-test-2', 'x-api-key': `${secret}x` });
    expect(res.status).toBe(401);
    expect(await requestLine('log-test-2')).toMatchObject({ level: 30, accountId: null, endpoint: '/crawl', status: 401, credits: 0, errorCode: 'UNAUTHORIZED' });
    expect(raw.some((l) => l.includes('log-test-2') && l.includes('incoming request'))).toBe(true); // Fastify's trace lines were there
    expect(raw.join('')).not.toContain(secret);
  });
});
