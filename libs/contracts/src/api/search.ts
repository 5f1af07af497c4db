/**
 * `GET /search` parameters (spec §4.1) and response (§2.1), validated before anything is charged. The decisions the
 * contract leaves open (where the enrichment blocks sit, the `raw_html`/`page_text` keys, `count`, the maximum
 * `max_pages`) are written down here and in docs/api.md's `/search` section.
 */
import { z } from 'zod';
import type { DeviceKind } from '../devices.js';
import type { PageMetadata } from '../formats.js';
import type { Egress } from '../proxy.js';
import type { SearchPage } from './serp-results.js';
import { chunkSelection, chunkSizeFields, givenSize, type ChunkSelection, type ResultChunk, type TOKEN_ENCODING } from './chunks.js';
import { countryCode } from './fields.js';
import { flag, integer } from './query.js';

/** `max_pages` runs from 1 to this (spec §8 leaves the maximum open). */
export const MAX_SEARCH_PAGES = 10;
/** `count` (results per page) runs from 1 to this: Bing's own range; a suggestion the engine may round. */
export const MAX_SEARCH_COUNT = 50;
export const MAX_QUERY_LENGTH = 2048;
export const SEARCH_DEVICES = ['desktop', 'mobile', 'tablet'] as const satisfies readonly DeviceKind[];

/** A language tag such as `en`, `de` or `pt-BR`. */
const languageTag = (name: string) =>
  z.string().transform((value, ctx) => {
    const tag = value.trim();
    if (!/^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8}){0,3}$/.test(tag)) {
      ctx.addIssue({ code: 'custom', message: `${name} must be a language code such as en, de or pt-BR` });
      return z.NEVER;
    }
    return tag;
  });

const searchFields = z.object({
  query: z
    .string({ error: 'query is required' })
    .transform((v) => v.trim())
    .pipe(z.string().min(1, 'query is required').max(MAX_QUERY_LENGTH, `query must be at most ${MAX_QUERY_LENGTH} characters`)),
  max_pages: integer('max_pages', 1, MAX_SEARCH_PAGES, 1),
  setLang: languageTag('setLang').optional(),
  cc: countryCode('cc').optional(),
  /** A country code, or `random` (a country among the configured proxies, chosen by the service; see `egressFor`). */
  geolocation: z
    .string()
    .transform((value, ctx) => {
      const v = value.trim().toLowerCase();
      if (v === 'random') return v;
      const parsed = countryCode('geolocation').safeParse(v);
      if (!parsed.success) {
        ctx.addIssue({ code: 'custom', message: 'geolocation must be an ISO 3166-1 alpha-2 country code such as us, gb or de, or random' });
        return z.NEVER;
      }
      return parsed.data;
    })
    .optional(),
  device: z
    .string()
    .default('desktop')
    .transform((value, ctx) => {
      const v = value.trim().toLowerCase();
      if (!(SEARCH_DEVICES as readonly string[]).includes(v)) {
        ctx.addIssue({ code: 'custom', message: `device must be one of ${SEARCH_DEVICES.join(', ')}` });
        return z.NEVER;
      }
      return v as DeviceKind;
    }),
  ai_answer: flag(true),
  questions_answers: flag(true),
  related_queries: flag(true),
  sidebar: flag(true),
  direct_answer: flag(true),
  raw_html: flag(false),
  enhanced_html: flag(false),
  page_text: flag(false),
  markdown: flag(false),
  auto_crawling: flag(false),
  /** Results per page (sample requests of the contract send it); passed to engines that take it (Bing `count`). */
  count: z
    .number({ error: `count must be an integer from 1 to ${MAX_SEARCH_COUNT}` })
    .int(`count must be an integer from 1 to ${MAX_SEARCH_COUNT}`)
    .min(1, `count must be an integer from 1 to ${MAX_SEARCH_COUNT}`)
    .max(MAX_SEARCH_COUNT, `count must be an integer from 1 to ${MAX_SEARCH_COUNT}`)
    .optional(),
  /** Chunks of each crawled result, ranked against `query` (auto_crawling only). */
  ...chunkSizeFields,
});

/** The parameters; `chunks_per_page` or `max_tokens` asks for each crawled result's chunks about the query. */
export const searchParamsSchema = searchFields.transform((params, ctx) => {
  const { chunks_per_page, max_tokens, ...rest } = params;
  const size = givenSize(params);
  if (size && !params.auto_crawling) {
    ctx.addIssue({ code: 'custom', path: [size], message: `${size} needs auto_crawling=true (chunks come from the crawled results)` });
    return z.NEVER;
  }
  const chunks: ChunkSelection | undefined = size ? chunkSelection(params.query, { chunks_per_page, max_tokens }) : undefined;
  return { ...rest, chunks };
});

export type SearchParams = z.output<typeof searchParamsSchema>;

/**
 * Content in the requested formats. On a page object: the search engine's result page itself. On a result (with
 * `auto_crawling=true`): the crawled result page. Keys follow §2.1 (`enhanced_html`, `page_markdown`) and, for the
 * formats the contract leaves open, the `/crawl` names (`raw_html`, `page_text`).
 */
export interface SearchPageContent {
  raw_html?: string;
  enhanced_html?: string;
  page_markdown?: string;
  page_text?: string;
}

/** One result (§2.1), plus what auto-crawling adds: its content, metadata and HTTP status, or why it has none. */
export interface SearchResultItem {
  title: string;
  link: string;
  date: string | null;
  snippet: string;
  source: string;
  page_content?: SearchPageContent;
  metadata?: PageMetadata;
  status_code?: number;
  /** With chunks_per_page or max_tokens: the crawled result's passages most relevant to the query, best first. */
  chunks?: ResultChunk[];
  /** Why this result's crawl failed or was cut off (`CODE: message`); the search itself still succeeds. */
  error?: string;
}

/** One page of `/search` (§2.1): the page object with the toggled-off blocks removed, and `page_content` when asked. */
export type SearchResponsePage = Omit<SearchPage, 'search_results' | 'related_queries'> & {
  search_results: SearchResultItem[];
  related_queries?: string[];
  page_content?: SearchPageContent;
};

export interface SearchResponse {
  query: string;
  pages_fetched: number;
  pages: Record<string, SearchResponsePage>;
  credits: number;
  /** Trawl's addition: a page after the first that failed (blocked, unreachable), keyed like `pages`; absent when none did. */
  page_errors?: Record<string, string>;
  /** Trawl's addition, with `geolocation`: the country picked (`random`) and whether a proxy carried the requests. */
  egress?: Egress;
  /** With chunks asked for: tokens in every returned chunk, and the encoding they are counted in. */
  tokens?: number;
  token_encoding?: typeof TOKEN_ENCODING;
}
