import { describe, expect, it } from '@jest/globals';
import { removeAdCards } from './ad-cards.js';
import { textAfterPass } from '#test/support/pass-text.js';

const cleaned = (body: string): string => textAfterPass(removeAdCards, body);
const product = '<div class="pdp"><h1>Oak desk lamp</h1><p>A lamp turned from one piece of oak, with a linen shade and a dimmer on its cord.</p><span class="price">$89.00</span></div>';
const entry = (i: number): string => `<div class="row"><a href="https://tools.example/p/${i}">Tool number ${i}</a><p>A tool that does one thing well.</p></div>`;

describe('paid placements among cards', () => {
  it('drop a card labelled "Sponsored" in a product rail, and a "Promoted" entry of a directory', () => {
    const ad = '<div class="x1"><a href="https://shop.example/p/chair"><span>Walnut chair</span></a><div>$659.99 was $761.98</div><div class="x2"><p>Sponsored</p></div></div>';
    expect(cleaned(`${product}<div class="rail">${ad}</div>`)).not.toContain('Walnut chair');
    const promoted = '<div data-test="ad-slot-7"><a href="https://tools.example/p/ad">Dictation app</a><p>Stop typing, start speaking.</p><a href="#">Promoted</a></div>';
    const out = cleaned(`<div class="feed">${entry(1)}${promoted}${entry(2)}</div>`);
    expect(out).not.toContain('Dictation app');
    expect(out).toContain('Tool number 2');
  });

  it('drop a sponsored banner that script makes clickable: a picture, a name, a price and the label', () => {
    const banner = '<div class="b1"><div><img src="https://img.example/chair.jpg" alt="Walnut chair"></div><p>Walnut chair</p><p>$659.99</p><p>Sponsored</p></div>';
    expect(cleaned(`${product}${banner}`)).not.toContain('Walnut chair');
  });

  it('keep a sponsored article: its label sits by the headline and its body', () => {
    const article = `<article><header><p>Sponsored</p><h1>How we built the bridge</h1></header><p>${'The bridge took three winters to build. '.repeat(5)}<a href="https://news.example/more">More</a></p></article>`;
    const out = cleaned(article);
    expect(out).toContain('How we built the bridge');
    expect(out).toContain('three winters');
  });

  it('keep a labelled block that links nowhere, and text that only mentions a sponsor', () => {
    const note = '<div class="note"><p>Sponsored</p><p>This guide is free thanks to our readers.</p></div>';
    const mention = '<div class="card"><a href="https://tools.example/p/3">Sponsored by the city</a><p>A walking tour.</p></div>';
    const out = cleaned(`${product}${note}${mention}`);
    expect(out).toContain('free thanks to our readers');
    expect(out).toContain('A walking tour');
  });
});
