import { describe, expect, it } from '@jest/globals';
import { compressionBombPdf, endlessPageTreePdf, pdf, zip, zipBombDocx } from '#test/support/documents.js';
import { formatDocument } from './format-document.js';

const formats = { raw_html: false, enhanced_html: false, markdown: true, page_text: false };
const limits = (ms = 5_000) => ({ maxPages: 10, maxUnpackedBytes: 10 * 1024 * 1024, deadline: Date.now() + ms });
const read = (kind: 'pdf' | 'docx', bytes: Buffer, ms?: number) => formatDocument({ kind, bytes }, { url: 'http://example.test/doc', formats }, limits(ms));

describe('formatDocument', () => {
  it('reads a PDF', async () => {
    const page = await read('pdf', await pdf({ title: 'T', pages: [['One paragraph of text.'], ['Another one.']] }));
    expect(page.markdown).toContain('One paragraph of text.');
    expect(page.metadata.pages).toBe(2);
  });

  it('reads PDFs of different page counts at once, in one thread, each whole', async () => {
    // pdf.js 5.4.624 kept the page count in a static shared by every open document: a 1-page PDF opened while a
    // 30-page one was read made the longer one's later pages an "Invalid page request".
    const long = await pdf({ title: 'Long', pages: Array.from({ length: 30 }, (_, i) => [`Page ${i + 1}.`]) });
    const short = await pdf({ title: 'Short', pages: [['Only page.']] });
    for (let turns = 0; turns < 4; turns++) {
      const first = read('pdf', long);
      for (let i = 0; i < turns; i++) await new Promise((next) => setImmediate(next)); // the short one opens mid-read
      const [a, b] = await Promise.all([first, read('pdf', short)]);
      expect([a.metadata.pages, b.metadata.pages]).toEqual([30, 1]);
      expect(a.markdown).toContain('Page 10.'); // maxPages
    }
  });

  it('refuses a malformed PDF', async () => {
    await expect(read('pdf', Buffer.from('%PDF-1.7\ngarbage\n'))).rejects.toMatchObject({ code: 'UNSUPPORTED_CONTENT' });
  });

  it('refuses a page tree without end', async () => {
    await expect(read('pdf', endlessPageTreePdf())).rejects.toMatchObject({ code: 'UNSUPPORTED_CONTENT' });
  });

  it('stops a compression bomb at its run limit, within its first page', async () => {
    // Its deadline is the extraction thread's (pool.spec: a bomb past it costs that thread, at TIMEOUT).
    // Its first 20,000 runs of text, not the 10 MB text limit (2.5 million runs of "bomb") nor the whole stream.
    await expect(read('pdf', compressionBombPdf(256 * 1024 * 1024))).rejects.toMatchObject({ code: 'TOO_LARGE', message: expect.stringContaining('runs of text') });
  });

  it('refuses a part that unpacks past its declared size, and parts that declare too much', async () => {
    await expect(read('docx', zipBombDocx(64 * 1024 * 1024))).rejects.toMatchObject({ code: 'UNSUPPORTED_CONTENT', message: expect.stringContaining('declared size') });
    const big = zip({ 'word/document.xml': Buffer.alloc(11 * 1024 * 1024, ' ') });
    await expect(read('docx', big)).rejects.toMatchObject({ code: 'TOO_LARGE' });
  });
});
