/**
 * The parsed result pages as they cross the queue and reach the client: the `/serp-search` body without its
 * `parameters` (§2.2; enriched blocks and vertical items in Serper's public shapes) and the `/search` page object
 * (§2.1; what `pages["N"]` holds). libs/serp builds them; the gateway, MCP and the OpenAPI document read them.
 */

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

/**
 * The contract (§2.2): answerBox "carries `answer` and `snippet` (strings)" — both, always. A featured snippet with no
 * short answer of its own answers with its snippet; a direct answer (calculator, conversion, fact) is its own snippet.
 */
export interface AnswerBox {
  answer: string;
  snippet: string;
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
