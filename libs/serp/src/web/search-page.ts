/**
 * The `/search` page object (§2.1 plus the enrichment blocks `ai_answer`, `questions_answers`, `sidebar`,
 * `direct_answer`) shared by every provider: small builders the parsers use, and the mapping from a Google
 * `/serp-search` result.
 */
import type {
  DirectAnswer, OrganicResult, QuestionAnswer, SearchPage, SearchPagination, SerpSearchResponse, Sidebar, WebSearchResult,
} from '../types.js';
import { hostOf } from '../util/urls.js';

/** `source` of a result: the site name the engine prints, else the link's domain without `www.`. */
export function sourceOf(link: string, siteName?: string): string {
  const name = siteName?.trim();
  return name || hostOf(link).replace(/^www\./, '');
}

export function toSearchResult(r: Pick<OrganicResult, 'title' | 'link' | 'snippet' | 'date'> & { source?: string }): WebSearchResult {
  return { title: r.title, link: r.link, date: r.date ?? null, snippet: r.snippet, source: sourceOf(r.link, r.source) };
}

/** Drops duplicates and blanks, keeping the first spelling. */
export function uniqueTexts(items: string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const raw of items) {
    const t = raw.replace(/\s+/g, ' ').trim();
    const k = t.toLowerCase();
    if (!t || seen.has(k)) continue;
    seen.add(k);
    out.push(t);
  }
  return out;
}

export interface SearchPageParts {
  total_results?: string;
  search_results: WebSearchResult[];
  related_queries?: string[];
  ai_answer?: SearchPage['ai_answer'] | null;
  questions_answers?: QuestionAnswer[] | null;
  sidebar?: Sidebar | null;
  direct_answer?: DirectAnswer | null;
}

/** A page object with the enrichment keys present only when they carry something. */
export function buildSearchPage(parts: SearchPageParts): SearchPage {
  const page: SearchPage = {
    total_results: parts.total_results ?? '',
    search_results: parts.search_results,
    related_queries: uniqueTexts(parts.related_queries ?? []),
  };
  if (parts.ai_answer?.answer) page.ai_answer = parts.ai_answer;
  if (parts.questions_answers?.length) page.questions_answers = parts.questions_answers;
  if (parts.sidebar && (parts.sidebar.title || parts.sidebar.local_results?.length)) page.sidebar = parts.sidebar;
  if (parts.direct_answer?.answer) page.direct_answer = parts.direct_answer;
  return page;
}

export const NO_PAGINATION: SearchPagination = { offset: null, hasNext: false };

/** `/search` page from a Google (or SearXNG) `/serp-search` result. */
export function searchPageFromSerp(result: SerpSearchResponse): SearchPage {
  const organic = result.serp_search_results.map((r) => {
    const o = r as { title: string; link: string; snippet?: string; date?: string };
    return toSearchResult({ title: o.title, link: o.link, snippet: o.snippet ?? '', date: o.date });
  });
  const kg = result.knowledgeGraph;
  const places = result.places?.map((p) => ({
    title: p.title, ...(p.address ? { address: p.address } : {}), ...(p.rating !== undefined ? { rating: String(p.rating) } : {}),
  }));
  let sidebar: Sidebar | null = null;
  if (kg) {
    sidebar = { title: kg.title, type: kg.type, description: kg.description, attributes: kg.attributes };
    if (kg.website ?? kg.descriptionLink) sidebar.link = kg.website ?? kg.descriptionLink;
    if (kg.descriptionSource) sidebar.source = kg.descriptionSource;
  }
  if (places?.length) sidebar = { ...(sidebar ?? { title: '', type: 'local_results', description: '', attributes: {} }), local_results: places };
  const box = result.answerBox;
  const answer = box?.answer || box?.snippet || '';
  const direct: DirectAnswer | null = answer ? { answer } : null;
  if (direct && box?.snippet && box.snippet !== answer) direct.snippet = box.snippet;
  if (direct && box?.link) Object.assign(direct, { source: sourceOf(box.link), link: box.link });
  return buildSearchPage({
    total_results: result.searchInformation?.totalResults !== undefined ? String(result.searchInformation.totalResults) : '',
    search_results: organic,
    related_queries: (result.relatedSearches ?? []).map((r) => r.query),
    questions_answers: result.peopleAlsoAsk?.map((q) => ({
      question: q.question, ...(q.snippet ? { snippet: q.snippet } : {}), ...(q.link ? { link: q.link } : {}),
    })),
    sidebar,
    direct_answer: direct,
  });
}
