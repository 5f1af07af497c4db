/** `GET /crawl` parameters (spec §4.4), validated before anything is charged. */
import { z } from 'zod';
import type { PageMetadata } from '../formats.js';
import { chunkSelection, chunkSizeFields, givenSize, type ChunkSelection, type ResultChunk, type TOKEN_ENCODING } from './chunks.js';
import { countryCode } from './fields.js';
import { flag } from './query.js';
import { urlListField } from './url-list.js';

export { MAX_URL_LENGTH, normaliseUrl } from './url-list.js';

/** `query` of `/crawl`: the text chunks are ranked against (as long as a `/search` query). */
export const MAX_CRAWL_QUERY_LENGTH = 2048;
/** `json_prompt`: what to extract, in words. */
export const MAX_LLM_PROMPT_LENGTH = 4000;
/** `json_schema` as JSON text, at most (the schema is checked further before anything is sent: see #llm). */
export const MAX_JSON_SCHEMA_BYTES = 16_384;

/** A JSON Schema: an object in a tool's arguments, or JSON text in a query string. */
const jsonSchemaParam = z
  .union([z.string(), z.record(z.string(), z.unknown())], { error: 'json_schema must be a JSON Schema object (JSON text in a query string)' })
  .transform((value, ctx) => {
    if (typeof value !== 'string') return value;
    if (new TextEncoder().encode(value).length > MAX_JSON_SCHEMA_BYTES) {
      ctx.addIssue({ code: 'custom', message: `json_schema is larger than ${MAX_JSON_SCHEMA_BYTES} bytes` });
      return z.NEVER;
    }
    try {
      const parsed: unknown = JSON.parse(value);
      if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
    } catch {
      // reported below
    }
    ctx.addIssue({ code: 'custom', message: 'json_schema must be a JSON Schema object (JSON text in a query string)' });
    return z.NEVER;
  });

/** The LLM formats a crawl asks for (each needs an LLM the operator configured). */
export interface LlmFormats {
  summary: boolean;
  /** `json`: an object valid against `schema` (when given), holding what `prompt` asks for (when given). */
  json?: { schema?: Record<string, unknown>; prompt?: string };
}

/**
 * `max_age`: seconds, like HTTP's `Cache-Control: max-age`. 0 asks for a fresh fetch that refreshes the cache; the
 * longest allowed is the operator's PAGE_CACHE_MAX_AGE_MS (also how long an entry is kept). Absent: the cache is not
 * used at all.
 */
/** PAGE_CACHE_MAX_AGE_MS's default, in seconds: two days (Firecrawl's default maxAge). */
export const DEFAULT_PAGE_CACHE_MAX_AGE_S = 172_800;

export const maxAgeParam = (maxAgeS: number) =>
  z
    .number({ error: `max_age must be an integer from 0 to ${maxAgeS} (seconds)` })
    .int(`max_age must be an integer from 0 to ${maxAgeS} (seconds)`)
    .min(0, `max_age must be an integer from 0 to ${maxAgeS} (seconds)`)
    .max(maxAgeS, `max_age must be an integer from 0 to ${maxAgeS} (seconds)`);

/** `maxAgeS`: the longest `max_age` accepted, in seconds (PAGE_CACHE_MAX_AGE_MS). */
export function crawlParamsSchema(maxUrls: number, maxAgeS: number = DEFAULT_PAGE_CACHE_MAX_AGE_S) {
  return z
    .object({
      urls: urlListField(maxUrls),
      render_js: flag(false),
      geolocation: countryCode('geolocation').optional(),
      raw_html: flag(false),
      enhanced_html: flag(true),
      page_text: flag(false),
      markdown: flag(true),
      screenshot: flag(false),
      screenshot_full_page: flag(false),
      query: z
        .string()
        .transform((v) => v.trim())
        .pipe(z.string().min(1, 'query must not be empty').max(MAX_CRAWL_QUERY_LENGTH, `query must be at most ${MAX_CRAWL_QUERY_LENGTH} characters`))
        .optional(),
      ...chunkSizeFields,
      summary: flag(false),
      json_schema: jsonSchemaParam.optional(),
      json_prompt: z
        .string()
        .transform((v) => v.trim())
        .pipe(z.string().min(1, 'json_prompt must not be empty').max(MAX_LLM_PROMPT_LENGTH, `json_prompt must be at most ${MAX_LLM_PROMPT_LENGTH} characters`))
        .optional(),
      max_age: maxAgeParam(maxAgeS).optional(),
    })
    .transform((params, ctx) => {
      // The contract (§4.4): `screenshot` is "only effective when render_js=true, otherwise ignored", and
      // `screenshot_full_page` only picks the full page over the viewport: it does not ask for a screenshot by itself.
      const screenshot = params.screenshot && params.render_js;
      const size = givenSize(params);
      if (size && params.query === undefined) {
        ctx.addIssue({ code: 'custom', path: [size], message: `${size} needs query (the text the chunks are ranked against)` });
        return z.NEVER;
      }
      const { chunks_per_page, max_tokens, summary, json_schema, json_prompt, ...rest } = params;
      const chunks: ChunkSelection | undefined = params.query === undefined ? undefined : chunkSelection(params.query, { chunks_per_page, max_tokens });
      const json = json_schema !== undefined || json_prompt !== undefined ? { ...(json_schema ? { schema: json_schema } : {}), ...(json_prompt ? { prompt: json_prompt } : {}) } : undefined;
      const llm: LlmFormats | undefined = summary || json ? { summary, ...(json ? { json } : {}) } : undefined;
      return { ...rest, screenshot, chunks, llm };
    });
}

export type CrawlParams = z.output<ReturnType<typeof crawlParamsSchema>>;

/** One crawled URL in the `/crawl` response (§2.4); `metadata` is Trawl's addition (title, author, … when present). */
export interface CrawlResultItem {
  url: string;
  status_code?: number;
  raw_html?: string;
  enhanced_html?: string;
  markdown?: string;
  page_text?: string;
  screenshot?: string;
  metadata?: PageMetadata;
  /** With `query`: the page's passages most relevant to it, best first. */
  chunks?: ResultChunk[];
  /** With `summary=true`: the LLM's summary of the page. */
  summary?: string;
  /** With `json_schema` and/or `json_prompt`: what the LLM extracted (valid against the schema). */
  json?: unknown;
  /** Why an LLM format failed for this page (`CODE: message`); the page itself still succeeded. */
  summary_error?: string;
  json_error?: string;
  /** With `max_age`: whether the page came from the page cache. */
  cache_state?: CacheState;
  /** With `max_age`, for a page that succeeded: when the page was fetched (a hit: when its stored copy was). ISO 8601. */
  cached_at?: string;
  error?: string;
}

export type CacheState = 'hit' | 'miss';

/** Tokens the LLM formats of a call used (prompt and answer, retries included, failed attempts too), and their price. */
export interface LlmUsage {
  model: string;
  prompt_tokens: number;
  completion_tokens: number;
  /** Credits charged for the LLM formats (included in `credits`); a failed format is not charged. */
  credits: number;
}

export interface CrawlResponse {
  results: CrawlResultItem[];
  credits: number;
  successful_pages: number;
  /** With `query`: tokens in every returned chunk, and the encoding they are counted in. */
  tokens?: number;
  token_encoding?: typeof TOKEN_ENCODING;
  /** With an LLM format: the tokens it used and their price. */
  llm_usage?: LlmUsage;
}
