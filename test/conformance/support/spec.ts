/**
 * The specification's rows, transcribed: each endpoint's parameters (§4: name, type, default, the values it allows)
 * and each response's fields (§2: name, type, presence), and the costs (§8). The conformance specs are driven from
 * these tables; `spec-rows.spec.ts` checks them against the specification text itself when it is at hand, so a
 * change of the specification shows up here first.
 */
import { always, maybe, never, type Shape } from './shape.js';

export type ParamType = 'string' | 'integer' | 'boolean';

export interface ParamRow {
  name: string;
  type: ParamType;
  required: boolean;
  /** The documented default, as the spec writes it (absent: "-"). */
  default?: string;
  /** Every value the spec allows, or examples it names (`e.g.`). */
  values?: readonly string[];
}

const p = (name: string, type: ParamType, required: boolean, fallback?: string, values?: readonly string[]): ParamRow => ({
  name, type, required, ...(fallback !== undefined ? { default: fallback } : {}), ...(values ? { values } : {}),
});

/** §4.1 `GET /search`. */
export const SEARCH_PARAMS: readonly ParamRow[] = [
  p('query', 'string', true),
  p('max_pages', 'integer', false, '1', ['1', '2']),
  p('setLang', 'string', false, undefined, ['en', 'es', 'fr', 'de']),
  p('cc', 'string', false, undefined, ['US', 'GB', 'DE']),
  p('geolocation', 'string', false, undefined, ['random']),
  p('device', 'string', false, 'desktop', ['desktop', 'mobile', 'tablet']),
  p('ai_answer', 'boolean', false, 'true'),
  p('questions_answers', 'boolean', false, 'true'),
  p('related_queries', 'boolean', false, 'true'),
  p('sidebar', 'boolean', false, 'true'),
  p('direct_answer', 'boolean', false, 'true'),
  p('raw_html', 'boolean', false, 'false'),
  p('enhanced_html', 'boolean', false, 'false'),
  p('page_text', 'boolean', false, 'false'),
  p('markdown', 'boolean', false, 'false'),
  p('auto_crawling', 'boolean', false, 'false'),
];

/** §4.2 `GET /serp-search`. */
export const SERP_SEARCH_PARAMS: readonly ParamRow[] = [
  p('q', 'string', true),
  p('gl', 'string', false, 'us'),
  p('hl', 'string', false, 'en'),
  p('tbs', 'string', false, undefined, ['qdr:h', 'qdr:d', 'qdr:w', 'qdr:m', 'qdr:y']),
  p('page', 'integer', false, '1'),
  p('num', 'integer', false, '10', ['1', '100']),
  p('type', 'string', false, 'search', ['search', 'news', 'images', 'places', 'shopping']),
];

/** §4.3 `GET /serp-maps` (no defaults are written). */
export const SERP_MAPS_PARAMS: readonly ParamRow[] = [
  p('q', 'string', true),
  p('hl', 'string', false),
  p('ll', 'string', false),
  p('placeId', 'string', false),
  p('cid', 'string', false),
];

/** §4.3 "Parameter combinations", in the spec's order. */
export const SERP_MAPS_COMBINATIONS: readonly (readonly string[])[] = [
  ['q'], ['q', 'hl'], ['q', 'll'], ['q', 'll', 'hl'], ['q', 'placeId'], ['q', 'placeId', 'hl'], ['q', 'cid'], ['q', 'cid', 'hl'],
];

/** §4.4 `GET /crawl`. */
export const CRAWL_PARAMS: readonly ParamRow[] = [
  p('urls', 'string', true),
  p('render_js', 'boolean', false, 'false'),
  p('geolocation', 'string', false),
  p('raw_html', 'boolean', false, 'false'),
  p('enhanced_html', 'boolean', false, 'true'),
  p('page_text', 'boolean', false, 'false'),
  p('markdown', 'boolean', false, 'true'),
  p('screenshot', 'boolean', false, 'false'),
  p('screenshot_full_page', 'boolean', false, 'false'),
];

