/**
 * A fetched PDF or DOCX through the same formats as a web page: parsed to text (pdf.ts, docx.ts), made an HTML page
 * (document-html.ts) and run through formatPage — the whole page, not a main-content pick, since a document has no
 * navigation to drop — with the page count added to the metadata. Failures are permanent TrawlErrors, so never charged.
 */
import { ErrorCode, TrawlError, type FetchedDocument, type FormattedPage } from '#contracts';
import { formatPage, type FormatOptions } from '../format-page.js';
import { documentHtml, type DocumentLimits } from './document-html.js';
import { readDocx } from './docx.js';
import { readPdf } from './pdf.js';

export type { DocumentLimits } from './document-html.js';

export async function formatDocument(document: FetchedDocument, options: FormatOptions, limits: DocumentLimits): Promise<FormattedPage> {
  let timer: NodeJS.Timeout | undefined;
  const overdue = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(timeoutError()), Math.max(0, limits.deadline - Date.now()));
  });
  try {
    const text = await Promise.race([document.kind === 'pdf' ? readPdf(document.bytes, limits) : readDocx(document.bytes, limits), overdue]);
    const page = formatPage(documentHtml(text), { ...options, scope: { mainContent: false, ...options.scope } });
    if (text.pages !== undefined) page.metadata.pages = text.pages;
    return page;
  } finally {
    clearTimeout(timer);
  }
}

export const timeoutError = (): TrawlError => new TrawlError(ErrorCode.TIMEOUT, 'The document took longer to parse than its time budget', 'permanent');
