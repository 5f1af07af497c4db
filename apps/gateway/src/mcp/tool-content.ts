/** The readable blocks of MCP tool results: what an assistant reads (Markdown, not a JSON dump). */
import type { ContentBlock } from '@modelcontextprotocol/sdk/types.js';
import type { CrawlResponse, SerpSearchBody } from '#contracts';

export function crawlContent(body: CrawlResponse): ContentBlock[] {
  const blocks: ContentBlock[] = [];
  for (const result of body.results) {
    const head = `# ${result.metadata?.title ?? result.url}\n\nURL: ${result.url}`;
    if (result.error !== undefined) {
      blocks.push({ type: 'text', text: `${head}\nFailed: ${result.error}` });
      continue;
    }
    const text = result.markdown ?? result.page_text ?? result.enhanced_html ?? result.raw_html ?? '';
    blocks.push({ type: 'text', text: `${head}\nHTTP status: ${result.status_code}\n\n${text}`.trimEnd() });
    if (result.screenshot) blocks.push({ type: 'image', data: result.screenshot, mimeType: 'image/png' });
  }
  blocks.push({ type: 'text', text: `${body.successful_pages} of ${body.results.length} URLs crawled; ${body.credits} credits charged.` });
  return blocks;
}

interface Titled {
  title?: string;
  link?: string;
  snippet?: string;
  position?: number;
  date?: string;
  source?: string;
  address?: string;
  price?: string;
}

export function serpSearchContent(body: SerpSearchBody): ContentBlock[] {
  const p = body.parameters;
  const lines = [`Results for "${p.q}" (${p.type}, gl=${p.gl}, hl=${p.hl}, page ${p.page}):`, ''];
  const answer = body.answerBox as { answer?: string; snippet?: string } | undefined;
  if (answer?.answer || answer?.snippet) lines.push(`Answer: ${answer.answer ?? answer.snippet}`, '');
  const graph = body.knowledgeGraph as { title?: string; type?: string; description?: string } | undefined;
  if (graph?.title) lines.push(`Knowledge graph: ${graph.title}${graph.type ? ` (${graph.type})` : ''}${graph.description ? ` — ${graph.description}` : ''}`, '');
  const results = body.serp_search_results as Titled[];
  if (results.length === 0) lines.push('No results.');
  for (const r of results) {
    const extra = [r.source, r.date, r.address, r.price].filter(Boolean).join(' · ');
    lines.push(`${r.position ?? '-'}. [${r.title ?? r.link ?? ''}](${r.link ?? ''})${extra ? ` — ${extra}` : ''}`);
    if (r.snippet) lines.push(`   ${r.snippet}`);
  }
  const questions = (body.peopleAlsoAsk as Array<{ question: string }> | undefined) ?? [];
  if (questions.length) lines.push('', 'People also ask:', ...questions.map((q) => `- ${q.question}`));
  const related = (body.relatedSearches as Array<{ query: string }> | undefined) ?? [];
  if (related.length) lines.push('', 'Related searches:', ...related.map((r) => `- ${r.query}`));
  return [{ type: 'text', text: lines.join('\n') }];
}
