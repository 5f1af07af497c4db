import { describe, expect, it } from '@jest/globals';
import { removeCompareControls } from './compare-controls.js';
import { textAfterPass } from '#test/support/pass-text.js';

const cleaned = (body: string): string => textAfterPass(removeCompareControls, body);

describe('compare toggles on the cards of a grid', () => {
  it('drop a "Compare" checkbox label and an "Add to Compare" link on each card', () => {
    const card = (i: number): string =>
      `<li class="tile"><a href="https://shop.example/p/${i}">Desk lamp ${i}</a><span class="price">$${i}9</span><div class="cmp"><input type="checkbox" id="c${i}"><label for="c${i}">Compare</label></div><div class="actions"><a href="https://shop.example/compare/add/${i}"><span>Add to Compare</span></a></div></li>`;
    const out = cleaned(`<ul>${[1, 2, 3].map(card).join('')}</ul>`);
    expect(out).toContain('Desk lamp 3');
    expect(out).not.toMatch(/compare/i);
  });

  it('keep "compare" in a sentence, in a heading and as the start of a longer label', () => {
    const out = cleaned('<h2>Compare</h2><p>Compare the lamps side by side before you buy.</p><p>Use the <a href="/c">compare</a> tool.</p><a href="/t">Compare top products</a>');
    expect(out).toContain('Compare\n');
    expect(out).toContain('side by side');
    expect(out).toContain('Use the compare tool');
    expect(out).toContain('Compare top products');
  });
});
