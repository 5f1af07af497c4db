/** The readable blocks of MCP tool results: what an assistant reads (Markdown, not a JSON dump). */
import type { ContentBlock } from '@modelcontextprotocol/sdk/types.js';
import type { CrawlResponse, HeadfulBrowserResponse, ResultChunk, SearchResponse, SerpMapsResponse, SerpSearchBody } from '#contracts';

/** A page's chunks as an assistant reads them: each under its heading path, with its score and size. */
function chunksText(chunks: ResultChunk[]): string {
  if (chunks.length === 0) return 'No passage of this page fits the query within the token budget.';
  return chunks
    .map((c, i) => `#### Passage ${i + 1}${c.headings.length ? ` — ${c.headings.join(' › ')}` : ''} (score ${c.score}, ${c.tokens} tokens)\n\n${c.text}`)
    .join('\n\n');
}

export function crawlContent(body: CrawlResponse): ContentBlock[] {
  const blocks: ContentBlock[] = [];
  for (const result of body.results) {
    const head = `# ${result.metadata?.title ?? result.url}\n\nURL: ${result.url}`;
    if (result.error !== undefined) {
      blocks.push({ type: 'text', text: `${head}\nFailed: ${result.error}` });
      continue;
    }
    const text = result.markdown ?? result.page_text ?? result.enhanced_html ?? result.raw_html ?? '';
    const passages = result.chunks ? `\n\n### Passages relevant to the query\n\n${chunksText(result.chunks)}` : '';
    const llm = [
      result.summary !== undefined ? `### Summary\n\n${result.summary}` : '',
      result.summary_error !== undefined ? `Summary failed: ${result.summary_error}` : '',
      result.json !== undefined ? `### Extracted JSON\n\n\`\`\`json\n${JSON.stringify(result.json, null, 2)}\n\`\`\`` : '',
      result.json_error !== undefined ? `Extraction failed: ${result.json_error}` : '',
    ].filter(Boolean);
    const extra = llm.length ? `\n\n${llm.join('\n\n')}` : '';
    blocks.push({ type: 'text', text: `${head}\nHTTP status: ${result.status_code}\n\n${text}`.trimEnd() + passages + extra });
    if (result.screenshot) blocks.push({ type: 'image', data: result.screenshot, mimeType: 'image/png' });
  }
  const passages = body.tokens !== undefined ? ` Passages: ${body.tokens} tokens (${body.token_encoding}).` : '';
  const llm = body.llm_usage ? ` LLM: ${body.llm_usage.prompt_tokens} + ${body.llm_usage.completion_tokens} tokens, ${body.llm_usage.credits} of the credits.` : '';
  const tokens = passages + llm;
  blocks.push({ type: 'text', text: `${body.successful_pages} of ${body.results.length} URLs crawled; ${body.credits} credits charged.${tokens}` });
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

export function webSearchContent(body: SearchResponse): ContentBlock[] {
  const lines = [`Web results for "${body.query}" (${body.pages_fetched} page${body.pages_fetched === 1 ? '' : 's'}):`];
  let rank = 0;
  for (const [number, page] of Object.entries(body.pages)) {
    if (page.direct_answer) lines.push('', `Answer: ${page.direct_answer.answer}${page.direct_answer.source ? ` (${page.direct_answer.source})` : ''}`);
    if (page.ai_answer) lines.push('', `AI answer: ${page.ai_answer.answer}`, ...page.ai_answer.sources.map((s) => `- [${s.title}](${s.link})`));
    if (page.sidebar) lines.push('', `Knowledge panel: ${page.sidebar.title}${page.sidebar.type ? ` (${page.sidebar.type})` : ''}${page.sidebar.description ? ` — ${page.sidebar.description}` : ''}`);
    if (Object.keys(body.pages).length > 1) lines.push('', `## Page ${number}`);
    lines.push('');
    if (page.search_results.length === 0) lines.push('No results.');
    for (const result of page.search_results) {
      rank++;
      const extra = [result.source, result.date].filter(Boolean).join(' · ');
      lines.push(`${rank}. [${result.title}](${result.link})${extra ? ` — ${extra}` : ''}`);
      if (result.snippet) lines.push(`   ${result.snippet}`);
      if (result.error !== undefined) lines.push(`   Not crawled: ${result.error}`);
      const content = result.page_content;
      const text = content?.page_markdown ?? content?.page_text ?? content?.enhanced_html ?? content?.raw_html;
      if (text !== undefined) lines.push('', `### Content of ${result.link}${result.status_code !== undefined ? ` (HTTP ${result.status_code})` : ''}`, '', text.trim(), '');
      if (result.chunks) lines.push('', `### Passages of ${result.link} relevant to the query`, '', chunksText(result.chunks), '');
    }
    const pageText = page.page_content?.page_markdown ?? page.page_content?.page_text ?? page.page_content?.enhanced_html ?? page.page_content?.raw_html;
    // The result page itself only when the results carry no content of their own (no auto-crawling).
    const crawled = page.search_results.some((result) => result.page_content !== undefined);
    if (pageText !== undefined && !crawled) lines.push('', '### The result page itself', '', pageText.trim());
    if (page.questions_answers?.length) lines.push('', 'People also ask:', ...page.questions_answers.map((q) => `- ${q.question}${q.snippet ? ` — ${q.snippet}` : ''}`));
    if (page.related_queries?.length) lines.push('', 'Related searches:', ...page.related_queries.map((q) => `- ${q}`));
  }
  for (const [number, error] of Object.entries(body.page_errors ?? {})) lines.push('', `Page ${number} failed: ${error}`);
  lines.push('', `${body.credits} credits charged.${body.tokens !== undefined ? ` Passages: ${body.tokens} tokens (${body.token_encoding}).` : ''}`);
  return [{ type: 'text', text: lines.join('\n') }];
}

export function serpMapsContent(body: SerpMapsResponse): ContentBlock[] {
  const p = body.parameters;
  const lookup = p.placeId ?? p.cid;
  const lines = [lookup ? `Place ${lookup} ("${p.q}"):` : `Places for "${p.q}"${p.ll ? ` near ${p.ll}` : ''}:`, ''];
  if (body.serp_maps_results.length === 0) lines.push('No places found.');
  for (const place of body.serp_maps_results) {
    const rating = place.rating !== undefined ? ` — ${place.rating}★${place.ratingCount !== undefined ? ` (${place.ratingCount} reviews)` : ''}` : '';
    lines.push(`${place.position}. **${place.title}**${place.type ? ` (${place.type})` : ''}${rating}`);
    const facts: Array<[string, string | undefined]> = [
      ['Address', place.address],
      ['Phone', place.phoneNumber],
      ['Website', place.website],
      ['Price', place.priceLevel],
      ['Coordinates', place.latitude !== undefined && place.longitude !== undefined ? `${place.latitude}, ${place.longitude}` : undefined],
      ['Hours', place.openingHours ? Object.entries(place.openingHours).map(([day, hours]) => `${day} ${hours}`).join('; ') : undefined],
      ['placeId', place.placeId],
      ['cid', place.cid],
    ];
    for (const [label, value] of facts) if (value) lines.push(`   ${label}: ${value}`);
  }
  lines.push('', `${body.credits} credits charged.`);
  return [{ type: 'text', text: lines.join('\n') }];
}

export function headfulBrowserContent(body: HeadfulBrowserResponse): ContentBlock[] {
  const blocks: ContentBlock[] = [];
  for (const item of body.data) {
    const head = `URL: ${item.url}`;
    if (item.error !== undefined) {
      blocks.push({ type: 'text', text: `${head}\n${item.blocked ? 'Blocked' : 'Failed'}: ${item.error}` });
      continue;
    }
    const text = item.markdown ?? item.page_text ?? item.enhanced_html ?? item.raw_html ?? '';
    const direct = item.egress.via === 'direct' ? '\nLoaded directly (no residential proxy serves the default country)' : '';
    blocks.push({ type: 'text', text: `${head}${direct}${item.screenshot ? `\nScreenshot: ${item.screenshot}` : ''}\n\n${text}`.trimEnd() });
  }
  blocks.push({ type: 'text', text: `${body.credits_used} credits charged; ${body.credits_remaining} remaining.` });
  return blocks;
}
