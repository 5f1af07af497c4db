/**
 * Which response content types the HTTP fetcher accepts: text documents the format pipeline can work on.
 * Images and binary downloads are refused before their body is read (UNSUPPORTED_CONTENT); PDF and DOCX are read as
 * bytes when the caller takes documents (page crawls), for the extraction threads to parse.
 */
import type { DocumentKind } from '#contracts';

const TEXT_TYPES: ReadonlySet<string> = new Set([
  'text/html',
  'application/xhtml+xml',
  'text/plain',
  'application/xml',
  'text/xml',
  'application/json',
]);

/** Types whose charset may be declared inside the document (meta tag / XML declaration). */
const SNIFFABLE_TYPES: ReadonlySet<string> = new Set(['', 'text/html', 'application/xhtml+xml', 'application/xml', 'text/xml']);

/** The lower-case essence of a Content-Type header (`text/html; charset=x` → `text/html`), '' when absent. */
export function mimeType(contentType: string | undefined): string {
  if (!contentType) return '';
  const semi = contentType.indexOf(';');
  return (semi === -1 ? contentType : contentType.slice(0, semi)).trim().toLowerCase();
}

/** A missing content type is accepted: many small servers omit it for HTML. */
export function isSupportedMimeType(mime: string): boolean {
  return mime === '' || TEXT_TYPES.has(mime);
}

export function isSniffableMimeType(mime: string): boolean {
  return SNIFFABLE_TYPES.has(mime);
}

const DOCUMENT_TYPES: ReadonlyMap<string, DocumentKind> = new Map([
  ['application/pdf', 'pdf'],
  ['application/x-pdf', 'pdf'],
  ['application/vnd.openxmlformats-officedocument.wordprocessingml.document', 'docx'],
]);

/** The document format a content type names, or undefined when it is not one the crawl reads. */
export function documentKind(mime: string): DocumentKind | undefined {
  return DOCUMENT_TYPES.get(mime);
}
