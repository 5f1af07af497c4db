/**
 * `/crawl` of PDF and DOCX URLs, end to end: gateway → queue → worker-http → documents generated here and served from
 * 127.0.0.1. A document gives Markdown, text and metadata like a page, for 1 credit; a hostile one (malformed, a page
 * tree without end, a zip bomb) fails its URL at 0 credits, and the worker goes on crawling.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import Firecrawl from '@mendable/firecrawl-js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ARTICLE, startFixtureServer, type FixtureServer } from './support/fixture-server.js';
import { compressionBombPdf, docx, endlessPageTreePdf, pdf, twoColumnPdf, zipBombDocx } from './support/documents.js';
import { key, startHarness, type Harness } from './support/harness.js';

const PDF_TYPE = 'application/pdf';
const DOCX_TYPE = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

const LEFT = [
  'Alpha herring migrate along the northern shelf each spring, following the plankton bloom as the water warms.',
  'Bravo trawlers work the shelf edge where the herring gather, hauling nets through the cold morning water.',
];
const RIGHT = [
  'Charlie quotas limit the catch to what the stock can bear, set each year from the survey of the spawning grounds.',
  'Delta markets along the coast buy the landed fish at auction before dawn, and ship it inland by noon.',
];

let trawl: Harness;
let site: FixtureServer;

beforeAll(async () => {
  const serve = (type: string, body: Buffer) => (_req: unknown, res: import('node:http').ServerResponse) => void res.writeHead(200, { 'content-type': type }).end(body);
  const report = await pdf({
    title: 'Herring Stock Report',
    author: 'Ada Fisher',
    pages: [
      ['The herring stock of the northern shelf grew for the third year running, the survey found.'],
      ['Catches stayed within the quota in every port, and the spawning grounds were left closed in March.'],
      ['A third page that a two-page limit leaves unread: its words must not appear.'],
    ],
  });
  site = await startFixtureServer({
    '/report.pdf': serve(`${PDF_TYPE}`, report),
    '/columns.pdf': serve(PDF_TYPE, await twoColumnPdf('Notes on the Herring Fishery', LEFT, RIGHT)),
    '/memo.docx': serve(
      DOCX_TYPE,
      await docx({
        title: 'Harbour Memo',
        author: 'Grace Netmaker',
        heading: 'Harbour opening hours',
        paragraphs: ['The harbour opens at five in the morning for the fishing fleet.', 'Visitors may moor at the east quay after noon.'],
      }),
    ),
    '/broken.pdf': serve(PDF_TYPE, Buffer.from('%PDF-1.7\nthis is not a PDF at all, no objects, no xref, nothing to read\n')),
    '/endless.pdf': serve(PDF_TYPE, endlessPageTreePdf()),
    '/bomb.pdf': serve(PDF_TYPE, compressionBombPdf(256 * 1024 * 1024)),
    '/bomb.docx': serve(DOCX_TYPE, zipBombDocx(64 * 1024 * 1024)),
    '/article': (_req, res) => void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(ARTICLE),
  });
  trawl = await startHarness({ CRAWL_TIMEOUT_MS: '4000', PDF_MAX_PAGES: '2', CRAWL_MAX_URLS: '10' });
});

afterAll(async () => {
  await trawl?.close();
  await site?.close();
});

const crawl = async (apiKey: string, paths: string[], query = '') =>
  trawl.get(`/crawl?urls=${encodeURIComponent(paths.map((p) => `${site.url}${p}`).join(','))}${query}`, key(apiKey));

describe('GET /crawl of documents', () => {
  it('reads a PDF: Markdown, text and metadata (title, author, pages) for 1 credit, pages past PDF_MAX_PAGES unread', async () => {
    const account = await trawl.createAccount();
    const res = await crawl(account.apiKey, ['/report.pdf'], '&page_text=true');
    expect(res.status).toBe(200);
    const [page] = res.body.results;
    expect(page.error).toBeUndefined();
    expect(page.status_code).toBe(200);
    expect(page.metadata).toMatchObject({ title: 'Herring Stock Report', author: 'Ada Fisher', pages: 3 });
    expect(page.markdown).toContain('The herring stock of the northern shelf grew for the third year running, the survey found.');
    expect(page.markdown).toContain('Catches stayed within the quota in every port');
    expect(page.page_text).toContain('the spawning grounds were left closed in March.');
    expect(page.markdown).not.toContain('third page');
    expect(res.body.credits).toBe(1);
    expect((await trawl.admin.report(account.accountId)).account.balance).toBe(10_000 - 1);
  });

  it('reads a two-column PDF in order: the title, the whole left column, then the right one', async () => {
    const account = await trawl.createAccount();
    const res = await crawl(account.apiKey, ['/columns.pdf'], '&page_text=true&markdown=false&enhanced_html=false');
    const text: string = res.body.results[0].page_text;
    const at = (s: string): number => text.indexOf(s);
    for (const paragraph of [...LEFT, ...RIGHT]) expect(text).toContain(paragraph);
    expect(at('Alpha')).toBeLessThan(at('Bravo'));
    expect(at('Bravo trawlers')).toBeLessThan(at('Charlie'));
    expect(at('Charlie')).toBeLessThan(at('Delta'));
  });

  it('reads a DOCX: its heading as a Markdown heading, its paragraphs, title and author', async () => {
    const account = await trawl.createAccount();
    const res = await crawl(account.apiKey, ['/memo.docx']);
    const [page] = res.body.results;
    expect(page.error).toBeUndefined();
    expect(page.markdown).toMatch(/^#+ Harbour opening hours$/m);
    expect(page.markdown).toContain('The harbour opens at five in the morning for the fishing fleet.');
    expect(page.markdown).toContain('Visitors may moor at the east quay after noon.');
    expect(page.metadata).toMatchObject({ title: 'Harbour Memo', author: 'Grace Netmaker' });
    expect(res.body.credits).toBe(1);
  });

  it('reads a PDF through the Firecrawl-compatible scrape too (its SDK): markdown, title and numPages, 1 credit', async () => {
    const account = await trawl.createAccount();
    const client = new Firecrawl({ apiKey: account.apiKey, apiUrl: trawl.baseUrl });
    const doc = await client.scrape(`${site.url}/report.pdf`, { formats: ['markdown'] });
    expect(doc.markdown).toContain('The herring stock of the northern shelf grew for the third year running');
    expect(doc.metadata).toMatchObject({ title: 'Herring Stock Report', author: 'Ada Fisher', numPages: 3, statusCode: 200 });
    expect((await trawl.admin.report(account.accountId)).account.balance).toBe(10_000 - 1);
  });

  it("reads a PDF through MCP's crawl tool too: its Markdown and metadata, 1 credit", async () => {
    const account = await trawl.createAccount();
    const client = new Client({ name: 'trawl-e2e', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${trawl.baseUrl}/mcp`), { requestInit: { headers: key(account.apiKey) } }));
    try {
      const result = (await client.callTool({ name: 'crawl', arguments: { urls: [`${site.url}/report.pdf`] } })) as CallToolResult;
      expect(result.isError).toBeFalsy();
      const [page] = (result.structuredContent as { results: Array<{ markdown?: string; metadata?: Record<string, unknown> }> }).results;
      expect(page.markdown).toContain('The herring stock of the northern shelf grew for the third year running');
      expect(page.metadata).toMatchObject({ title: 'Herring Stock Report', author: 'Ada Fisher', pages: 3 });
      expect((await trawl.admin.report(account.accountId)).account.balance).toBe(10_000 - 1);
    } finally {
      await client.close();
    }
  });

  it('fails hostile documents at 0 credits, each alone, and the worker goes on crawling', async () => {
    const account = await trawl.createAccount();
    const paths = ['/broken.pdf', '/endless.pdf', '/bomb.docx', '/bomb.pdf', '/report.pdf'];
    const res = await crawl(account.apiKey, paths);
    expect(res.status).toBe(200);
    const [broken, endless, zipBomb, bomb, good] = res.body.results;
    expect(broken.error).toMatch(/^UNSUPPORTED_CONTENT/);
    expect(endless.error).toMatch(/^UNSUPPORTED_CONTENT/);
    expect(zipBomb.error).toMatch(/^UNSUPPORTED_CONTENT.*declared size/);
    // Stopped at its first 20,000 runs of text or at the URL's time budget, whichever comes first on this machine.
    expect(bomb.error).toMatch(/^(TOO_LARGE|TIMEOUT)/);
    expect(good.error).toBeUndefined();
    expect(res.body.credits).toBe(1);
    const after = await crawl(account.apiKey, ['/article', '/memo.docx']);
    expect(after.body.results.map((r: { error?: string }) => r.error)).toEqual([undefined, undefined]);
    const { account: report } = await trawl.admin.report(account.accountId);
    expect(report.balance).toBe(10_000 - 3);
    expect(await trawl.ledger.ledgerSum(account.accountId)).toBe(report.balance);
  });
});
