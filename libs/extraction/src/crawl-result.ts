/** Runs the format pipeline on a fetched or rendered page and shapes the `crawl.page` job result (asked-for formats only). */
import { ErrorCode, TrawlError, type CrawlPagePayload, type CrawlPageSuccess, type FormattedPage } from '#contracts';
import type { ExtractionPool } from './pool.js';

export interface FetchedPage {
  finalUrl: string;
  status: number;
  html: string;
  screenshot?: string;
}

/** A formatted page, or UNSUPPORTED_CONTENT (permanent, so never charged) for a page the pipeline could not extract. */
export function assertExtractable(page: FormattedPage): FormattedPage {
  if (page.unextractable) throw new TrawlError(ErrorCode.UNSUPPORTED_CONTENT, page.unextractable, 'permanent');
  return page;
}

/** Throws UNSUPPORTED_CONTENT (permanent, so never charged) for a page nested too deeply to extract. */
export async function toCrawlPageSuccess(payload: CrawlPagePayload, page: FetchedPage, extraction: ExtractionPool): Promise<CrawlPageSuccess> {
  const formatted = assertExtractable(await extraction.format(page.html, { url: page.finalUrl, formats: payload.formats }));
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
