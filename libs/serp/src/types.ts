/**
 * Shapes shared by every search-engine adapter: the queries the gateway hands in, the upstream request an adapter
 * builds, the verdict a detector gives on a page, and the two response bodies (`/serp-search` §2.2, `/search` §2.1).
 * Field names of the enriched blocks and the vertical items follow Serper's public shapes so clients can switch.
 */
import type { DeviceKind, SerpSearchPayload } from '../../contracts/src/index.js';

export type SerpType = 'search' | 'news' | 'images' | 'places' | 'shopping';

/** A `/serp-search` query: the same shape the gateway puts in the `serp.search` job. */
export type SerpQuery = SerpSearchPayload['query'];

/** A `/search` query (Bing, DuckDuckGo, SearXNG, Google). */
export interface WebQuery {
  query: string;
  page: number;
  setLang?: string;
  cc?: string;
  device?: DeviceKind;
}

/** `http` = plain request through worker-http; `render` = a rendered page through worker-render. */
export interface UpstreamRequest {
  url: string;
  headers: Record<string, string>;
  transport: 'http' | 'render';
}

export type BlockReason = 'captcha' | 'consent' | 'unusual_traffic' | 'rate_limited' | 'unknown';

export type SerpVerdict = { kind: 'ok' } | { kind: 'no_results' } | { kind: 'blocked'; reason: BlockReason };

/**
 * Which reader found a page's organic results, for the logs: `fallback` = the generic structural reader supplied
 * some or all of them (a layout the engine-specific reader does not know); `none` = an ordinary page (no block or
 * no-results evidence) on which no organic result was recognised. Absent = the engine's own reader did it all.
 */
export type SerpParser = 'fallback' | 'none';

export interface Sitelink {
  title: string;
  link: string;
}

export interface OrganicResult {
  title: string;
  link: string;
  snippet: string;
  /** 1-based rank among organic results, counted across pages: page p starts at (p-1)*num + 1. */
  position: number;
  date?: string;
  sitelinks?: Sitelink[];
}

export interface KnowledgeGraph {
  title: string;
  type: string;
  description: string;
  attributes: Record<string, string>;
  website?: string;
  imageUrl?: string;
  descriptionSource?: string;
  descriptionLink?: string;
}

export interface PeopleAlsoAskItem {
  question: string;
  snippet: string;
  title: string;
  link: string;
}

export interface RelatedSearch {
  query: string;
}

export interface AnswerBox {
  answer?: string;
  snippet?: string;
  title?: string;
  link?: string;
}

export interface TopStory {
  title: string;
  link: string;
  source: string;
  date: string;
  imageUrl?: string;
}

export interface NewsResult {
  title: string;
  link: string;
  snippet: string;
  date: string;
  source: string;
  imageUrl?: string;
  position: number;
}

export interface ImageResult {
  title: string;
  imageUrl: string;
  imageWidth?: number;
  imageHeight?: number;
  thumbnailUrl?: string;
  source: string;
  domain: string;
  link: string;
  position: number;
}

export interface PlaceResult {
  position: number;
  title: string;
  address?: string;
  latitude?: number;
  longitude?: number;
  rating?: number;
  ratingCount?: number;
  category?: string;
  cid?: string;
}

export interface ShoppingResult {
  title: string;
  source: string;
  link: string;
  price: string;
  delivery?: string;
  imageUrl?: string;
  rating?: number;
  ratingCount?: number;
  offers?: string;
  productId?: string;
  position: number;
}

export type VerticalItem = OrganicResult | NewsResult | ImageResult | PlaceResult | ShoppingResult;

/** The `/serp-search` body (§2.2) without `parameters`; optional blocks appear only when the page has them. */
export interface SerpSearchResponse {
  serp_search_results: VerticalItem[];
  knowledgeGraph?: KnowledgeGraph;
  peopleAlsoAsk?: PeopleAlsoAskItem[];
  relatedSearches?: RelatedSearch[];
  answerBox?: AnswerBox;
  topStories?: TopStory[];
  /** Local pack shown inside a web search. */
  places?: PlaceResult[];
  searchInformation?: { totalResults?: number; timeTaken?: number };
  /** Diagnostic: set when the engine's own reader did not find every organic result (see SerpParser). */
  parser?: SerpParser;
}

export interface WebSearchResult {
  title: string;
  link: string;
  date: string | null;
  snippet: string;
  source: string;
}

/** One page of the `/search` body (§2.1). */
export interface WebSearchPage {
  total_results: string;
  search_results: WebSearchResult[];
  related_queries: string[];
  /** Direct answer / featured snippet, when the engine shows one. */
  answer?: AnswerBox;
  /** Knowledge panel, when the engine shows one. */
  sidebar?: KnowledgeGraph;
  questions_answers?: PeopleAlsoAskItem[];
  /** Diagnostic: set when the engine's own reader did not find every organic result (see SerpParser). */
  parser?: SerpParser;
}

export interface SerpEngine {
  name: 'google' | 'bing' | 'duckduckgo' | 'searxng';
  buildSerpRequest?(q: SerpQuery): UpstreamRequest;
  buildWebRequest?(q: WebQuery): UpstreamRequest;
  parseSerp?(body: string, q: SerpQuery): { verdict: SerpVerdict; result?: SerpSearchResponse };
  parseWeb?(body: string, q: WebQuery): { verdict: SerpVerdict; page?: WebSearchPage };
}
