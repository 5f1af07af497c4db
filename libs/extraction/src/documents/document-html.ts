/**
 * What a document parser hands the format pipeline: its text as blocks (or as HTML, for DOCX), its title, author and
 * page count; and the HTML page made of them, so PDF and DOCX get the same Markdown, text and metadata as a web page.
 */
import type { Block } from './reading-order.js';

export interface DocumentLimits {
  /** PDF pages read (PDF_MAX_PAGES); the rest are counted, not read. */
  maxPages: number;
  /** Bytes a DOCX may unpack to in all (its parts, as declared and as inflated). */
  maxUnpackedBytes: number;
  /** Epoch ms past which parsing stops (the page job's time budget). */
  deadline: number;
}

export interface DocumentText {
  /** The body as paragraphs and headings (PDF)… */
  blocks?: Block[];
  /** …or as HTML (DOCX, through mammoth). */
  html?: string;
  title?: string;
  author?: string;
  pages?: number;
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };
export const escapeHtml = (s: string): string => s.replace(/[&<>"]/g, (c) => ESCAPES[c]);

/** One HTML page: the metadata in its head (where the pipeline reads a page's), the body in an <article>. */
export function documentHtml(doc: DocumentText): string {
  const head = [
    '<meta charset="utf-8">',
    doc.title ? `<title>${escapeHtml(doc.title)}</title>` : '',
    doc.author ? `<meta name="author" content="${escapeHtml(doc.author)}">` : '',
  ].join('');
  const body = doc.html ?? (doc.blocks ?? []).map((b) => (b.heading ? `<h2>${escapeHtml(b.text)}</h2>` : `<p>${escapeHtml(b.text)}</p>`)).join('\n');
  return `<!doctype html><html><head>${head}</head><body><article>\n${body}\n</article></body></html>`;
}