/** §4.5 `GET /headful-browser`. */
export const HEADFUL_PARAMS: readonly ParamRow[] = [
  p('urls', 'string', true),
  p('country', 'string', false, 'us', ['us', 'gb', 'de', 'fr', 'jp', 'in', 'br', 'ca', 'au']),
  p('output_format', 'string', false, 'markdown', ['markdown', 'enhanced_html', 'raw_html', 'page_text']),
  p('screenshot', 'boolean', false, 'false'),
];

/** §8 credit costs. */
export const COST = { searchPage: 10, serpSearch: 10, serpMaps: 30, crawlHttp: 1, crawlRender: 10, headful: 50, failed: 0 } as const;

/** §2.1 */
export const SEARCH_RESPONSE: Shape = { query: always('string'), pages_fetched: always('integer'), pages: always('object'), credits: always('integer') };
export const SEARCH_PAGE: Shape = {
  total_results: always('string'), search_results: always('array'), related_queries: maybe('array'), page_content: maybe('object'),
};
export const SEARCH_RESULT: Shape = {
  title: always('string'), link: always('string'), date: always('string|null'), snippet: always('string'), source: always('string'),
};
export const PAGE_CONTENT: Shape = { enhanced_html: maybe('string'), page_markdown: maybe('string') };

/** §2.2 (the response example has no `credits`). */
export const SERP_SEARCH_RESPONSE: Shape = {
  parameters: always('object'), serp_search_results: always('array'), credits: never('integer'),
  knowledgeGraph: maybe('object'), peopleAlsoAsk: maybe('array'), relatedSearches: maybe('array'), answerBox: maybe('object'),
};
export const SERP_SEARCH_PARAMETERS: Shape = { q: always('string'), gl: always('string'), hl: always('string'), num: always('integer'), page: always('integer') };
export const ORGANIC_RESULT: Shape = { title: always('string'), link: always('string'), snippet: always('string'), position: always('integer') };
export const KNOWLEDGE_GRAPH: Shape = { title: always('string'), type: always('string'), description: always('string'), attributes: always('object') };
export const PEOPLE_ALSO_ASK: Shape = { question: always('string'), snippet: always('string'), link: always('string') };
export const RELATED_SEARCH: Shape = { query: always('string') };
export const ANSWER_BOX: Shape = { answer: always('string'), snippet: always('string') };

/** §2.3 */
export const SERP_MAPS_RESPONSE: Shape = { parameters: always('object'), serp_maps_results: always('array'), credits: always('integer') };
export const PLACE: Shape = {
  position: always('integer'), title: always('string'), address: maybe('string'), rating: maybe('number'), ratingCount: maybe('integer'),
  phoneNumber: maybe('string'), website: maybe('string'), type: maybe('string'), types: maybe('array'), priceLevel: maybe('string'),
  placeId: maybe('string'), cid: maybe('string'), latitude: maybe('number'), longitude: maybe('number'), openingHours: maybe('object'),
  thumbnailUrl: maybe('string'),
};

/** §2.4 */
export const CRAWL_RESPONSE: Shape = { results: always('array'), credits: always('integer'), successful_pages: always('integer') };
/** A successful result with the default formats (enhanced_html=true, markdown=true). */
export const CRAWL_RESULT_DEFAULT: Shape = {
  url: always('string'), status_code: always('integer'), enhanced_html: always('string'), markdown: always('string'),
  raw_html: never(), page_text: never(), screenshot: never(), error: never(),
};
export const CRAWL_RESULT_FAILED: Shape = { url: always('string'), error: always('string'), markdown: never(), enhanced_html: never() };

/** §2.5 */
export const HEADFUL_RESPONSE: Shape = {
  status: always('string'), data: always('array'), credits_used: always('integer'), credits_remaining: always('integer'),
};
export const HEADFUL_ITEM: Shape = { url: always('string'), blocked: always('boolean'), screenshot: maybe('string') };

/** Which output-format field each value of `output_format` fills (§2.5). */
export const HEADFUL_FORMAT_FIELDS = ['markdown', 'enhanced_html', 'raw_html', 'page_text'] as const;
