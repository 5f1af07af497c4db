/** A worker's `/search` page object → the response's page: toggled-off blocks removed, `page_content` in §2.1's keys. */
import type { SearchResponsePage, SearchPageContent, SearchParams, WebSearchJobResult } from '#contracts';

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
export function pageContent(c: { raw_html?: string; enhanced_html?: string; markdown?: string; page_text?: string }): SearchPageContent {
  const out: SearchPageContent = {};
  if (c.raw_html !== undefined) out.raw_html = c.raw_html;
  if (c.enhanced_html !== undefined) out.enhanced_html = c.enhanced_html;
  if (c.markdown !== undefined) out.page_markdown = c.markdown;
  if (c.page_text !== undefined) out.page_text = c.page_text;
  return out;
}
