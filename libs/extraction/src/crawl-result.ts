/** Runs the format pipeline on a fetched or rendered page and shapes the `crawl.page` job result (asked-for formats only). */
import { ErrorCode, TrawlError, contentOf, type CrawlPagePayload, type CrawlPageSuccess, type FetchedPage, type FormattedPage } from '#contracts';
import type { ExtractionPool } from './pool.js';


/** A formatted page, or UNSUPPORTED_CONTENT (permanent, so never charged) for a page the pipeline could not extract. */
export function assertExtractable(page: FormattedPage): FormattedPage {
  if (page.unextractable) throw new TrawlError(ErrorCode.UNSUPPORTED_CONTENT, page.unextractable, 'permanent');
  return page;
}

/**
 * Throws UNSUPPORTED_CONTENT (permanent, so never charged) for a page nested too deeply to extract, and a permanent
 * error for a document (PDF, DOCX) that cannot be read, is too large, or is not parsed by `deadline` (epoch ms).
 */
export async function toCrawlPageSuccess(
  payload: CrawlPagePayload,
  page: FetchedPage,
  extraction: ExtractionPool,
  deadline = Date.now() + payload.timeoutMs,
): Promise<CrawlPageSuccess> {
  const options = {
    url: page.finalUrl,
    formats: payload.formats,
    ...(payload.links ? { links: true } : {}),
    ...(payload.scope ? { scope: payload.scope } : {}),
    ...(payload.chunks ? { chunks: payload.chunks } : {}),
  };
  const formatted = assertExtractable(
    page.document ? await extraction.formatDocument(page.document, options, deadline) : await extraction.format(page.html, options),
  );
  return {
    ok: true,
    url: payload.url,
    finalUrl: page.finalUrl,
    status_code: page.status,
    ...contentOf(payload.formats, page.html, formatted),
    ...(page.screenshot !== undefined ? { screenshot: page.screenshot } : {}),
    ...(page.actions ? { actions: page.actions } : {}),
    metadata: formatted.metadata,
    ...(formatted.links ? { links: formatted.links } : {}),
    ...(formatted.canonical ? { canonical: formatted.canonical } : {}),
    ...(formatted.chunks ? { chunks: formatted.chunks } : {}),
  };
}
