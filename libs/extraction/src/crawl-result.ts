/** Runs the format pipeline on a fetched or rendered page and shapes the `crawl.page` job result (asked-for formats only). */
import { ErrorCode, TrawlError, type CrawlPagePayload, type CrawlPageSuccess } from '#contracts';
import { MAX_NESTING_DEPTH, nestingDepth } from './nesting-depth.js';
import type { ExtractionPool } from './pool.js';

export interface FetchedPage {
  finalUrl: string;
  status: number;
  html: string;
  screenshot?: string;
}

/** Throws UNSUPPORTED_CONTENT (permanent, so never charged) for a page nested too deeply to extract. */
export async function toCrawlPageSuccess(payload: CrawlPagePayload, page: FetchedPage, extraction: ExtractionPool): Promise<CrawlPageSuccess> {
  if (nestingDepth(page.html, MAX_NESTING_DEPTH) > MAX_NESTING_DEPTH) {
    throw new TrawlError(
      ErrorCode.UNSUPPORTED_CONTENT,
      `The page nests elements more than ${MAX_NESTING_DEPTH} levels deep; its content cannot be extracted`,
      'permanent',
    );
  }
  const formatted = await extraction.format(page.html, { url: page.finalUrl, formats: payload.formats });
  return {
    ok: true,
    url: payload.url,
    finalUrl: page.finalUrl,
    status_code: page.status,
    ...(payload.formats.raw_html ? { raw_html: page.html } : {}),
    ...(formatted.enhanced_html !== undefined ? { enhanced_html: formatted.enhanced_html } : {}),
    ...(formatted.markdown !== undefined ? { markdown: formatted.markdown } : {}),
    ...(formatted.page_text !== undefined ? { page_text: formatted.page_text } : {}),
    ...(page.screenshot !== undefined ? { screenshot: page.screenshot } : {}),
    metadata: formatted.metadata,
  };
}
