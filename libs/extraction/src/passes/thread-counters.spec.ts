import { describe, expect, it } from '@jest/globals';
import { removeThreadCounters } from './thread-counters.js';
import { textAfterPass } from '#test/support/pass-text.js';

const cleaned = (body: string): string => textAfterPass(removeThreadCounters, body);

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

  it("drop the poster panel's statistics: label and number or date lines, and lists of such pairs", () => {
    const out = cleaned(
      `<div class="post"><dl class="postprofile"><dt><a href="/u/1">Ann</a></dt><dd>Senator</dd><dd><strong>Posts:</strong> 4032</dd><dd><strong>Joined:</strong> Dec 11, 2021</dd></dl><div class="message"><p>Oil the ways weekly.</p></div></div>` +
        `<div class="post"><dl class="pairs"><dt>Messages</dt><dd>1,234</dd><dt>Likes received</dt><dd>2.5k</dd></dl><div class="message"><p>And wipe them first.</p></div></div>`,
    );
    expect(out).toContain('Ann');
    expect(out).toContain('Oil the ways weekly.');
    expect(out).toContain('And wipe them first.');
    expect(out).not.toMatch(/Posts:|4032|Joined:|2021|Messages|1,234|Likes received/);
  });

  it('keep label lines whose value is words, and labels inside sentences', () => {
    const out = cleaned(`<p>Update: fixed by a new belt.</p><p>My lathe has <b>Speed: 1200</b> on its plate.</p>`);
    expect(out).toContain('Update: fixed by a new belt.');
    expect(out).toContain('Speed: 1200');
  });

  it('drop a post number linking to its post from a list of controls, and keep list values', () => {
    const out = cleaned(`<div class="post"><ul class="controls"><li><a href="/t/lathes.9/#post-7">#7</a></li><li><a href="/report">Report</a></li></ul><p>Use a live centre.</p><ol><li>#2 pencil</li><li><a href="/sizes">#5</a> and #6 bits</li></ol></div>`);
    expect(out).toContain('Use a live centre.');
    expect(out).not.toMatch(/#7/);
    expect(out).toContain('#2 pencil');
    expect(out).toContain('#5 and #6 bits');
  });
});

