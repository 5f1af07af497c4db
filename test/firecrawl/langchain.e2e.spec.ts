/**
 * LangChain JS's `FireCrawlLoader` (`@langchain/community`) pointed at Trawl with `apiUrl`, as a RAG pipeline uses it:
 * scrape, crawl and map modes, each loading Trawl's pages as LangChain documents. The loader is installed as its users
 * install it — with firecrawl-js 1.x, the client it is written for — in its own tree (test/clients/langchain, set up
 * by scripts/test.sh), and runs in its own Node process.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { REPO_ROOT } from '../support/env.js';
import type { FixtureServer } from '../support/fixture-server.js';
import { startHarness, type Harness } from '../support/harness.js';
import { tableResolver } from '../support/offline.js';
import { startSite } from './site.js';

jest.setTimeout(120_000);

const CLIENT = path.join(REPO_ROOT, 'test/clients/langchain');

interface LoadedDoc {
  pageContent: string;
  metadata: Record<string, any>;
}

let trawl: Harness;
let site: FixtureServer;
let apiKey: string;
let accountId: string;
/** The workers' DNS: it knows no name, so no page of a public host could be fetched. */
const dns = tableResolver({});

beforeAll(async () => {
  if (!existsSync(path.join(CLIENT, 'node_modules/@langchain/community'))) {
    throw new Error(`LangChain's client is not installed: run \`npm ci --prefix ${path.relative(process.cwd(), CLIENT)}\` (npm test does)`);
  }
  site = await startSite();
  trawl = await startHarness({ CRAWL_HOST_MIN_GAP_MS: '0' }, { resolve: dns });
  ({ apiKey, accountId } = await trawl.createAccount());
});

afterAll(async () => {
  await trawl?.close();
  await site?.close();
});

const balance = async () => (await trawl.admin.report(accountId)).account.balance;

/** Runs the loader as a LangChain program would, in its own process, and returns its documents or its error. */
async function load(options: Record<string, unknown>): Promise<{ docs?: LoadedDoc[]; error?: string }> {
  const { stdout } = await promisify(execFile)(process.execPath, ['load.mjs', JSON.stringify({ apiKey, apiUrl: trawl.baseUrl, ...options })], {
    cwd: CLIENT,
    // Only what Node needs: no LangSmith tracing or proxy settings of the machine's reach the client.
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' },
    timeout: 90_000,
    maxBuffer: 16 * 1024 * 1024,
  });
  const { lookups, ...loaded } = JSON.parse(stdout) as { docs?: LoadedDoc[]; error?: string; lookups: string[] };
  // The client talked to Trawl on its IP address and to nothing else.
  expect(lookups).toEqual([]);
  return loaded;
}

describe('LangChain JS FireCrawlLoader', () => {
  it('scrape: one document, the page\'s Markdown with its metadata; 1 credit', async () => {
    const before = await balance();
    const { docs, error } = await load({ url: `${site.url}/scoped`, mode: 'scrape' });
    expect(error).toBeUndefined();
    expect(docs).toHaveLength(1);
    expect(docs![0].pageContent).toContain('first paragraph of a scoped article');
    expect(docs![0].pageContent).not.toContain('Sidebar words');
    expect(docs![0].metadata).toMatchObject({ title: 'Scoped page', sourceURL: `${site.url}/scoped`, statusCode: 200 });
    expect(before - (await balance())).toBe(1);
  });

  it('crawl: every page of the site within the limit, as documents; charged per stored page', async () => {
    const before = await balance();
    const { docs, error } = await load({ url: `${site.url}/tree/`, mode: 'crawl', params: { limit: 6, scrapeOptions: { formats: ['markdown'] } } });
    expect(error).toBeUndefined();
    expect(docs).toHaveLength(6);
    const urls = docs!.map((d) => d.metadata.sourceURL);
    expect(new Set(urls).size).toBe(6);
    expect(urls).toContain(`${site.url}/tree/`);
    for (const doc of docs!.filter((d) => d.metadata.sourceURL !== `${site.url}/tree/`)) {
      expect(doc.pageContent).toMatch(/Words of tree page number \d+/);
    }
    expect(before - (await balance())).toBe(6);
  });

  it('map: the site\'s URLs, one document each', async () => {
    const { docs, error } = await load({ url: `${site.url}/tree/`, mode: 'map', params: { limit: 5, sitemapOnly: false, ignoreSitemap: true } });
    expect(error).toBeUndefined();
    expect(docs).toHaveLength(5);
    for (const doc of docs!) expect(JSON.parse(doc.pageContent)).toMatch(new RegExp(`^${site.url}/tree/`));
  });

  it('a refusal reaches the pipeline as the loader\'s error, nothing charged', async () => {
    const before = await balance();
    const { docs, error } = await load({ url: `${site.url.replace(/^http/, 'ftp')}/file`, mode: 'scrape' });
    expect(docs).toBeUndefined();
    expect(error).toMatch(/Status code: 400\. Error: url: .*must use http or https/);
    expect(await balance()).toBe(before);
  });

  it('never looked up a host name: every page came from the loopback site', () => {
    expect(dns.asked).toEqual([]);
  });
});
