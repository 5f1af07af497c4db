/**
 * The MCP tools, one entry each: name, description, annotations, the REST endpoint whose contract it shares (input
 * and output schemas, parameter docs), and a call into that endpoint's service — the same service the REST
 * controller calls, which runs the metered call lifecycle. Adding a tool is adding an entry to MCP_TOOLS (the site
 * crawl and map tools are in crawl-tools.ts).
 */
import type { Type } from '@nestjs/common';
import type { ContentBlock, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';
import { COSTS, type Caller } from '#billing';
import { pageCacheMaxAgeS, type TrawlConfig } from '#config';
import {
  crawlEndpoint,
  crawlParamsSchema,
  headfulBrowserEndpoint,
  headfulBrowserParamsSchema,
  paramsJsonSchema,
  searchEndpoint,
  searchParamsSchema,
  serpMapsEndpoint,
  serpMapsParamsSchema,
  serpSearchEndpoint,
  serpSearchParamsSchema,
  type ApiEndpoint,
  type ApiLimits,
  type CrawlParams,
  type CrawlResponse,
  type HeadfulBrowserParams,
  type HeadfulBrowserResponse,
  type JsonSchema,
  type SearchParams,
  type SearchResponse,
  type SerpMapsParams,
  type SerpMapsResponse,
  type SerpSearchBody,
  type SerpSearchParams,
} from '#contracts';
import { CrawlService } from '../crawl/crawl.service.js';
import { HeadfulBrowserService } from '../headful-browser/headful-browser.service.js';
import { SerpMapsService } from '../serp-maps/serp-maps.service.js';
import { SearchService } from '../search/search.service.js';
import { SerpSearchService } from '../serp-search/serp-search.service.js';
import { CRAWL_TOOLS } from './crawl-tools.js';
import { singleUrlJsonSchema, singleUrlSchema } from './single-url.js';
import { crawlContent, headfulBrowserContent, serpMapsContent, serpSearchContent, webSearchContent } from './tool-content.js';

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
  /** `base`: the public origin links in the answer start with (a crawl's status link). */
  call(service: S, principal: Caller, params: P, base: string): Promise<B>;
  /** Credits the call consumed, as the body reports them (reported to the client in `_meta`). */
  credits(body: B): number;
  /** The readable part of the result (text, images); `structuredContent` is the body itself. */
  content(body: B): ContentBlock[];
}

const tool = <S, P, B>(definition: McpTool<S, P, B>): McpTool => definition as unknown as McpTool;

/** The `headful_browser` tool takes `url`, `output_format` and `country` (spec §4.5): no `screenshot`, so no link to sign. */
const HEADFUL_TOOL_INPUTS = ['url', 'output_format', 'country'];

