/**
 * Bytes → text for HTML read from files (`trawl extract`, the corpora): the crawler's own decoder (libs/fetch
 * charset.ts), so a page decodes the same whether it was fetched, rendered or read from disk.
 */
import { charsetParam, decodeBody, sniffDeclaredCharset } from '#fetch/charset.js';

/** Decode HTML bytes to a string; never throws. `charset` is the canonical WHATWG name that was used. */
export function decodeHtml(bytes: Uint8Array, contentType?: string): { text: string; charset: string } {
  return decodeBody(bytes, { contentType });
}

/** The charset label of a Content-Type value such as `text/html; charset="Shift_JIS"`, lower case. */
export function charsetFromContentType(contentType: string | undefined): string | undefined {
  return charsetParam(contentType)?.trim().toLowerCase() ?? undefined;
}

/** The charset declared by `<meta>` (or an XML declaration) in the document's first bytes, lower case. */
export function charsetFromMeta(bytes: Uint8Array): string | undefined {
  return sniffDeclaredCharset(bytes)?.toLowerCase() ?? undefined;
}
