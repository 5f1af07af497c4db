/** `GET /crawl` parameters (spec §4.4), validated before anything is charged. */
import { z } from 'zod';
import type { PageMetadata } from '../formats.js';
import { chunkSelection, chunkSizeFields, givenSize, type ChunkSelection, type ResultChunk, type TOKEN_ENCODING } from './chunks.js';
import { countryCode } from './fields.js';
import { flag } from './query.js';

export const MAX_URL_LENGTH = 2048;
/** `query` of `/crawl`: the text chunks are ranked against (as long as a `/search` query). */
export const MAX_CRAWL_QUERY_LENGTH = 2048;

export function crawlParamsSchema(maxUrls: number) {
  return z
    .object({
      urls: z
        .array(z.string(), { error: 'urls is required: one URL or a comma-separated list' })
        .transform((parts, ctx) => {
          if (parts.length === 0) {
            ctx.addIssue({ code: 'custom', message: 'urls is required: one URL or a comma-separated list' });
            return z.NEVER;
          }
          const unique: string[] = [];
          const seen = new Set<string>();
          for (const part of parts) {
            const url = normaliseUrl(part.trim());
            if (typeof url !== 'string') {
              ctx.addIssue({ code: 'custom', message: `urls: ${url.error}` });
              return z.NEVER;
            }
            if (!seen.has(url)) {
              seen.add(url);
              unique.push(url);
            }
          }
          if (unique.length > maxUrls) {
            ctx.addIssue({ code: 'custom', message: `urls has ${unique.length} URLs; the maximum is ${maxUrls} per request` });
            return z.NEVER;
          }
          return unique;
        }),
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
    })
    .transform((params, ctx) => {
      // A full-page screenshot is a screenshot: asking for one is enough. Only a rendered page can be captured, so a
      // screenshot without rendering is refused (400, nothing charged) instead of being silently dropped.
      const screenshot = params.screenshot || params.screenshot_full_page;
      if (screenshot && !params.render_js) {
        const name = params.screenshot ? 'screenshot' : 'screenshot_full_page';
        ctx.addIssue({ code: 'custom', path: [name], message: `${name} needs render_js=true (only a rendered page can be captured)` });
        return z.NEVER;
      }
      const size = givenSize(params);
      if (size && params.query === undefined) {
        ctx.addIssue({ code: 'custom', path: [size], message: `${size} needs query (the text the chunks are ranked against)` });
        return z.NEVER;
      }
      const { chunks_per_page, max_tokens, ...rest } = params;
      const chunks: ChunkSelection | undefined = params.query === undefined ? undefined : chunkSelection(params.query, { chunks_per_page, max_tokens });
      return { ...rest, screenshot, chunks };
    });
}

export type CrawlParams = z.output<ReturnType<typeof crawlParamsSchema>>;

/** An absolute http(s) URL, normalised by WHATWG URL (so duplicates compare equal), or why it is not one. */
export function normaliseUrl(input: string): string | { error: string } {
  const shown = input.length > 80 ? `${input.slice(0, 80)}…` : input;
  if (input.length > MAX_URL_LENGTH) return { error: `a URL is longer than ${MAX_URL_LENGTH} characters` };
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    return { error: `"${shown}" is not a valid absolute URL (include http:// or https://; encode commas inside a URL as %2C)` };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { error: `"${shown}" must use http or https` };
  if (!url.hostname) return { error: `"${shown}" has no host` };
  if (url.username || url.password) return { error: `"${shown}" must not carry credentials` };
  url.hash = '';
  return url.toString();
}

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
  error?: string;
}

export interface CrawlResponse {
  results: CrawlResultItem[];
  credits: number;
  successful_pages: number;
  /** With `query`: tokens in every returned chunk, and the encoding they are counted in. */
  tokens?: number;
  token_encoding?: typeof TOKEN_ENCODING;
}
