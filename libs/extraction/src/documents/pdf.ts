/**
 * PDF → the HTML our format pipeline takes, with pdf.js (Mozilla's parser, the legacy build for Node): the text of
 * the first `maxPages` pages in reading order (reading-order.ts), paragraphs as <p>, larger type as <h2>, and the
 * document's Title and Author in the head. No fonts, images or scripts are loaded: text only.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ErrorCode, TrawlError } from '#contracts';
import { median, readingOrder, toBlocks, type Block, type TextRun } from './reading-order.js';
import type { DocumentLimits, DocumentText } from './document-html.js';

type PdfJs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');
let pdfjs: Promise<PdfJs> | undefined;
const loadPdfJs = (): Promise<PdfJs> => (pdfjs ??= import('pdfjs-dist/legacy/build/pdf.mjs'));

/** Predefined CMaps (CJK fonts), read from the package's own directory. */
const CMAPS = `${pathToFileURL(path.join(path.dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json')), 'cmaps')).href}/`;

export async function readPdf(bytes: Uint8Array, limits: DocumentLimits): Promise<DocumentText> {
  const { getDocument } = await loadPdfJs();
  const task = getDocument({
    // pdf.js takes ownership of (detaches) the buffer it is given: hand it a copy.
    data: new Uint8Array(bytes),
    cMapUrl: CMAPS,
    cMapPacked: true,
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    disableAutoFetch: true,
    maxImageSize: 0,
    verbosity: 0,
  });
  // At the deadline the parse is torn down (pending calls reject), so even an inline parse stops spending CPU.
  let late = false;
  const stop = setTimeout(() => {
    late = true;
    void task.destroy().catch(() => undefined);
  }, Math.max(0, limits.deadline - Date.now()));
  try {
    const pdf = await task.promise.catch((error: unknown) => {
      throw new TrawlError(ErrorCode.UNSUPPORTED_CONTENT, `The PDF could not be read: ${messageOf(error)}`, 'permanent');
    });
    const { info } = (await pdf.getMetadata().catch(() => ({ info: {} }))) as { info: Record<string, unknown> };
    const pages = pdf.numPages;
    const blocks: Block[] = [];
    let chars = 0;
    for (let n = 1; n <= Math.min(pages, limits.maxPages); n++) {
      if (Date.now() > limits.deadline) throw new TrawlError(ErrorCode.TIMEOUT, `The PDF took longer than its time budget (read ${n - 1} of ${pages} pages)`, 'permanent');
      const page = await pdf.getPage(n);
      const runs = await pageRuns(page);
      page.cleanup();
      chars += runs.reduce((sum, r) => sum + r.text.length, 0);
      if (chars > limits.maxUnpackedBytes) {
        throw new TrawlError(ErrorCode.TOO_LARGE, `The PDF's text exceeds the ${limits.maxUnpackedBytes}-character limit`, 'permanent');
      }
      const lines = readingOrder(runs);
      blocks.push(...toBlocks(lines, median(lines.map((l) => l.size))));
    }
    return { blocks, title: field(info.Title), author: field(info.Author), pages };
  } catch (error) {
    if (late) throw new TrawlError(ErrorCode.TIMEOUT, 'The PDF took longer to parse than its time budget', 'permanent');
    if (error instanceof TrawlError) throw error;
    throw new TrawlError(ErrorCode.UNSUPPORTED_CONTENT, `The PDF could not be read: ${messageOf(error)}`, 'permanent');
  } finally {
    clearTimeout(stop);
    await task.destroy().catch(() => undefined);
  }
}

/** More text runs than any real page holds (a dense one has a few thousand): such a page fails the document. */
const MAX_PAGE_RUNS = 20_000;

interface PdfTextItem {
  str?: string;
  transform?: number[];
  width?: number;
  height?: number;
}

/**
 * The page's text runs, streamed from the parser and stopped past MAX_PAGE_RUNS (TOO_LARGE) — a content stream that
 * repeats one operator millions of times costs its first runs, not millions of objects.
 */
async function pageRuns(page: { streamTextContent(): ReadableStream }): Promise<TextRun[]> {
  const runs: TextRun[] = [];
  const reader = (page.streamTextContent() as ReadableStream<{ items: PdfTextItem[] }>).getReader();
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return runs;
    for (const item of value.items) {
      if (!item.str || !item.transform) continue;
      const [a, b, , , x, y] = item.transform;
      runs.push({ text: item.str, x, y, width: item.width ?? 0, size: Math.hypot(a, b) || (item.height ?? 0) });
    }
    if (runs.length > MAX_PAGE_RUNS) {
      // The document is torn down right after (readPdf's finally): that ends the parser's side of the stream too.
      reader.releaseLock();
      throw new TrawlError(ErrorCode.TOO_LARGE, `A page of the PDF holds more than ${MAX_PAGE_RUNS} runs of text`, 'permanent');
    }
  }
}

const field = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined);
const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error)).slice(0, 200);
