import { describe, expect, it } from '@jest/globals';
import { removeRepeatedQuotes } from './forum-quotes.js';
import { formatPage } from '../index.js';
import { textAfterPass } from '#test/support/pass-text.js';

const cleaned = (body: string): string => textAfterPass(removeRepeatedQuotes, body);

const first = `<div class="msg js-selectToQuote"><p>My lathe chatters on long cuts of mild steel, even at low speed.</p></div>`;

describe('quotes in a thread', () => {
  it('drop a reply quote that repeats a post on the page, with its header', () => {
    const out = cleaned(
      `${first}<div class="msg js-selectToQuote"><blockquote class="quote"><div>Ann said:</div><p>My lathe chatters on long cuts of mild steel, even at low speed.</p><div>Click to expand...</div></blockquote><p>Check the gib screws first.</p></div>`,
    );
    expect(out.match(/My lathe chatters/g)).toHaveLength(1);
    expect(out).not.toContain('Ann said:');
    expect(out).toContain('Check the gib screws first.');
  });

  it('drop a quote block named by its class, not a post body named by a script hook', () => {
    const out = cleaned(`${first}<div class="msg js-selectToQuote"><div class="post-quote">My lathe chatters on long cuts of mild steel, even at low speed.</div><p>Sharpen the tool.</p></div>`);
    expect(out.match(/My lathe chatters/g)).toHaveLength(1);
    expect(out).toContain('Sharpen the tool.');
  });

  it('keep a quote of words the page does not hold elsewhere', () => {
    const out = cleaned(`<div class="msg"><blockquote><p>Tighten the gibs until the carriage drags slightly.</p></blockquote><p>So says the manual.</p></div>`);
    expect(out).toContain('Tighten the gibs until the carriage drags slightly.');
  });

  it('apply to any page: a thread read as an article, an article with a pull quote', () => {
    const prose = Array.from({ length: 4 }, (_, i) => `<p>Paragraph ${i} of the story, with enough words, commas, and sentences to read like real prose here.</p>`).join('');
    const html = `<!doctype html><html><head><title>T</title><script type="application/ld+json">{"@type":"NewsArticle"}</script></head><body><article>${prose}<p>The bridge reopened after nine years of repairs and delays.</p><blockquote><p>The bridge reopened after nine years of repairs and delays.</p></blockquote>${prose}</article></body></html>`;
    const out = formatPage(html, { url: 'https://site.example/news/bridge.html', formats: { raw_html: false, enhanced_html: false, markdown: false, page_text: true } });
    expect(out.metadata).toMatchObject({ pageType: 'article' });
    expect(out.page_text?.match(/The bridge reopened/g)).toHaveLength(1);
  });
});