export const MCP_TOOLS: readonly McpTool[] = [
  tool<CrawlService, CrawlParams, CrawlResponse>({
    name: 'crawl',
    title: 'Crawl URLs',
    description:
      'Fetch one or more known URLs and return their content: main-content Markdown (default), cleaned HTML, plain text, ' +
      'raw HTML, or a screenshot. Use it to read pages whose URLs you already have (from the user, or from serp_search ' +
      'results); set enhanced_html=false when Markdown is all you need. With `query`, each page also returns its passages ' +
      'most relevant to it (chunks_per_page per page, max_tokens over all pages); with markdown=false and ' +
      'enhanced_html=false, the passages alone. summary=true, or json_schema (a JSON Schema object) and/or json_prompt, ' +
      'have the server\'s LLM summarise the page or extract data from it, priced by tokens (when the operator configured one). ' +
      'max_age (seconds) accepts a copy of a page fetched that recently from the page cache (cache_state: hit, 1 credit). ' +
      'Plain HTTP costs 1 credit per successful URL; ' +
      'render_js=true runs JavaScript in headless Chromium (needed for single-page apps, and for screenshots) and costs 10. ' +
      'Failed URLs cost nothing and carry an `error`. The worst case (URLs × unit cost) must be covered by the balance.',
    annotations: { title: 'Crawl URLs', readOnlyHint: true, openWorldHint: true, destructiveHint: false, idempotentHint: false },
    endpoint: crawlEndpoint,
    schema: (config) => crawlParamsSchema(config.CRAWL_MAX_URLS, pageCacheMaxAgeS(config)),
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
  tool<SearchService, SearchParams, SearchResponse>({
    name: 'web_search',
    title: 'Web search (with optional page reading)',
    description:
      'Search the web for a query and get the results (title, link, snippet, source, date), plus the direct answer, AI ' +
      'answer, people-also-ask and related queries when the engine shows them. Set auto_crawling=true with markdown=true ' +
      'to also get the main-content Markdown of every result in the same call: the best way to read what the web says ' +
      'about a question (LLM/RAG). With auto_crawling=true, chunks_per_page or max_tokens returns instead (or as well) each ' +
      'result\'s passages most relevant to the query within a token budget: the cheapest way to fill a context. ' +
      'max_pages (1-10) fetches more result pages. Costs 10 credits per result page fetched ' +
      '+ 1 credit per result crawled successfully (failed crawls are free and carry `error`). For structured SERP data ' +
      '(exact ranks, news/images/shopping verticals) use serp_search; for URLs you already have use crawl.',
    annotations: { title: 'Web search', readOnlyHint: true, openWorldHint: true, destructiveHint: false, idempotentHint: false },
    endpoint: searchEndpoint,
    schema: () => searchParamsSchema,
    service: SearchService,
    call: (service, principal, params) => service.search(principal, params),
    credits: (body) => body.credits,
    content: webSearchContent,
  }),
  tool<SerpMapsService, SerpMapsParams, SerpMapsResponse>({
    name: 'serp_maps',
    title: 'Maps places search',
    description:
      'Find places on a map (businesses, restaurants, shops, points of interest) for a query such as "coffee in ' +
      'Chelsea, New York", or look up one place by placeId or cid (q is still required). Returns each place\'s name, ' +
      'category, address, rating and review count, phone, website, coordinates, opening hours and ids. ll ' +
      '("@<lat>,<lng>,<zoom>z") biases the search to an area, hl sets the language. Costs 30 credits per call whatever ' +
      'the number of places (0 when the provider fails, or a lookup finds nothing).',
    annotations: { title: 'Maps places search', readOnlyHint: true, openWorldHint: true, destructiveHint: false, idempotentHint: false },
    endpoint: serpMapsEndpoint,
    schema: () => serpMapsParamsSchema,
    service: SerpMapsService,
    call: (service, principal, params) => service.search(principal, params),
    credits: (body) => body.credits,
    content: serpMapsContent,
  }),
  tool<HeadfulBrowserService, HeadfulBrowserParams, HeadfulBrowserResponse>({
    name: 'headful_browser',
    title: 'Read a page that blocks crawlers (real browser)',
    description:
      'Load one URL in a real headed Chromium behind a residential proxy of `country` (not given, and no proxy serves ' +
      'us: direct, which the result\'s `egress` says), retrying through other proxies ' +
      'when a bot wall (Cloudflare, DataDome, captcha, ...) answers, and return its content in output_format (Markdown ' +
      'by default). Only for sites where `crawl` failed with a block or an empty page: it is slower and costs 50 ' +
      'credits per URL that loaded unblocked (0 when every attempt was blocked or the load failed; the result then ' +
      'says why). Try crawl (1 credit, 10 with render_js) first.',
    annotations: { title: 'Headful browser', readOnlyHint: true, openWorldHint: true, destructiveHint: false, idempotentHint: false },
    endpoint: headfulBrowserEndpoint,
    schema: (config) =>
      singleUrlSchema(headfulBrowserParamsSchema(config.HEADFUL_MAX_URLS)).transform((params) => ({ ...params, screenshot: false })),
    inputSchema: (limits) => {
      const json = singleUrlJsonSchema(paramsJsonSchema(headfulBrowserEndpoint, limits), 'The page to load: one absolute http(s) URL.');
      const properties = json.properties as Record<string, JsonSchema>;
      return { ...json, properties: Object.fromEntries(HEADFUL_TOOL_INPUTS.map((name) => [name, properties[name]])) };
    },
    service: HeadfulBrowserService,
    // No screenshot is asked for, so the origin that would prefix a local screenshot link is not needed.
    call: (service, principal, params) => service.run(principal, params),
    credits: (body) => body.credits_used,
    content: headfulBrowserContent,
  }),
  ...CRAWL_TOOLS,
];
