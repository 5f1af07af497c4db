/**
 * Bytes → text for fetched HTML. The charset comes from (in order) a byte-order mark, the Content-Type header,
 * a <meta charset> / http-equiv declaration in the first bytes, else UTF-8 — the order browsers use, except that
 * an explicit header wins over <meta> only when the label is one TextDecoder knows.
 */

const SNIFF_BYTES = 4096;

/** Read a charset label from a Content-Type value such as `text/html; charset="Shift_JIS"`. */
export function charsetFromContentType(contentType: string | undefined): string | undefined {
  if (!contentType) return undefined;
  const m = /charset\s*=\s*["']?([^"';\s,]+)/i.exec(contentType);
  return m ? m[1].trim().toLowerCase() : undefined;
}

function charsetFromBom(bytes: Uint8Array): string | undefined {
  if (bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return 'utf-8';
  if (bytes.length >= 2 && bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  if (bytes.length >= 2 && bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  return undefined;
}

/** Look for <meta charset=x> or <meta http-equiv=content-type content="...charset=x"> in the document's head bytes. */
export function charsetFromMeta(bytes: Uint8Array): string | undefined {
  // latin1 maps every byte to one char, so ASCII markup survives whatever the real encoding is.
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, SNIFF_BYTES)).toString('latin1');
  const metaRe = /<meta\b[^>]*>/gi;
  let m: RegExpExecArray | null;
  while ((m = metaRe.exec(head))) {
    const tag = m[0];
    const direct = /\bcharset\s*=\s*["']?\s*([\w.:-]+)/i.exec(tag);
    if (direct) return direct[1].toLowerCase();
  }
  // XML declaration (XHTML served as such)
  const xml = /^<\?xml[^>]*encoding\s*=\s*["']([\w.:-]+)["']/i.exec(head);
  return xml ? xml[1].toLowerCase() : undefined;
}

// Node's TextDecoder decodes windows-1252 as ISO-8859-1 (0x80-0x9F become C1 controls); browsers map them to
// these characters (smart quotes, dashes, euro sign), which matters for legacy pages.
const CP1252_C1 = '€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008dŽ\u008f\u0090‘’“”•–—˜™š›œ\u009džŸ';

function decodeWith(decoder: InstanceType<typeof TextDecoder>, bytes: Uint8Array): string {
  const text = decoder.decode(bytes);
  if (decoder.encoding !== 'windows-1252') return text;
  return text.replace(/[\u0080-\u009f]/g, (c) => CP1252_C1[c.charCodeAt(0) - 0x80]);
}

function decoderFor(label: string | undefined): InstanceType<typeof TextDecoder> | undefined {
  if (!label) return undefined;
  try {
    return new TextDecoder(label);
  } catch {
    return undefined;
  }
}

/** Decode HTML bytes to a string; never throws. `charset` is the canonical WHATWG name that was used. */
export function decodeHtml(bytes: Uint8Array, contentType?: string): { text: string; charset: string } {
  const bom = charsetFromBom(bytes);
  const candidates = bom ? [bom] : [charsetFromContentType(contentType), charsetFromMeta(bytes)];
  for (const label of candidates) {
    let decoder = decoderFor(label);
    if (!decoder) continue;
    // A page declaring UTF-16 in <meta> cannot really be UTF-16 (the ASCII meta was readable): browsers use UTF-8.
    if (!bom && decoder.encoding.startsWith('utf-16')) decoder = new TextDecoder('utf-8');
    return { text: decodeWith(decoder, bytes), charset: decoder.encoding };
  }
  // Undeclared: UTF-8 when the bytes are valid UTF-8, else the web's legacy default (windows-1252).
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(bytes), charset: 'utf-8' };
  } catch {
    return { text: decodeWith(new TextDecoder('windows-1252'), bytes), charset: 'windows-1252' };
  }
}
