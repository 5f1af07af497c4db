/**
 * Response bodies as zod schemas. The TypeScript types stay the services' own; these describe the same JSON for the
 * OpenAPI document and for MCP tool `outputSchema`s, and a test holds real responses to them.
 */
import { z } from 'zod';
import { ErrorCode } from '../error-codes.js';
import { SERP_TYPES } from '../jobs.js';
import { chunksFieldSchema, chunkTotalsSchema } from './chunks.js';

const int = () => z.number().int();

export const errorBodySchema = z
  .object({
    error: z.object({
      code: z.enum(Object.values(ErrorCode) as [ErrorCode, ...ErrorCode[]]).describe('Machine-readable error code'),
      message: z.string().describe('Human-readable message; names the parameter at fault'),
    }),
  });

export const pageMetadataSchema = z
  .object({
    title: z.string().optional(),
    description: z.string().optional(),
    language: z.string().optional(),
    canonicalUrl: z.string().optional(),
    publishedDate: z.string().optional(),
    author: z.string().optional(),
    siteName: z.string().optional(),
    pageType: z
      .enum(['article', 'service', 'product', 'collection', 'forum', 'listing', 'documentation'])
      .optional()
      .describe('The kind of page main-content selection went by'),
    pages: int().optional().describe("A PDF's page count (all of them, also when only PDF_MAX_PAGES were read)"),
  })
  .describe("Read from the page's head and markup, where present (Trawl's addition to the contract)");

export const crawlResultItemSchema = z.object({
  url: z.string().describe('The URL as requested (normalised)'),
  status_code: int().optional().describe('HTTP status the server answered (absent when the fetch failed)'),
  raw_html: z.string().optional().describe('HTML as fetched or rendered (raw_html=true)'),
  enhanced_html: z.string().optional().describe('Cleaned HTML (enhanced_html=true)'),
  markdown: z.string().optional().describe('Main content as GitHub-flavoured Markdown (markdown=true)'),
  page_text: z.string().optional().describe('Plain text (page_text=true)'),
  screenshot: z.string().optional().describe('Base64 PNG (screenshot=true with render_js=true)'),
  metadata: pageMetadataSchema.optional(),
  chunks: chunksFieldSchema.optional(),
  summary: z.string().optional().describe("The page summarised by the server's LLM (summary=true)"),
  json: z.unknown().optional().describe('What the LLM extracted (json_schema / json_prompt): valid against json_schema when one was given'),
  summary_error: z.string().optional().describe('`CODE: message` when the summary failed (LLM_TIMEOUT, LLM_UNAVAILABLE, LLM_INVALID_OUTPUT, LLM_REJECTED); not charged'),
  json_error: z.string().optional().describe('`CODE: message` when the extraction failed; not charged'),
  cache_state: z.enum(['hit', 'miss']).optional().describe('With max_age: `hit` when the page came from the page cache (1 credit), `miss` when it was fetched (and stored)'),
  cached_at: z.string().optional().describe('With max_age, for a page that succeeded: when it was fetched (a hit: when its stored copy was), ISO 8601'),
  error: z.string().optional().describe('`CODE: message` when this URL failed (it then costs 0 credits)'),
});

export const crawlResponseSchema = z
  .object({
    results: z.array(crawlResultItemSchema).describe('One per distinct URL, in request order'),
    credits: int().describe('Credits consumed'),
    successful_pages: int().describe('URLs crawled successfully'),
    ...chunkTotalsSchema,
    llm_usage: z
      .object({
        model: z.string(),
        prompt_tokens: int(),
        completion_tokens: int(),
        credits: int().describe('Credits for the LLM formats that succeeded (included in credits)'),
      })
      .optional()
      .describe("With summary or json: the LLM's tokens over every page and attempt (as the server reports them), and their price"),
  });

const serpItemSchema = z
  .looseObject({
    position: int().describe('Absolute rank: page 2 with num=20 starts at 21'),
    title: z.string(),
    link: z.string().optional(),
    snippet: z.string().optional(),
    date: z.string().optional(),
  })
  .describe('An organic result (type=search) or the vertical’s item (Serper-compatible shapes for news, images, places, shopping)');

export const serpSearchResponseSchema = z
  .looseObject({
    parameters: z
      .object({
        q: z.string(),
        gl: z.string(),
        hl: z.string(),
        num: int(),
        page: int(),
        type: z.enum(SERP_TYPES),
        tbs: z.string().optional(),
      })
      .describe('Echo of the parameters used'),
    serp_search_results: z.array(serpItemSchema),
    knowledgeGraph: z
      .looseObject({ title: z.string(), type: z.string(), description: z.string(), attributes: z.record(z.string(), z.string()) })
      .optional(),
    peopleAlsoAsk: z
      .array(z.looseObject({ question: z.string(), snippet: z.string().optional(), link: z.string().optional(), title: z.string().optional() }))
      .optional(),
    relatedSearches: z.array(z.looseObject({ query: z.string() })).optional(),
    answerBox: z.looseObject({ answer: z.string(), snippet: z.string() }).optional(),
  })
  .describe('Enriched blocks (knowledgeGraph, peopleAlsoAsk, relatedSearches, answerBox, topStories, places, …) appear only when the page shows them');

