/**
 * What a crawl stores of a page: the formats it asked for (as the worker returned them), the metadata, the links
 * (always: discovery after a crash reads them back; answers leave them out when the crawl did not ask for them), what
 * its actions produced (scrapes and script returns), all within CRAWL_PAGE_MAX_BYTES — over it, the scrape actions'
 * HTML is dropped first, then the largest formats keep their first bytes, and the page is marked `truncated`.
 */
import { presentContent, type CrawlPageSuccess, type OutputFormat } from '#contracts';

/** Which format gives way first when a page is over the bound. */
const CUT_ORDER: OutputFormat[] = ['raw_html', 'enhanced_html', 'markdown', 'page_text'];

export function storedContent(page: CrawlPageSuccess, maxBytes: number): { value: Record<string, unknown>; bytes: number } {
  const actions = page.actions ? { scrapes: page.actions.scrapes, javascriptReturns: page.actions.javascriptReturns } : undefined;
  const value: Record<string, unknown> = {
    ...presentContent(page),
    ...(page.metadata ? { metadata: page.metadata } : {}),
    links: (page.links ?? []).map((l) => l.url),
    ...(actions ? { actions } : {}),
  };
  let bytes = Buffer.byteLength(JSON.stringify(value));
  if (bytes <= maxBytes) return { value, bytes };
  // The scrape actions' HTML gives way before the formats: the page's own formats are what the crawl asked for.
  if (actions?.scrapes.length) {
    actions.scrapes = actions.scrapes.map((scrape) => ({ url: scrape.url, html: '' }));
    bytes = Buffer.byteLength(JSON.stringify(value));
  }
  for (const format of CUT_ORDER) {
    const text = value[format];
    if (typeof text !== 'string' || bytes <= maxBytes) continue;
    const over = bytes - maxBytes;
    const keep = Math.max(0, Buffer.byteLength(text) - over - 64);
    // Cut on a character boundary: decode the kept bytes and drop a split last character.
    value[format] = Buffer.from(text).subarray(0, keep).toString('utf8').replace(/\uFFFD$/, '');
    bytes = Buffer.byteLength(JSON.stringify(value));
  }
  if (bytes > maxBytes) {
    value.links = (value.links as string[]).slice(0, 1000);
    bytes = Buffer.byteLength(JSON.stringify(value));
  }
  value.truncated = true;
  return { value, bytes };
}
