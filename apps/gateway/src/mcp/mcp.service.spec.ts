/** The MCP tool layer over fakes: listings built from the contracts, one metered call per tools/call, errors as results. */
import { describe, expect, it } from '@jest/globals';
import type { ModuleRef } from '@nestjs/core';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import type { CrawlPagePayload } from '#contracts';
import { CrawlService } from '../crawl/crawl.service.js';
import { SerpSearchService } from '../serp-search/serp-search.service.js';
import { fakeDispatcher, fakeLifecycle, principal, noLlm, noPageCache, testConfig } from '../testing/fakes.js';
import { MCP_TOOLS } from './mcp-tools.js';
import { McpService } from './mcp.service.js';

function setUp() {
  const { lifecycle, settled } = fakeLifecycle();
  const { dispatcher, jobs } = fakeDispatcher((_q, p: CrawlPagePayload) => ({
    ok: true,
    result: { ok: true, url: p.url, finalUrl: p.url, status_code: 200, markdown: '# Hi\n\nThere.', metadata: { title: 'Hi' } },
  }));
  const config = testConfig({ CRAWL_MAX_URLS: '3' });
  const services = new Map<unknown, unknown>([
    [CrawlService, new CrawlService(lifecycle, dispatcher, config, noLlm(config), noPageCache())],
    [SerpSearchService, new SerpSearchService(lifecycle, dispatcher, config)],
  ]);
  const moduleRef = { get: (type: unknown) => services.get(type) } as unknown as ModuleRef;
  return { mcp: new McpService(moduleRef, config), settled, jobs };
}

describe('McpService', () => {
  it('has unique tool names, each with a description that states the cost and documented inputs', () => {
    expect(new Set(MCP_TOOLS.map((t) => t.name)).size).toBe(MCP_TOOLS.length);
    for (const tool of MCP_TOOLS) expect(tool.description).toMatch(/credits?/);
  });

  it('runs each tools/call as its own metered call through the endpoint service', async () => {
    const { mcp, settled, jobs } = setUp();
    const first = await mcp.call(principal, 'crawl', { urls: ['https://a.example/'] });
    const second = await mcp.call(principal, 'crawl', { urls: ['https://a.example/', 'https://b.example/'], page_text: true });
    expect(settled.map((s) => s.charged)).toEqual([1, 2]);
    expect(new Set(settled.map((s) => s.callId)).size).toBe(2);
    expect(jobs).toHaveLength(3);
    expect(first._meta).toEqual({ 'trawl/credits': 1 });
    expect(second.structuredContent).toMatchObject({ credits: 2, successful_pages: 2 });
    expect(first.content[0]).toEqual({ type: 'text', text: '# Hi\n\nURL: https://a.example/\nHTTP status: 200\n\n# Hi\n\nThere.' });
  });

  it('turns validation and limit failures into isError results with the REST code and message, nothing charged', async () => {
    const { mcp, settled } = setUp();
    const tooMany = await mcp.call(principal, 'crawl', { urls: ['https://a.example/1', 'https://a.example/2', 'https://a.example/3', 'https://a.example/4'] });
    expect(tooMany.isError).toBe(true);
    expect(JSON.parse((tooMany.content[0] as { text: string }).text)).toEqual({
      error: { code: 'INVALID_PARAMETER', message: 'urls has 4 URLs; the maximum is 3 per request' },
    });
    expect(tooMany._meta).toEqual({ 'trawl/status': 400, 'trawl/credits': 0 });
    expect(settled).toEqual([]);
  });

  it('answers an unknown tool with a protocol error, not a tool result', async () => {
    const { mcp } = setUp();
    await expect(mcp.call(principal, 'nope', {})).rejects.toBeInstanceOf(McpError);
  });
});
