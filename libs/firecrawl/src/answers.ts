/**
 * Firecrawl's answers as this server gives them, as zod schemas for the OpenAPI document (the TypeScript types stay
 * those of document.ts, jobs.ts and errors.ts; test/openapi.e2e.spec.ts holds real answers to these).
 */
import { z } from 'zod';

const int = () => z.number().int();

export const firecrawlMetadataSchema = z
  .object({
    title: z.string().optional(),
    description: z.string().optional(),
    language: z.string().optional(),
    canonical: z.string().optional(),
    author: z.string().optional(),
    publishedTime: z.string().optional(),
    ogSiteName: z.string().optional(),
    sourceURL: z.string().optional().describe('The URL as asked for'),
    url: z.string().optional().describe('The URL after redirects'),
    statusCode: int().optional().describe('The status the site answered: a page answering 404 is a document with statusCode 404'),
    scrapeId: z.string().optional().describe("The call's id in the request log"),
    creditsUsed: int().optional().describe('Trawl credits this page cost'),
    proxyUsed: z.enum(['basic', 'stealth']).optional().describe('`stealth` when the headed browser served it'),
    engine: z.enum(['http', 'chromium', 'headful']).optional().describe("Trawl's engine that served the page"),
    error: z.string().optional().describe('A search result that could not be scraped: `CODE: message`'),
  })
  .describe("The page's metadata, read from its head and markup where present");

export const firecrawlDocumentSchema = z.object({
  markdown: z.string().optional(),
  html: z.string().optional().describe("Trawl's cleaned HTML"),
  rawHtml: z.string().optional(),
  links: z.array(z.string()).optional(),
  images: z.array(z.string()).optional(),
  screenshot: z.string().optional().describe('A signed link to the PNG, expiring after SCREENSHOT_URL_TTL_MS'),
  summary: z.string().optional().describe("The `summary` format: the operator's LLM's summary of the page"),
  json: z.unknown().optional().describe('The `json` format: what the LLM extracted, valid against the schema when one was given'),
  highlights: z.string().optional().describe("The `highlights` format: the page's passages most relevant to its query (ranked by BM25), best first, in the page's own words, separated by blank lines"),
  metadata: firecrawlMetadataSchema,
  warning: z.string().optional(),
  actions: z
    .object({
      screenshots: z.array(z.string()).describe('Signed links to the PNGs of the screenshot actions, in order, expiring after SCREENSHOT_URL_TTL_MS'),
      scrapes: z.array(z.object({ url: z.string(), html: z.string() })).describe("The page's URL and HTML at each scrape action"),
      javascriptReturns: z.array(z.object({ type: z.string(), value: z.unknown() })).describe("Each executeJavascript action's return value: its typeof and its JSON value (null when it has none)"),
      pdfs: z.array(z.string()).describe('Signed links to the PDFs of the pdf actions, in order, expiring after SCREENSHOT_URL_TTL_MS'),
    })
    .optional()
    .describe("What the scrape's actions produced (only with actions)"),
});

export const scrapeAnswerSchema = z.object({ success: z.literal(true), data: firecrawlDocumentSchema });

export const jobStartedSchema = z.object({
  success: z.literal(true),
  id: z.string(),
  url: z.string().describe('Where to read it (on PUBLIC_BASE_URL when set)'),
  invalidURLs: z.array(z.string()).optional().describe("A batch's invalid URLs, left out"),
});

export const jobStatusSchema = z.object({
  success: z.literal(true),
  status: z.enum(['scraping', 'completed', 'failed', 'cancelled']),
  completed: int().describe('Pages stored'),
  total: int().describe('URLs found in scope so far: stored, failed and pending'),
  creditsUsed: int(),
  expiresAt: z.string(),
  next: z.string().optional().describe('The next status page (an absolute URL on PUBLIC_BASE_URL when set); present only while more pages are stored'),
  data: z.array(firecrawlDocumentSchema).describe('Up to 100 documents (or 10 MiB) from `skip`'),
  error: z.string().optional(),
});

export const cancelAnswerSchema = z.object({ success: z.literal(true), status: z.literal('cancelled') });

export const jobErrorsSchema = z.object({
  errors: z.array(z.object({ id: z.string(), timestamp: z.string(), url: z.string(), code: z.string(), error: z.string() })),
  robotsBlocked: z.array(z.string()).describe('URLs robots.txt refused'),
});

export const activeCrawlsSchema = z.object({
  success: z.literal(true),
  crawls: z.array(z.object({ id: z.string(), teamId: z.string(), url: z.string(), options: z.null() })),
});

const mapLinkSchema = z.object({ url: z.string(), title: z.string().optional(), description: z.string().optional() });
export const mapAnswerV2Schema = z.object({ success: z.literal(true), links: z.array(mapLinkSchema) });
export const mapAnswerV1Schema = z.object({ success: z.literal(true), links: z.array(z.string()) });

export const webResultSchema = firecrawlDocumentSchema.partial().extend({
  url: z.string(),
  title: z.string(),
  description: z.string(),
  position: int(),
});
const searchAnswer = (data: z.ZodType) =>
  z.object({
    success: z.literal(true),
    data,
    creditsUsed: int().describe('The search and the scrapes together, in Trawl credits'),
    warning: z.string().optional().describe('Which sources could not be fetched, how many results could not be scraped'),
  });
export const newsResultSchema = firecrawlDocumentSchema.partial().extend({
  title: z.string(),
  url: z.string(),
  snippet: z.string(),
  date: z.string().describe('As the search engine prints it ("3 hours ago")'),
  source: z.string().describe('The publication'),
  imageUrl: z.string().optional(),
  position: int(),
});
export const imageResultSchema = z.object({
  title: z.string(),
  imageUrl: z.string(),
  imageWidth: int().optional(),
  imageHeight: int().optional(),
  url: z.string().describe('The page the image is on'),
  position: int(),
});
export const searchAnswerV2Schema = searchAnswer(
  z.object({
    web: z.array(webResultSchema).optional(),
    news: z.array(newsResultSchema).optional(),
    images: z.array(imageResultSchema).optional(),
  }).describe('A list per source asked for (sources; default web)'),
);
export const searchAnswerV1Schema = searchAnswer(z.array(webResultSchema));

export const creditUsageSchema = z.object({
  success: z.literal(true),
  data: z.object({
    remainingCredits: int().describe("The account's balance"),
    planCredits: int().describe("The plan's monthly credits"),
    billingPeriodStart: z.string(),
    billingPeriodEnd: z.string(),
  }),
});

export const firecrawlErrorSchema = z.object({
  success: z.literal(false),
  error: z.string().describe('What went wrong, naming the field at fault'),
  code: z.string().optional().describe("BAD_REQUEST for validation, SCRAPE_TIMEOUT, else Trawl's error code"),
  details: z.array(z.object({ path: z.array(z.union([z.string(), z.number()])), message: z.string() })).optional().describe('Every validation issue (400)'),
});
