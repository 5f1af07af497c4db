/**
 * Shapes shared by every search-engine adapter: the queries the gateway hands in, the upstream request an adapter
 * builds, the verdict a detector gives on a page, and the two response bodies (`/serp-search` §2.2, `/search` §2.1).
 * Field names of the enriched blocks and the vertical items follow Serper's public shapes so clients can switch.
 */
import type { DeviceKind, SerpSearchPayload } from '#contracts';

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

// ---- `/search` page object and page report (issue 11). Interfaces named above are extended by declaration merging,
// so the blocks above stay untouched. ----

/** A people-also-ask item of a `/search` page: the question, and the answer's text and source when the page shows them. */
export interface QuestionAnswer {
  question: string;
  snippet?: string;
  link?: string;
}

/** Answer box, instant answer, calculator, unit conversion, weather, dictionary card. */
export interface DirectAnswer {
  answer: string;
  snippet?: string;
  /** Site name or domain the answer is quoted from. */
  source?: string;
  link?: string;
}

/** A generative answer (Bing Copilot, Google AI Overview), with the pages it cites. */
export interface AiAnswer {
  answer: string;
  sources: Array<{ title: string; link: string }>;
}

export interface LocalResult {
  title: string;
  address?: string;
  phone?: string;
  rating?: string;
  link?: string;
}

/** Right-rail knowledge panel and/or local results. */
export interface Sidebar {
  title: string;
  /** Category or subtitle ("Web search engine", "Drink"). */
  type: string;
  description: string;
  attributes: Record<string, string>;
  link?: string;
  /** Where the description comes from (e.g. "Wikipedia"). */
  source?: string;
  local_results?: LocalResult[];
}

/**
 * One page of the `/search` body (§2.1): what the endpoint puts under `pages["N"]`. The four enrichment blocks are
 * present only when the page shows them (and the gateway drops them when their toggle is false).
 */
export interface SearchPage {
  /** The result count as the engine prints it ("About 1,230,000 results"), `""` when the page shows none. */
  total_results: string;
  search_results: WebSearchResult[];
  related_queries: string[];
  ai_answer?: AiAnswer;
  questions_answers?: QuestionAnswer[];
  sidebar?: Sidebar;
  direct_answer?: DirectAnswer;
}

/** What a page says about where it sits in the result list; for the gateway's pagination and repeat checks. */
export interface SearchPagination {
  /** 0-based offset of the page's first result as the page itself reports it; null when the page does not say. */
  offset: number | null;
  /** The page links or posts to a next page. */
  hasNext: boolean;
  /** Engine parameters for the next page taken from the page (DuckDuckGo's next-page form: s, dc, vqd, ...). */
  nextParams?: Record<string, string>;
}

/** A parsed `/search` page: the verdict, the page object when there are results, and the pagination facts. */
export interface ParsedSearchPage {
  verdict: SerpVerdict;
  page?: SearchPage;
  pagination: SearchPagination;
}

/** What the fetcher knows about the response besides its body. */
export interface UpstreamResponseMeta {
  status?: number;
  /** URL after redirects (Bing redirects challenged clients to `/turing/captcha/challenge`). */
  finalUrl?: string;
}

export interface WebQuery {
  /** Results per page, where the engine takes it (Bing `count`, 1..50, a suggestion); ignored elsewhere. */
  count?: number;
  /** `SearchPagination.nextParams` of the previous page (DuckDuckGo needs its `vqd` token for page 2+). */
  nextParams?: Record<string, string>;
}

export interface UpstreamRequest {
  /** Default GET. A POST carries `body` (form-encoded, with its content-type in `headers`). */
  method?: 'GET' | 'POST';
  body?: string;
}

export interface SerpEngine {
  /** The `/search` page object, verdict and pagination facts for one result page. Pure; never throws. */
  parseSearchPage?(body: string, q: WebQuery, meta?: UpstreamResponseMeta): ParsedSearchPage;
}
