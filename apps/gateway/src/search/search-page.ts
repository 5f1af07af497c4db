/** A worker's `/search` page object → the response's page: toggled-off blocks removed, `page_content` in §2.1's keys. */
import { presentContent, type PageContent, type SearchResponsePage, type SearchPageContent, type SearchParams, type WebSearchJobResult } from '#contracts';

type Toggles = Pick<SearchParams, 'ai_answer' | 'questions_answers' | 'related_queries' | 'sidebar' | 'direct_answer'>;

export function shapePage(result: Extract<WebSearchJobResult, { ok: true }>, toggles: Toggles): SearchResponsePage {
  const page = result.page;
  const body: SearchResponsePage = { total_results: page.total_results, search_results: page.search_results.map((r) => ({ ...r })) };
  if (toggles.related_queries) body.related_queries = page.related_queries;
  if (toggles.ai_answer && page.ai_answer) body.ai_answer = page.ai_answer;
  if (toggles.questions_answers && page.questions_answers) body.questions_answers = page.questions_answers;
  if (toggles.sidebar && page.sidebar) body.sidebar = page.sidebar;
  if (toggles.direct_answer && page.direct_answer) body.direct_answer = page.direct_answer;
  if (result.content) body.page_content = pageContent(result.content);
  return body;
}

/** Formatted content (`/crawl` names) → `page_content` keys: `markdown` becomes `page_markdown`, the rest keep their names. */
export function pageContent(c: PageContent): SearchPageContent {
  const { markdown, ...rest } = presentContent(c);
  return markdown === undefined ? rest : { ...rest, page_markdown: markdown };
}
