import { describe, expect, it } from '@jest/globals';
import { cleanDocument } from './clean.js';
import { bodyOf, parseHtml } from '../dom.js';
import { formatPage } from '../format-page.js';
import { placeStreamedContent } from './streamed-content.js';
import { renderText } from '../text.js';

const streamedArticle = `<html><head><title>Index funds explained</title></head><body>
  <header><nav><a href="/">Home</a> <a href="/news">News</a></nav></header>
  <main><article><h1>Index funds explained</h1>
    <!--$?--><template id="B:0"></template><div class="skeleton">Loading paragraph...</div><!--/$-->
    <!--$?--><template id="B:1"></template><p>Loading paragraph...</p><!--$--><span>nested fallback</span><!--/$--><!--/$-->
    <p>Written by a staff writer.</p>
  </article></main>
  <footer>© Example</footer>
  <div hidden id="S:0"><p>An index fund tracks a market index instead of picking stocks one by one, which keeps its fees low.</p><template id="P:2"></template></div>
  <div hidden id="S:1"><p>Over long periods, most actively managed funds trail the index their managers try to beat.</p></div>
  <div hidden id="S:2"><p>Buying a broad index fund spreads the money over hundreds of companies at once.</p></div>
  <script>$RC("B:0","S:0")</script>
</body></html>`;

describe('content streamed by a server renderer', () => {
  it('moves each hidden segment to its placeholder, in place of the fallback, as the page script would', () => {
    const doc = parseHtml(streamedArticle);
    placeStreamedContent(doc);
    const text = renderText(bodyOf(doc));
    expect(text).not.toContain('Loading paragraph');
    expect(text).not.toContain('nested fallback');
    const order = ['tracks a market index', 'spreads the money', 'trail the index', 'Written by a staff writer'].map((s) => text.indexOf(s));
    expect(order.every((i) => i >= 0)).toBe(true);
    expect(order).toEqual([...order].sort((a, b) => a - b));
  });

  it('extracts the streamed paragraphs as the article body', () => {
    const page = formatPage(streamedArticle, { url: 'https://news.example/funds', formats: { raw_html: false, enhanced_html: false, markdown: false, page_text: true } });
    expect(page.page_text).toContain('An index fund tracks a market index');
    expect(page.page_text).toContain('most actively managed funds trail the index');
    expect(page.page_text).not.toContain('Loading paragraph');
  });

  it('leaves a hidden div without a placeholder hidden, and keeps a fallback it cannot delimit', () => {
    const doc = parseHtml(`<html><body><main><template id="B:0"></template><p>Fallback text stays.</p><p>An article paragraph long enough to read.</p></main>
      <div hidden id="S:0"><p>Streamed paragraph.</p></div><div hidden id="S:9"><p>Orphan segment.</p></div></body></html>`);
    cleanDocument(doc, { url: 'https://news.example/a', aggressive: false });
    const text = renderText(bodyOf(doc));
    expect(text).toContain('Streamed paragraph.');
    expect(text).toContain('Fallback text stays.');
    expect(text).not.toContain('Orphan segment.');
  });
});
