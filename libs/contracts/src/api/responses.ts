/**
 * Response bodies as zod schemas. The TypeScript types stay the services' own; these describe the same JSON for the
 * OpenAPI document and for MCP tool `outputSchema`s, and a test holds real responses to them.
 */
import { z } from 'zod';
import { ErrorCode } from '../error-codes.js';
import { SERP_TYPES } from '../jobs.js';

const int = () => z.number().int();

export const errorBodySchema = z
  .object({
    error: z.object({
      code: z.enum(Object.values(ErrorCode) as [ErrorCode, ...ErrorCode[]]).describe('Machine-readable error code'),
      message: z.string().describe('Human-readable message; names the parameter at fault'),
    }),
  });

const pageMetadataSchema = z
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
  error: z.string().optional().describe('`CODE: message` when this URL failed (it then costs 0 credits)'),
});

export const crawlResponseSchema = z
  .object({
    results: z.array(crawlResultItemSchema).describe('One per distinct URL, in request order'),
    credits: int().describe('Credits consumed'),
    successful_pages: int().describe('URLs crawled successfully'),
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
    answerBox: z.looseObject({ answer: z.string().optional(), snippet: z.string().optional() }).optional(),
  })
  .describe('Enriched blocks (knowledgeGraph, peopleAlsoAsk, relatedSearches, answerBox, topStories, places, …) appear only when the page shows them');
