/**
 * Documents with a known text, for the text-recovery bench: a page's text set as a PDF (pdf-lib, Helvetica 11 pt, in
 * one or two columns, flowing over as many pages as it needs) or as a DOCX (`docx`). PDF standard fonts cover
 * WinAnsi only, so the text is first cut to the characters the font can draw: that text is the truth.
 */
import { Document, Packer, Paragraph } from 'docx';
import { PDFDocument, StandardFonts, type PDFFont } from 'pdf-lib';

const WIDTH = 612;
const HEIGHT = 792;
const MARGIN = 72;
const SIZE = 11;
const LEADING = 14;
const GUTTER = 24;

export interface GeneratedPdf {
  bytes: Uint8Array;
  pages: number;
}

/** The paragraphs cut to what Helvetica can draw (other characters become spaces), empty ones dropped. */
export async function drawable(paragraphs: readonly string[]): Promise<string[]> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const glyphs = new Set(font.getCharacterSet());
  return paragraphs
    .map((p) => [...p].map((c) => (glyphs.has(c.codePointAt(0) ?? 0) ? c : ' ')).join('').replace(/\s+/g, ' ').trim())
    .filter((p) => p !== '');
}

function wrap(text: string, font: PDFFont, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    const next = line ? `${line} ${word}` : word;
    if (line && font.widthOfTextAtSize(next, SIZE) > width) {
      lines.push(line);
      line = word;
    } else line = next;
  }
  if (line) lines.push(line);
  return lines;
}

export async function pdfOf(title: string, paragraphs: readonly string[], columns: 1 | 2): Promise<GeneratedPdf> {
  const doc = await PDFDocument.create();
  doc.setTitle(title);
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const columnWidth = (WIDTH - 2 * MARGIN - (columns - 1) * GUTTER) / columns;
  let page = doc.addPage([WIDTH, HEIGHT]);
  let column = 0;
  let y = HEIGHT - MARGIN;
  const next = (): void => {
    column++;
    if (column === columns) {
      page = doc.addPage([WIDTH, HEIGHT]);
      column = 0;
    }
    y = HEIGHT - MARGIN;
  };
  for (const paragraph of paragraphs) {
    for (const line of wrap(paragraph, font, columnWidth)) {
      if (y < MARGIN) next();
      // A word wider than the column (a long URL) is drawn as it is; text overflowing is still text.
      page.drawText(line, { x: MARGIN + column * (columnWidth + GUTTER), y, size: SIZE, font });
      y -= LEADING;
    }
    y -= LEADING;
  }
  return { bytes: await doc.save(), pages: doc.getPageCount() };
}

export async function docxOf(title: string, paragraphs: readonly string[]): Promise<Uint8Array> {
  const document = new Document({ title, sections: [{ children: paragraphs.map((p) => new Paragraph(p)) }] });
  return Packer.toBuffer(document);
}
