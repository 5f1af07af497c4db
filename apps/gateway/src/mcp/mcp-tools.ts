/**
 * The MCP tools, one entry each: name, description, annotations, the REST endpoint whose contract it shares (input
 * and output schemas, parameter docs), and a call into that endpoint's service — the same service the REST
 * controller calls, which runs the metered call lifecycle. Adding a tool is adding an entry to MCP_TOOLS.
 */
import type { Type } from '@nestjs/common';
import type { ContentBlock, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';
import { COSTS, type Principal } from '#billing';
import type { TrawlConfig } from '#config';
import {
  crawlEndpoint,
  crawlParamsSchema,
  serpSearchEndpoint,
  serpSearchParamsSchema,
  type ApiEndpoint,
  type ApiLimits,
  type CrawlParams,
  type CrawlResponse,
  type JsonSchema,
  type SerpSearchBody,
  type SerpSearchParams,
} from '#contracts';
import { CrawlService } from '../crawl/crawl.service.js';
import { SerpSearchService } from '../serp/serp-search.service.js';
import { crawlContent, serpSearchContent } from './tool-content.js';

export interface McpTool<S = unknown, P = unknown, B = unknown> {
  name: string;
  title: string;
  /** For the assistant: what the tool is for, when to prefer it, what it costs. */
  description: string;
  annotations: ToolAnnotations;
  /** The REST endpoint this tool exposes: parameter docs, output schema, errors. */
  endpoint: ApiEndpoint;
  /** Validates the arguments (parseInput: same schema and messages as REST). */
  schema(config: TrawlConfig): z.ZodType<P>;
  /** The input JSON Schema when it is not the endpoint's parameters (e.g. one `url` instead of `urls`). */
  inputSchema?(limits: ApiLimits): JsonSchema;
  service: Type<S>;
  call(service: S, principal: Principal, params: P): Promise<B>;
  /** Credits the call consumed, as the body reports them (reported to the client in `_meta`). */
  credits(body: B): number;
  /** The readable part of the result (text, images); `structuredContent` is the body itself. */
  content(body: B): ContentBlock[];
}

const tool = <S, P, B>(definition: McpTool<S, P, B>): McpTool => definition as unknown as McpTool;

export const MCP_TOOLS: readonly McpTool[] = [
  tool<CrawlService, CrawlParams, CrawlResponse>({
    name: 'crawl',
    title: 'Crawl URLs',
    description:
      'Fetch one or more known URLs and return their content: main-content Markdown (default), cleaned HTML, plain text, ' +
      'raw HTML, or a screenshot. Use it to read pages whose URLs you already have (from the user, or from serp_search ' +
      'results); set enhanced_html=false when Markdown is all you need. Plain HTTP costs 1 credit per successful URL; ' +
      'render_js=true runs JavaScript in headless Chromium (needed for single-page apps, and for screenshots) and costs 10. ' +
      'Failed URLs cost nothing and carry an `error`. The worst case (URLs × unit cost) must be covered by the balance.',
    annotations: { title: 'Crawl URLs', readOnlyHint: true, openWorldHint: true, destructiveHint: false, idempotentHint: false },
    endpoint: crawlEndpoint,
    schema: (config) => crawlParamsSchema(config.CRAWL_MAX_URLS),
    service: CrawlService,
    call: (service, principal, params) => service.crawl(principal, params),
    credits: (body) => body.credits,
    content: crawlContent,
  }),
  tool<SerpSearchService, SerpSearchParams, SerpSearchBody>({
    name: 'serp_search',
    title: 'Search engine results (SERP)',
    description:
      'Search the web through a search engine and get its results page as structured data: organic results with ' +
      'title, link, snippet and absolute position, plus knowledge graph, people-also-ask, related searches and answer ' +
      'box when the engine shows them; type=news|images|places|shopping switches vertical. Use it to find pages, rank ' +
      'checks and research; then pass the links you need to `crawl` to read them. Costs 10 credits per call (0 when ' +
      'the engine fails or blocks us).',
    annotations: { title: 'Search engine results', readOnlyHint: true, openWorldHint: true, destructiveHint: false, idempotentHint: false },
    endpoint: serpSearchEndpoint,
    schema: () => serpSearchParamsSchema,
    service: SerpSearchService,
    call: (service, principal, params) => service.search(principal, params),
    // The body has no credits field (spec §2.2): a successful /serp-search costs its flat price.
    credits: () => COSTS.serpSearch,
    content: serpSearchContent,
  }),
];
