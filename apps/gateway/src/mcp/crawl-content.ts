/** What an assistant reads of the crawl and map tools (Markdown, not a JSON dump). */
import type { ContentBlock } from '@modelcontextprotocol/sdk/types.js';
import { FINISHED_STATUSES, type CrawlJobCreated, type CrawlJobStatus, type MapResponse } from '#contracts';

/** Links listed in a map tool's text at most (the structured result has them all). */
const MAP_TEXT_LINKS = 1_000;

export function crawlCreatedContent(body: CrawlJobCreated): ContentBlock[] {
  return [
    {
      type: 'text',
      text:
        `Started crawl ${body.id} (${body.status}). Read its pages with crawl_status {"id": "${body.id}"}; ` +
        `each stored page is charged as it is stored. Over HTTP: GET ${body.url}`,
    },
  ];
}

export function crawlStatusContent(body: CrawlJobStatus): ContentBlock[] {
  const c = body.counts;
  const lines = [
    `Crawl ${body.id}${body.url ? ` of ${body.url}` : ''}: ${body.status} — ${c.done} pages stored of ${c.discovered} discovered, ` +
      `${c.failed} failed, ${c.skipped} skipped, ${c.pending} pending; ${body.credits} credits so far.`,
  ];
  if (body.error) lines.push(`Stopped: ${body.error}`);
  for (const page of body.pages) {
    const text = page.markdown ?? page.page_text ?? page.enhanced_html ?? page.raw_html ?? '';
    lines.push('', `## ${page.metadata?.title ?? page.url}`, `URL: ${page.url} (HTTP ${page.status_code}, depth ${page.depth})`, '', text.trim());
  }
  if (body.pages.length === 0) lines.push('', 'No new pages stored yet.');
  const finished = FINISHED_STATUSES.includes(body.status);
  if (body.next_cursor) {
    const next = `crawl_status {"id": "${body.id}", "cursor": "${body.next_cursor}"}`;
    lines.push('', finished ? `More pages: ${next}` : `Still running: call ${next} later for the pages stored since.`);
  } else {
    lines.push('', 'Every stored page has been read.');
  }
  return [{ type: 'text', text: lines.join('\n') }];
}

export function mapContent(body: MapResponse): ContentBlock[] {
  const lines = [`${body.links.length} URL${body.links.length === 1 ? '' : 's'} found; ${body.credits} credits charged.`];
  if (body.warning) lines.push(`Not everything answered: ${body.warning}`);
  lines.push('');
  for (const link of body.links.slice(0, MAP_TEXT_LINKS)) {
    lines.push(`- ${link.title ? `[${link.title}](${link.url})` : link.url}${link.description ? ` — ${link.description}` : ''}`);
  }
  if (body.links.length > MAP_TEXT_LINKS) lines.push(`- … and ${body.links.length - MAP_TEXT_LINKS} more (in the structured result)`);
  return [{ type: 'text', text: lines.join('\n') }];
}
