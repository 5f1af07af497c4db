/**
 * DOCX → HTML with mammoth (headings, lists, tables, links from the document's styles), after the ZIP guard has
 * checked what the container unpacks to; title and author from the document's core properties (docProps/core.xml).
 * Images are left out: their bytes would only be data: URIs in the Markdown.
 */
import { ErrorCode, TrawlError } from '#contracts';
import type { DocumentLimits, DocumentText } from './document-html.js';
import { unpackZip } from './zip.js';

export async function readDocx(bytes: Uint8Array, limits: DocumentLimits): Promise<DocumentText> {
  const parts = unpackZip(bytes, limits.maxUnpackedBytes);
  if (!parts.has('word/document.xml')) throw new TrawlError(ErrorCode.UNSUPPORTED_CONTENT, 'The document is not a Word document (no word/document.xml)', 'permanent');
  const core = parts.get('docProps/core.xml')?.toString('utf8') ?? '';
  let html: string;
  try {
    // Loaded on the first DOCX: a thread that never sees one does not pay for mammoth and its ZIP reader.
    const { default: mammoth } = await import('mammoth');
    const result = await mammoth.convertToHtml(
      { buffer: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) },
      { convertImage: mammoth.images.imgElement(() => Promise.resolve({ src: '' })) },
    );
    html = result.value;
  } catch (error) {
    throw new TrawlError(ErrorCode.UNSUPPORTED_CONTENT, `The Word document could not be read: ${(error instanceof Error ? error.message : String(error)).slice(0, 200)}`, 'permanent');
  }
  return { html, title: coreField(core, 'dc:title'), author: coreField(core, 'dc:creator') };
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** One element's text from core.xml (a flat XML file of Dublin Core fields). */
function coreField(xml: string, tag: string): string | undefined {
  const match = new RegExp(`<${tag}(?:\\s[^>]*)?>([^<]*)</${tag}>`).exec(xml);
  const value = match?.[1]
    .replace(/&(amp|lt|gt|quot|apos);/g, (_, e: string) => ENTITIES[e])
    .replace(/&#(x?)([0-9a-f]+);/gi, (_, hex: string, n: string) => codePoint(parseInt(n, hex ? 16 : 10)))
    .trim();
  return value || undefined;
}

const codePoint = (n: number): string => (n > 0 && n <= 0x10ffff ? String.fromCodePoint(n) : '');
