/**
 * Answers MCP requests for one authenticated caller. Stateless: every HTTP request gets a fresh protocol server
 * bound to its principal, so any gateway replica can answer any request and nothing outlives the request.
 * Each `tools/call` goes to the endpoint's own service, which meters it as its own call (own reservation, own
 * request-log row) — several calls in one session or batch are charged separately.
 */
import { Inject, Injectable, Logger } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode as RpcErrorCode,
  ListToolsRequestSchema,
  McpError,
  type CallToolResult,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { type Caller } from '#billing';
import { apiLimits, TRAWL_CONFIG, type TrawlConfig } from '#config';
import { ErrorCode, TrawlError, httpStatusOf, paramsJsonSchema, parseInput, toJsonSchema, type ApiLimits } from '#contracts';
import { MCP_TOOLS, type McpTool } from './mcp-tools.js';

export const MCP_SERVER_INFO = { name: 'trawl', title: 'Trawl web search and crawling', version: '0.1.0' };

const INSTRUCTIONS =
  'Trawl searches the web and reads pages. Use web_search to search and read results in one call (10 credits per ' +
  'result page, +1 per result crawled with auto_crawling), serp_search for structured search-engine results (10 credits ' +
  'per call), serp_maps for places on a map (30 credits per call), crawl to read pages whose URLs you have (1 credit ' +
  'per URL, 10 with render_js), and headful_browser only for a page that blocks crawl (50 credits). For a whole ' +
  'website: map_site lists its URLs (2 credits), crawl_site crawls it in the background (1 credit per page stored) and ' +
  'crawl_status reads the pages (free). Every call is metered against the account of the API key; results report the ' +
  'credits charged in _meta["trawl/credits"].';

interface RegisteredTool {
  definition: McpTool;
  listing: Tool;
  schema: ReturnType<McpTool['schema']>;
}

@Injectable()
export class McpService {
  private readonly logger = new Logger('Mcp');
  private readonly tools = new Map<string, RegisteredTool>();

  constructor(
    private readonly moduleRef: ModuleRef,
    @Inject(TRAWL_CONFIG) config: TrawlConfig,
  ) {
    const limits: ApiLimits = apiLimits(config);
    for (const definition of MCP_TOOLS) {
      const listing: Tool = {
        name: definition.name,
        title: definition.title,
        description: definition.description,
        inputSchema: (definition.inputSchema?.(limits) ?? paramsJsonSchema(definition.endpoint, limits)) as Tool['inputSchema'],
        outputSchema: toJsonSchema(definition.endpoint.response, 'output') as Tool['outputSchema'],
        annotations: definition.annotations,
      };
      this.tools.set(definition.name, { definition, listing, schema: definition.schema(config) });
    }
  }

  /** A protocol server for one HTTP request of this caller; `base`: the public origin links in results start with. */
  serverFor(principal: Caller, base = ''): Server {
    const server = new Server(MCP_SERVER_INFO, { capabilities: { tools: { listChanged: false } }, instructions: INSTRUCTIONS });
    server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [...this.tools.values()].map((t) => t.listing) }));
    server.setRequestHandler(CallToolRequestSchema, (request) => this.call(principal, request.params.name, request.params.arguments, base));
    return server;
  }

  /** Runs one tool call. Failures of the call are results with isError (same codes and messages as REST). */
  async call(principal: Caller, name: string, args: unknown, base = ''): Promise<CallToolResult> {
    const tool = this.tools.get(name);
    // An unknown tool is a protocol error, not a tool result.
    if (!tool) throw new McpError(RpcErrorCode.InvalidParams, `Unknown tool: ${name}. Available: ${[...this.tools.keys()].join(', ')}`);
    const { definition } = tool;
    try {
      const params = parseInput(tool.schema, args ?? {});
      const service = this.moduleRef.get(definition.service, { strict: false });
      const body = await definition.call(service, { ...principal, endpoint: `mcp:${name}` }, params, base);
      return {
        content: definition.content(body),
        structuredContent: body as Record<string, unknown>,
        _meta: { 'trawl/credits': definition.credits(body) },
      };
    } catch (error) {
      if (!(error instanceof TrawlError)) this.logger.error({ err: error, tool: name }, 'Unhandled error in an MCP tool');
      const failure = error instanceof TrawlError ? error : new TrawlError(ErrorCode.INTERNAL, 'Internal server error');
      return toolError(failure);
    }
  }
}

/** The REST error body as a tool result, with the status REST would have answered in `_meta`. */
export function toolError(error: TrawlError): CallToolResult {
  const body = { error: { code: error.code, message: error.message } };
  return {
    isError: true,
    content: [{ type: 'text', text: JSON.stringify(body) }],
    _meta: { 'trawl/status': httpStatusOf(error.code), 'trawl/credits': 0 },
  };
}
