import { describe, expect, it } from '@jest/globals';
import { crawlEndpoint } from './crawl.reference.js';
import { cancelCrawlEndpoint, startCrawlEndpoint } from './crawl-jobs.reference.js';
import { mapEndpoint } from './map.reference.js';
import { paramTable, withParamTables } from './param-table.js';
import { serpSearchEndpoint } from './serp-search.reference.js';

const limits = { crawlMaxUrls: 7, headfulMaxUrls: 3, crawlJobs: { maxPages: 100, maxBatchUrls: 100, maxConcurrency: 5 }, mapMaxLinks: 100, pageCacheMaxAgeS: 172_800 };

describe('paramTable: the reference as a Markdown table', () => {
  it('has one row per parameter with its type, default or required, and its documentation', () => {
    const rows = paramTable(crawlEndpoint, limits).split('\n');
    expect(rows.slice(0, 2)).toEqual(['| parameter | type | default | meaning |', '|---|---|---|---|']);
    expect(rows).toHaveLength(2 + Object.keys(crawlEndpoint.paramDocs).length);
    expect(rows[2]).toMatch(/^\| `urls` \| list of URLs, 1–7, each ≤ 2048 characters \| required \| The URLs to crawl/);
    expect(rows).toContain(`| \`render_js\` | boolean | \`false\` | ${crawlEndpoint.paramDocs.render_js.description} |`);
  });

  it('lists enums and integer ranges', () => {
    const table = paramTable(serpSearchEndpoint, limits);
    expect(table).toContain('| `type` | `search`, `news`, `images`, `places`, `shopping` | `search` |');
    expect(table).toContain('| `num` | integer 1–100 | `10` |');
  });
});

describe('withParamTables', () => {
  const marked = (path: string) => `# Doc\n\n<!-- params ${path} -->\nstale\n<!-- /params -->\n\nprose\n`;

  it('rewrites what lies between the markers and nothing else', () => {
    const out = withParamTables(marked('/crawl'), [crawlEndpoint], limits);
    expect(out).toContain(paramTable(crawlEndpoint, limits));
    expect(out).not.toContain('stale');
    expect(out.endsWith('<!-- /params -->\n\nprose\n')).toBe(true);
    expect(withParamTables(out, [crawlEndpoint], limits)).toBe(out);
  });

  it('marks a JSON body endpoint by method and path; an endpoint with no parameter besides its path needs no table', () => {
    const out = withParamTables(marked('POST /map'), [mapEndpoint, cancelCrawlEndpoint], limits);
    expect(out).toContain('| `url` | URL, ≤ 2048 characters | required |');
    expect(out).toContain('| `limit` | integer 1–100 | `100` |');
    expect(() => withParamTables(marked('POST /map'), [mapEndpoint, startCrawlEndpoint], limits)).toThrow(/no marked parameter table for POST \/crawls/);
  });

  it('fails when an endpoint has no table, or a table names no endpoint', () => {
    expect(() => withParamTables(marked('/crawl'), [crawlEndpoint, serpSearchEndpoint], limits)).toThrow(/no marked parameter table for \/serp-search/);
    expect(() => withParamTables(marked('/nowhere'), [crawlEndpoint], limits)).toThrow(/\/nowhere, which is not an endpoint/);
  });
});
