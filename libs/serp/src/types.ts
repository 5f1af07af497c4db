/**
 * Shapes shared by every search provider: the parameters of one result page the worker hands in, the upstream request
 * a provider builds, the verdict a detector gives on a page, and what a provider makes of a page for `/serp-search`
 * (§2.2) and `/search` (§2.1). The response shapes themselves live in libs/contracts (they cross the queue); field
 * names of the enriched blocks and the vertical items follow Serper's public shapes so clients can switch.
 */
import type { SearchPage, SearchPagination, SearchProviderName, SerpSearchPayload, SerpSearchResponse, SerpType as ContractSerpType, WebSearchPayload } from '#contracts';

export type SerpType = ContractSerpType;

/** One `/serp-search` result page: the parameters the gateway puts in the `serp.search` job. */
export type SerpPageParams = SerpSearchPayload['params'];

/** One `/search` result page (Bing, DuckDuckGo, SearXNG, Google): the parameters of the `serp.web` job. */
export type SearchPageParams = Omit<WebSearchPayload['params'], 'device'> & Partial<Pick<WebSearchPayload['params'], 'device'>>;

/** The request for one upstream page (which engine fetches it is the contracts' `searchEngineNeeds`). */
export interface UpstreamRequest {
  url: string;
  headers: Record<string, string>;
  /** The provider checks TLS fingerprints (JA3/JA4): fetch with a browser's handshake, not Node's. */
  browserTls?: boolean;
  /** Default GET. A POST carries `body` (form-encoded, with its content-type in `headers`). */
  method?: 'GET' | 'POST';
  body?: string;
}

export type BlockReason = 'captcha' | 'consent' | 'unusual_traffic' | 'rate_limited' | 'unknown';

export type SerpVerdict = { kind: 'ok' } | { kind: 'no_results' } | { kind: 'blocked'; reason: BlockReason };

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
  SearchPagination,
} from '#contracts';

/** What a provider makes of one `/search` result page: the verdict, the page object when there are results, and where it sits. */
export interface SearchPageParse {
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

/**
 * A search provider (Google, Bing, DuckDuckGo, SearXNG): builds the upstream request for a result page and parses the
 * page it gets back. `/serp-search` needs the `Serp` pair (a Google-shaped result), `/search` the `SearchPage` pair.
 * Parsers are pure and never throw.
 */
export interface SearchProvider {
  name: SearchProviderName;
  buildSerpRequest?(params: SerpPageParams): UpstreamRequest;
  parseSerp?(body: string, params: SerpPageParams): { verdict: SerpVerdict; result?: SerpSearchResponse };
  buildSearchPageRequest?(params: SearchPageParams): UpstreamRequest;
  parseSearchPage?(body: string, params: SearchPageParams, meta?: UpstreamResponseMeta): SearchPageParse;
}
