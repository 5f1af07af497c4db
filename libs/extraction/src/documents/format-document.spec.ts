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

  it('refuses a malformed PDF', async () => {
    await expect(read('pdf', Buffer.from('%PDF-1.7\ngarbage\n'))).rejects.toMatchObject({ code: 'UNSUPPORTED_CONTENT' });
  });

  it('refuses a page tree without end', async () => {
    await expect(read('pdf', endlessPageTreePdf())).rejects.toMatchObject({ code: 'UNSUPPORTED_CONTENT' });
  });

  it('stops a compression bomb at its deadline', async () => {
    const bomb = compressionBombPdf(256 * 1024 * 1024);
    const started = Date.now();
    await expect(read('pdf', bomb, 100)).rejects.toMatchObject({ code: 'TIMEOUT' });
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('refuses a part that unpacks past its declared size, and parts that declare too much', async () => {
    await expect(read('docx', zipBombDocx(64 * 1024 * 1024))).rejects.toMatchObject({ code: 'UNSUPPORTED_CONTENT', message: expect.stringContaining('declared size') });
    const big = zip({ 'word/document.xml': Buffer.alloc(11 * 1024 * 1024, ' ') });
    await expect(read('docx', big)).rejects.toMatchObject({ code: 'TOO_LARGE' });
  });
});
