/**
 * Shapes shared by every search-engine adapter: the queries the gateway hands in, the upstream request an adapter
 * builds, the verdict a detector gives on a page, and the two response bodies (`/serp-search` §2.2, `/search` §2.1).
 * Field names of the enriched blocks and the vertical items follow Serper's public shapes so clients can switch.
 */
import type { DeviceKind, SerpSearchPayload, SerpType as ContractSerpType, SearchEngineName } from '#contracts';
import type { AnswerBox, KnowledgeGraph, PeopleAlsoAskItem, SerpParser, SerpSearchResponse, WebSearchResult, SearchPage } from '#contracts';

export type SerpType = ContractSerpType;

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

/** Response shapes live in libs/contracts (they cross the queue); re-exported for the adapters. */
export type {
  SerpParser,
  Sitelink,
  OrganicResult,
  KnowledgeGraph,
  PeopleAlsoAskItem,
  RelatedSearch,
  AnswerBox,
  TopStory,
  NewsResult,
  ImageResult,
  PlaceResult,
  ShoppingResult,
  VerticalItem,
  SerpSearchResponse,
  WebSearchResult,
  QuestionAnswer,
  DirectAnswer,
  AiAnswer,
  LocalResult,
  Sidebar,
  SearchPage,
} from '#contracts';

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
  name: SearchEngineName;
  buildSerpRequest?(q: SerpQuery): UpstreamRequest;
  buildWebRequest?(q: WebQuery): UpstreamRequest;
  parseSerp?(body: string, q: SerpQuery): { verdict: SerpVerdict; result?: SerpSearchResponse };
  parseWeb?(body: string, q: WebQuery): { verdict: SerpVerdict; page?: WebSearchPage };
}

// ---- `/search` page object and page report (issue 11). Interfaces named above are extended by declaration merging,
// so the blocks above stay untouched. ----

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
  /** The engine checks TLS fingerprints (JA3/JA4): fetch with a browser's handshake, not Node's. */
  browserTls?: boolean;
  /** Default GET. A POST carries `body` (form-encoded, with its content-type in `headers`). */
  method?: 'GET' | 'POST';
  body?: string;
}

export interface SerpEngine {
  /** The `/search` page object, verdict and pagination facts for one result page. Pure; never throws. */
  parseSearchPage?(body: string, q: WebQuery, meta?: UpstreamResponseMeta): ParsedSearchPage;
}
