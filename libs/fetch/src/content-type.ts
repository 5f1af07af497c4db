/**
 * Which response content types the HTTP fetcher accepts: text documents the format pipeline can work on.
 * Images, PDFs and binary downloads are refused before their body is read (UNSUPPORTED_CONTENT).
 */

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
