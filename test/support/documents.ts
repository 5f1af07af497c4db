/**
 * Documents made in the test, with well-kept writers: PDFs with pdf-lib (one column, or two under a full-width title),
 * DOCX with `docx`; and hostile ones written by hand — a PDF whose page tree never ends, a PDF whose content stream
 * inflates to far more than its bytes, a DOCX whose part lies about its size (a zip bomb).
 */
import zlib from 'node:zlib';
import { Document, HeadingLevel, Packer, Paragraph } from 'docx';
import { PDFDocument, StandardFonts, type PDFFont, type PDFPage } from 'pdf-lib';

export interface PdfText {
  title?: string;
  author?: string;
  /** One array of paragraphs per page. */
  pages: string[][];
}

const WIDTH = 612;
const HEIGHT = 792;
const MARGIN = 72;
const SIZE = 11;
const LEADING = 14;

/** Words wrapped into lines no wider than `width` at `size`. */
export function wrap(text: string, font: PDFFont, size: number, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const next = line ? `${line} ${word}` : word;
    if (line && font.widthOfTextAtSize(next, size) > width) {
      lines.push(line);
      line = word;
    } else line = next;
  }
  if (line) lines.push(line);
  return lines;
}

/** Paragraphs set from the top of the page down, a blank line between them; returns the y below the last. */
function setColumn(page: PDFPage, font: PDFFont, paragraphs: string[], x: number, top: number, width: number): number {
  let y = top;
  for (const paragraph of paragraphs) {
    for (const line of wrap(paragraph, font, SIZE, width)) {
      page.drawText(line, { x, y, size: SIZE, font });
      y -= LEADING;
    }
    y -= LEADING;
  }
  return y;
}

export async function pdf(text: PdfText): Promise<Buffer> {
  const doc = await PDFDocument.create();
  if (text.title) doc.setTitle(text.title);
  if (text.author) doc.setAuthor(text.author);
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (const paragraphs of text.pages) setColumn(doc.addPage([WIDTH, HEIGHT]), font, paragraphs, MARGIN, HEIGHT - MARGIN, WIDTH - 2 * MARGIN);
  return Buffer.from(await doc.save());
}

/** One page: a bold title across both columns, then `left` in the left column and `right` in the right one. */
export async function twoColumnPdf(title: string, left: string[], right: string[]): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const page = doc.addPage([WIDTH, HEIGHT]);
  const titleSize = 20;
  page.drawText(title, { x: (WIDTH - bold.widthOfTextAtSize(title, titleSize)) / 2, y: HEIGHT - MARGIN, size: titleSize, font: bold });
  const gutter = 24;
  const column = (WIDTH - 2 * MARGIN - gutter) / 2;
  const top = HEIGHT - MARGIN - 40;
  setColumn(page, font, left, MARGIN, top, column);
  setColumn(page, font, right, MARGIN + column + gutter, top, column);
  return Buffer.from(await doc.save());
}

export async function docx(text: { title?: string; author?: string; heading: string; paragraphs: string[] }): Promise<Buffer> {
  const document = new Document({
    ...(text.title ? { title: text.title } : {}),
    ...(text.author ? { creator: text.author } : {}),
    sections: [{ children: [new Paragraph({ text: text.heading, heading: HeadingLevel.HEADING_1 }), ...text.paragraphs.map((p) => new Paragraph(p))] }],
  });
  return Packer.toBuffer(document);
}

/** A PDF from numbered objects, its xref table computed (so only what the objects say is hostile). */
export function handWrittenPdf(objects: (string | Buffer)[]): Buffer {
  const chunks: Buffer[] = [Buffer.from('%PDF-1.7\n')];
  const offsets: number[] = [];
  let length = chunks[0].length;
  objects.forEach((body, i) => {
    offsets.push(length);
    const chunk = Buffer.concat([Buffer.from(`${i + 1} 0 obj\n`), Buffer.from(body), Buffer.from('\nendobj\n')]);
    chunks.push(chunk);
    length += chunk.length;
  });
  const xref = [`xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`, ...offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`)].join('');
  chunks.push(Buffer.from(`${xref}trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${length}\n%%EOF\n`));
  return Buffer.concat(chunks);
}

/** A page tree whose only kid is itself, claiming a million pages. */
export function endlessPageTreePdf(): Buffer {
  return handWrittenPdf(['<< /Type /Catalog /Pages 2 0 R >>', '<< /Type /Pages /Kids [2 0 R] /Count 1000000 >>']);
}

/** One page whose Flate-compressed content stream inflates to `inflated` bytes of text-showing operators. */
export function compressionBombPdf(inflated: number): Buffer {
  const op = Buffer.from('BT /F1 12 Tf 72 720 Td (bomb) Tj ET\n');
  const content = zlib.deflateSync(Buffer.alloc(inflated, op), { level: 9 });
  return handWrittenPdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    Buffer.concat([Buffer.from(`<< /Length ${content.length} /Filter /FlateDecode >>\nstream\n`), content, Buffer.from('\nendstream')]),
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ]);
}

/** A ZIP of the given parts; `declare` overrides a part's declared unpacked size (a lie, for a zip bomb). */
export function zip(parts: Record<string, Buffer>, declare: Record<string, number> = {}): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const [name, data] of Object.entries(parts)) {
    const packed = zlib.deflateRawSync(data);
    const nameBytes = Buffer.from(name);
    const size = declare[name] ?? data.length;
    const crc = zlib.crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(packed.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(packed.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(nameBytes.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, nameBytes, packed);
    centrals.push(central, nameBytes);
    offset += local.length + nameBytes.length + packed.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(Object.keys(parts).length, 8);
  end.writeUInt16LE(Object.keys(parts).length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/** A DOCX-shaped ZIP whose document part says 2 KB and inflates to `inflated` bytes. */
export function zipBombDocx(inflated: number): Buffer {
  return zip({ '[Content_Types].xml': Buffer.from('<Types/>'), 'word/document.xml': Buffer.alloc(inflated, ' ') }, { 'word/document.xml': 2048 });
}
