import { describe, expect, it } from '@jest/globals';
import type { CrawlPageSuccess } from '#contracts';
import { storedContent } from './stored-content.js';

const page = (over: Partial<CrawlPageSuccess> = {}): CrawlPageSuccess => ({
  ok: true, url: 'http://a.test/', finalUrl: 'http://a.test/', status_code: 200, markdown: '# Title\n\nWords of the page.', links: [{ url: 'http://a.test/b' }] as CrawlPageSuccess['links'], ...over,
});

describe('storedContent', () => {
  it('keeps the formats, the links and what the actions produced (not their screenshots)', () => {
    const actions = { screenshots: ['iVBORw0KGgo='], scrapes: [{ url: 'http://a.test/', html: '<p>then</p>' }], javascriptReturns: [{ type: 'number', value: 3 }], pdfs: [] };
    const { value, bytes } = storedContent(page({ actions }), 1_000_000);
    expect(value).toEqual({ markdown: '# Title\n\nWords of the page.', links: ['http://a.test/b'], actions: { scrapes: actions.scrapes, javascriptReturns: actions.javascriptReturns } });
    expect(bytes).toBe(Buffer.byteLength(JSON.stringify(value)));
  });

  it('over the bound, drops the scrape actions\' HTML before it cuts the formats', () => {
    const actions = { screenshots: [], scrapes: [{ url: 'http://a.test/', html: 'x'.repeat(5_000) }], javascriptReturns: [], pdfs: [] };
    const { value, bytes } = storedContent(page({ actions }), 1_000);
    expect(value.markdown).toBe('# Title\n\nWords of the page.');
    expect(value.actions).toEqual({ scrapes: [{ url: 'http://a.test/', html: '' }], javascriptReturns: [] });
    expect(value.truncated).toBe(true);
    expect(bytes).toBeLessThanOrEqual(1_000);
  });

  it('cuts the largest format when the page alone is over the bound', () => {
    const { value, bytes } = storedContent(page({ markdown: 'y'.repeat(5_000) }), 1_000);
    expect((value.markdown as string).length).toBeLessThan(1_000);
    expect(value.truncated).toBe(true);
    expect(bytes).toBeLessThanOrEqual(1_000);
  });
});