const searchPageContentSchema = z
  .object({
    raw_html: z.string().optional(),
    enhanced_html: z.string().optional(),
    page_markdown: z.string().optional().describe('Main content as Markdown (markdown=true)'),
    page_text: z.string().optional(),
  })
  .describe('Content in the asked formats: of the crawled result (on a result), or of the result page itself (on a page)');

const searchResultSchema = z.object({
  title: z.string(),
  link: z.string(),
  date: z.string().nullable().describe('As the engine prints it ("2 days ago"), null when it shows none'),
  snippet: z.string(),
  source: z.string().describe('Site name or domain'),
  page_content: searchPageContentSchema.optional().describe('With auto_crawling=true and a format flag: the crawled result'),
  metadata: pageMetadataSchema.optional(),
  status_code: int().optional().describe('HTTP status of the crawled result (auto_crawling=true)'),
  chunks: chunksFieldSchema.optional(),
  error: z.string().optional().describe("`CODE: message` when this result's crawl failed or was cut off (it then costs 0)"),
});

const searchPageSchema = z
  .looseObject({
    total_results: z.string().describe('The result count as the engine prints it, "" when it shows none'),
    search_results: z.array(searchResultSchema),
    related_queries: z.array(z.string()).optional(),
    ai_answer: z.looseObject({ answer: z.string(), sources: z.array(z.looseObject({ title: z.string(), link: z.string() })) }).optional(),
    questions_answers: z.array(z.looseObject({ question: z.string(), snippet: z.string().optional(), link: z.string().optional() })).optional(),
    sidebar: z
      .looseObject({
        title: z.string(),
        type: z.string(),
        description: z.string(),
        attributes: z.record(z.string(), z.string()),
        link: z.string().optional(),
        source: z.string().optional(),
        local_results: z.array(z.looseObject({})).optional(),
      })
      .optional(),
    direct_answer: z.looseObject({ answer: z.string(), snippet: z.string().optional(), source: z.string().optional(), link: z.string().optional() }).optional(),
    page_content: searchPageContentSchema.optional().describe('The result page itself, when a format is asked without auto_crawling'),
  })
  .describe('One result page; the enrichment blocks appear only when the page shows them and their toggle is on');

/** Trawl's `egress` (see `egressFor`): where the call's traffic left from. */
const egressSchema = z
  .object({
    via: z.enum(['proxy', 'direct']).describe('Through a proxy, or direct from the server (no proxy serves the country chosen for the caller)'),
    country: z.string().optional().describe('With via=proxy: the country of the proxy (ISO 3166-1 alpha-2, lower case)'),
  })
  .describe("Trawl's addition: where the request left from");

export const searchResponseSchema = z.object({
  query: z.string(),
  pages_fetched: int().describe('Result pages actually fetched (10 credits each)'),
  pages: z.record(z.string(), searchPageSchema).describe('Keyed by page number: "1", "2", …'),
  credits: int().describe('Credits consumed: 10 per page fetched + 1 per result crawled'),
  page_errors: z.record(z.string(), z.string()).optional().describe('A page after the first that failed (`CODE: message`), keyed like pages; pagination ended there'),
  egress: egressSchema.optional().describe('With geolocation: the country picked (random) and whether a proxy carried the requests or they went direct'),
  ...chunkTotalsSchema,
});

const placeSchema = z.object({
  position: int().describe('1-based rank'),
  title: z.string(),
  address: z.string().optional(),
  rating: z.number().optional(),
  ratingCount: int().optional(),
  phoneNumber: z.string().optional(),
  website: z.string().optional(),
  type: z.string().optional().describe('Primary category'),
  types: z.array(z.string()).optional(),
  priceLevel: z.string().optional(),
  placeId: z.string().optional(),
  cid: z.string().optional().describe("Google's customer id as a decimal string"),
  latitude: z.number().optional(),
  longitude: z.number().optional(),
  openingHours: z.record(z.string(), z.string()).optional().describe('Keyed by English weekday name (Monday … Sunday)'),
  thumbnailUrl: z.string().optional(),
});

export const serpMapsResponseSchema = z.object({
  parameters: z
    .object({ q: z.string(), hl: z.string().optional(), ll: z.string().optional(), placeId: z.string().optional(), cid: z.string().optional() })
    .describe('Echo of the parameters given (ll as sent)'),
  serp_maps_results: z.array(placeSchema).describe('Places; absent values are omitted, never null'),
  credits: int().describe('Credits consumed (30)'),
});

export const headfulBrowserResponseSchema = z.object({
  status: z.literal('success'),
  data: z
    .array(
      z.object({
        url: z.string().describe('The URL as requested (normalised)'),
        markdown: z.string().optional(),
        enhanced_html: z.string().optional(),
        raw_html: z.string().optional(),
        page_text: z.string().optional(),
        screenshot: z.string().optional().describe('A signed, expiring link to the full-page PNG (screenshot=true)'),
        blocked: z.boolean().describe('Every attempt was blocked'),
        error: z.string().optional().describe('`CODE: message` when this URL failed or was blocked (it then costs 0)'),
        egress: egressSchema.describe("Trawl's addition: through a residential proxy of the country, or direct when country was not given and no proxy serves us"),
      }),
    )
    .describe('One per distinct URL, in request order; the content under the key of output_format'),
  credits_used: int().describe('50 per URL loaded unblocked'),
  credits_remaining: int().describe('The balance after the request'),
});
