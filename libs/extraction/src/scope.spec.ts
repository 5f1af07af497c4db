import { describe, expect, it } from '@jest/globals';
import { formatsOf } from '#contracts';
import { formatPage } from './format-page.js';

const PAGE = `<!doctype html><html><head><title>Scoped</title></head><body>
<nav><a href="/a">Home</a> <a href="/b">Pricing</a></nav>
<main><article><h1>The article</h1><p>First paragraph of the article, long enough to be the main content of this page.</p>
<p class="promo">Buy our newsletter today.</p><p>Second paragraph of the article with more words in it for the selection.</p></article></main>
<aside id="side"><p>Sidebar text that is not the article.</p></aside>
<footer><p>Footer words</p></footer></body></html>`;

const markdown = (scope: Parameters<typeof formatPage>[1]['scope']) =>
  formatPage(PAGE, { url: 'https://example.com/', formats: formatsOf({ markdown: true }), scope }).markdown ?? '';

describe('a page scope', () => {
  it('main content by default: no navigation, no sidebar', () => {
    const md = markdown(undefined);
    expect(md).toContain('First paragraph');
    expect(md).not.toContain('Pricing');
    expect(md).not.toContain('Sidebar text');
  });

  it('mainContent false: the whole page, navigation and sidebar included', () => {
    const md = markdown({ mainContent: false });
    expect(md).toContain('First paragraph');
    expect(md).toContain('Pricing');
    expect(md).toContain('Sidebar text');
  });

  it('exclude drops the selected elements', () => {
    const md = markdown({ exclude: ['.promo'] });
    expect(md).toContain('Second paragraph');
    expect(md).not.toContain('newsletter');
  });

  it('include keeps only the selected elements, in document order', () => {
    const md = markdown({ include: ['#side', 'nav'] });
    expect(md).toContain('Sidebar text');
    expect(md).toContain('Pricing');
    expect(md.indexOf('Pricing')).toBeLessThan(md.indexOf('Sidebar text'));
    expect(md).not.toContain('First paragraph');
  });

  it('links and metadata still come from the whole page', () => {
    const page = formatPage(PAGE, { url: 'https://example.com/', formats: formatsOf({ markdown: true }), links: true, scope: { include: ['#side'] } });
    expect(page.metadata.title).toBe('Scoped');
    expect(page.links?.map((l) => l.url)).toEqual(['https://example.com/a', 'https://example.com/b']);
  });
});
