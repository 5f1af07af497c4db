import { describe, expect, it } from '@jest/globals';
import { bodyOf, parseHtml, type Element } from './dom.js';
import { removeThreadCounters } from './thread-counters.js';
import { renderText } from './text.js';

const cleaned = (body: string): string => {
  const root = bodyOf(parseHtml(`<html><body>${body}</body></html>`)) as Element;
  removeThreadCounters([root]);
  return renderText(root);
};

describe('counters on a thread', () => {
  it('drop vote scores and post numbers that stand apart', () => {
    const out = cleaned(`<div class="answer"><div class="votecell"><div class="js-vote-count">17</div></div><div class="postcell"><p>Use a bigger breaker.</p></div><span class="post-number"><a href="#p7">#7</a></span></div>`);
    expect(out).toContain('Use a bigger breaker.');
    expect(out).not.toMatch(/\b17\b/);
    expect(out).not.toContain('#7');
  });

  it('keep numbers inside sentences, table cells and list items', () => {
    const out = cleaned(`<p>I have <b>2</b> breakers.</p><table><tr><td>Amps</td><td>16</td></tr></table><ol><li>42</li></ol>`);
    expect(out).toContain('I have 2 breakers.');
    expect(out).toContain('16');
    expect(out).toContain('42');
  });
});
