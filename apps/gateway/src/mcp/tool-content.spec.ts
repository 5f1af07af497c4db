/** The readable blocks of the web_search, serp_maps and headful_browser tools, and the headful tool's single-url input. */
import { describe, expect, it } from '@jest/globals';
import type { ContentBlock } from '@modelcontextprotocol/sdk/types.js';
import { parseInput, type HeadfulBrowserResponse, type SearchResponse, type SerpMapsResponse } from '#contracts';
import { testConfig } from '../testing/fakes.js';
import { MCP_TOOLS } from './mcp-tools.js';
import { headfulBrowserContent, serpMapsContent, webSearchContent } from './tool-content.js';

const text = (blocks: ContentBlock[]) => blocks.map((b) => (b.type === 'text' ? b.text : '')).join('\n');

describe('tool content', () => {
  it('web_search: answers, numbered results with crawled content or why not, questions, related searches, failed pages', () => {
    const body: SearchResponse = {
      query: 'trawling',
      pages_fetched: 1,
      credits: 11,
      page_errors: { '2': 'UPSTREAM_BLOCKED: captcha' },
      pages: {
        '1': {
          total_results: '',
          direct_answer: { answer: 'A fishing method', source: 'example.org' },
          search_results: [
            { title: 'Trawling', link: 'https://a.example/', date: null, snippet: 'About trawling.', source: 'a.example', status_code: 200, page_content: { page_markdown: '# Trawling\n\nNets.' } },
            { title: 'Slow', link: 'https://b.example/', date: '2 days ago', snippet: '', source: 'b.example', error: 'TIMEOUT: too slow' },
          ],
          related_queries: ['trawler'],
          questions_answers: [{ question: 'What is trawling?' }],
          page_content: { page_markdown: 'the result page itself' },
        },
      },
    };
    const out = text(webSearchContent(body));
    expect(out).toContain('Answer: A fishing method (example.org)');
    expect(out).toContain('1. [Trawling](https://a.example/) — a.example\n   About trawling.');
    expect(out).toContain('### Content of https://a.example/ (HTTP 200)\n\n# Trawling\n\nNets.');
    expect(out).toContain('2. [Slow](https://b.example/) — b.example · 2 days ago\n   Not crawled: TIMEOUT: too slow');
    expect(out).not.toContain('the result page itself'); // results carry their own content
    expect(out).toContain('People also ask:\n- What is trawling?');
    expect(out).toContain('Related searches:\n- trawler');
    expect(out).toContain('Page 2 failed: UPSTREAM_BLOCKED: captcha');
    expect(out).toContain('11 credits charged.');
  });

  it('serp_maps: one entry per place with its facts; a lookup says which place', () => {
    const body: SerpMapsResponse = {
      parameters: { q: 'Kipriakon', cid: '165' },
      serp_maps_results: [
        { position: 1, title: 'Kipriakon', type: 'Restaurant', rating: 4.2, ratingCount: 396, address: 'Old port', cid: '165', openingHours: { Monday: '9 AM–5 PM' } },
      ],
      credits: 30,
    };
    const out = text(serpMapsContent(body));
    expect(out).toContain('Place 165 ("Kipriakon"):');
    expect(out).toContain('1. **Kipriakon** (Restaurant) — 4.2★ (396 reviews)\n   Address: Old port\n   Hours: Monday 9 AM–5 PM\n   cid: 165');
    expect(text(serpMapsContent({ parameters: { q: 'x' }, serp_maps_results: [], credits: 30 }))).toContain('No places found.');
  });

  it('headful_browser: the page in its format, or why it failed or was blocked', () => {
    const body: HeadfulBrowserResponse = {
      status: 'success',
      data: [
        { url: 'https://a.example/', page_text: 'Hello', blocked: false, egress: { via: 'proxy', country: 'us' } },
        { url: 'https://b.example/', blocked: true, error: 'UPSTREAM_BLOCKED: challenge', egress: { via: 'proxy', country: 'us' } },
      ],
      credits_used: 50,
      credits_remaining: 950,
    };
    expect(headfulBrowserContent(body)).toEqual([
      { type: 'text', text: 'URL: https://a.example/\n\nHello' },
      { type: 'text', text: 'URL: https://b.example/\nBlocked: UPSTREAM_BLOCKED: challenge' },
      { type: 'text', text: '50 credits charged; 950 remaining.' },
    ]);
    const direct: HeadfulBrowserResponse = { ...body, data: [{ ...body.data[0], egress: { via: 'direct' } }] };
    expect(headfulBrowserContent(direct)[0]).toEqual({ type: 'text', text: 'URL: https://a.example/\nLoaded directly (no residential proxy serves the default country)\n\nHello' });
  });
});

describe('the headful_browser tool input', () => {
  const config = testConfig({ RESIDENTIAL_PROXIES: 'us=http://127.0.0.1:9' });
  const headful = MCP_TOOLS.find((t) => t.name === 'headful_browser')!;

  it('is one url, output_format and country; screenshot is never asked for', () => {
    expect(parseInput(headful.schema(config), { url: 'https://a.example/x', screenshot: true })).toEqual({
      urls: ['https://a.example/x'],
      country: 'us',
      countryNamed: false,
      output_format: 'markdown',
      screenshot: false,
    });
    const json = headful.inputSchema!({ crawlMaxUrls: 20, headfulMaxUrls: 10, crawlJobs: { maxPages: 100, maxBatchUrls: 100, maxConcurrency: 5 }, mapMaxLinks: 100, pageCacheMaxAgeS: 172_800 });
    expect(Object.keys(json.properties as object)).toEqual(['url', 'output_format', 'country']);
    expect(json.required).toEqual(['url']);
  });

  it('takes any country code (which ones are served is decided per call, as on REST) and refuses a malformed one, naming country', () => {
    expect(parseInput(headful.schema(config), { url: 'https://a.example/', country: 'de' })).toMatchObject({ country: 'de', countryNamed: true });
    expect(() => parseInput(headful.schema(config), { url: 'https://a.example/', country: 'zz' })).toThrow(/^country must be an ISO 3166-1 alpha-2/);
  });
});
