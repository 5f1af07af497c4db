/**
 * The MCP tools of site crawls and `/map`: `crawl_site` starts a crawl (POST /crawls) and answers its id at once,
 * `crawl_status` reads it (GET /crawls/{id}) with each page's content cut for an assistant, `map_site` lists a site's
 * URLs (POST /map). Their inputs are the REST bodies' schemas; `crawl_status` takes the id and the cursor as JSON.
 */
import { z } from 'zod';
import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import { apiLimits } from '#config';
import {
  crawlReadQuerySchema, crawlStatusEndpoint, integer, mapBodySchema, mapEndpoint, startCrawlEndpoint, toJsonSchema,
  type CrawlJobCreated, type CrawlJobPage, type CrawlJobStatus, type MapBody, type MapResponse, type SiteCrawlBody,
} from '#contracts';
import { CrawlJobsService, MapService, siteCrawlSchema } from '#crawls';
import { crawlCreatedContent, crawlStatusContent, mapContent } from './crawl-content.js';
import type { McpTool } from './mcp-tools.js';

const tool = <S, P, B>(definition: McpTool<S, P, B>): McpTool => definition as unknown as McpTool;

/** An id of no crawl, to show the form (and to give generated inputs a valid one). */
const EXAMPLE_ID = '00000000-0000-4000-8000-000000000000';

export const crawlStatusToolSchema = z.strictObject(
  {
    id: z
      .string({ error: 'id is required: the id crawl_site answered' })
      .regex(/^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/, 'id must be the id crawl_site answered (a UUID)')
      .meta({ description: 'The crawl id crawl_site answered.', examples: [EXAMPLE_ID] }),
    cursor: crawlReadQuerySchema.shape.cursor.meta({ description: 'The next_cursor of an earlier crawl_status answer: the pages stored after it.' }),
    limit: integer('limit', 1, 100, 10).meta({ description: 'Pages in this answer, 1 to 100.' }),
    max_chars: integer('max_chars', 100, 100_000, 4_000).meta({ description: "Characters of each page's content at most (Markdown, else text or HTML); longer pages are cut and marked truncated." }),
  },
  { error: 'the arguments must be a JSON object' },
);
export type CrawlStatusToolParams = z.output<typeof crawlStatusToolSchema>;

/** The status with each page's one readable format cut to `maxChars` (HTML, when Markdown or text is there, and links left out). */
export function trimmedStatus(status: CrawlJobStatus, maxChars: number): CrawlJobStatus {
  const pages = status.pages.map((page): CrawlJobPage => {
    const { raw_html, enhanced_html, markdown, page_text, links: _links, ...rest } = page;
    const [format, text] = (
      [['markdown', markdown], ['page_text', page_text], ['enhanced_html', enhanced_html], ['raw_html', raw_html]] as const
    ).find(([, value]) => value !== undefined) ?? [null, undefined];
    if (!format || text === undefined) return rest;
    const cut = text.length > maxChars;
    return { ...rest, [format]: cut ? `${text.slice(0, maxChars)}…` : text, ...(cut || page.truncated ? { truncated: true } : {}) };
  });
  return { ...status, pages };
}

const READ_ONLY: ToolAnnotations = { readOnlyHint: true, openWorldHint: true, destructiveHint: false, idempotentHint: false };

export const CRAWL_TOOLS: readonly McpTool[] = [
  tool<CrawlJobsService, SiteCrawlBody, CrawlJobCreated>({
    name: 'crawl_site',
    title: 'Crawl a website (in the background)',
    description:
      'Start crawling a website from one URL: it follows the site\'s links (and its sitemaps) in the background and stores ' +
      'each page (Markdown by default). Answers at once with the crawl id; read the pages with crawl_status. Use it to read ' +
      'a whole site or a section of it (include_paths narrows it, e.g. ["^/docs/"]; limit bounds the pages, 100 by ' +
      'default); for a few known URLs use crawl, to list a site\'s URLs without content use map_site. Each stored page ' +
      'costs 1 credit (10 with render_js); failed pages cost nothing. robots.txt is honoured.',
    annotations: { title: 'Crawl a website', readOnlyHint: false, openWorldHint: true, destructiveHint: false, idempotentHint: false },
    endpoint: startCrawlEndpoint,
    schema: (config) => siteCrawlSchema(apiLimits(config).crawlJobs),
    service: CrawlJobsService,
    call: (service, principal, params, base) => service.startSite(principal, params, base),
    credits: () => 0,
    content: crawlCreatedContent,
  }),
  tool<CrawlJobsService, CrawlStatusToolParams, CrawlJobStatus>({
    name: 'crawl_status',
    title: 'Read a website crawl',
    description:
      'The status of a crawl crawl_site started (running, completed, …; pages stored, discovered, failed; credits so far) ' +
      'and its next stored pages, each page\'s Markdown cut to max_chars. Pass the answer\'s next_cursor as cursor to read ' +
      'on; while the crawl runs, call again later for the pages stored since. Reading costs no credits.',
    annotations: { title: 'Read a website crawl', ...READ_ONLY, idempotentHint: true },
    endpoint: crawlStatusEndpoint,
    schema: () => crawlStatusToolSchema,
    inputSchema: () => toJsonSchema(crawlStatusToolSchema, 'input'),
    service: CrawlJobsService,
    call: async (service, principal, params, base) =>
      trimmedStatus(await service.status(principal, params.id, { cursor: params.cursor, limit: params.limit }, base), params.max_chars),
    credits: () => 0,
    content: crawlStatusContent,
  }),
  tool<MapService, MapBody, MapResponse>({
    name: 'map_site',
    title: "List a website's URLs",
    description:
      'List the URLs of a website fast, without their content: from its sitemaps and the start page\'s links, with titles ' +
      'where known; `search` puts the URLs whose address or title has those words first, and use_search=true also asks ' +
      'the web search (site:) for more. Use it to find the right pages of a site before reading them with crawl, or to ' +
      'scope a crawl_site. Costs 2 credits, plus 10 when use_search fetched a result page.',
    annotations: { title: "List a website's URLs", ...READ_ONLY },
    endpoint: mapEndpoint,
    schema: (config) => mapBodySchema(config.MAP_MAX_LINKS),
    service: MapService,
    call: (service, principal, params) => service.map(principal, params),
    credits: (body) => body.credits,
    content: mapContent,
  }),
];
