import { describe, expect, it } from '@jest/globals';
import { bodyOf, parseHtml, type Element } from './dom.js';
import { removeRepeatedQuotes } from './forum-quotes.js';
import { renderText } from './text.js';

const cleaned = (body: string): string => {
  const root = bodyOf(parseHtml(`<html><body>${body}</body></html>`)) as Element;
  removeRepeatedQuotes([root]);
  return renderText(root);
};

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
});
