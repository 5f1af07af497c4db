import { describe, expect, it } from '@jest/globals';
import { bodyOf, parseHtml, type Element } from '../dom.js';
import { removeProductRails } from './product-rail.js';
import { renderText } from '../text.js';
import { textAfterPass } from '#test/support/pass-text.js';

const railed = (body: string): string => textAfterPass(removeProductRails, body);
const card = (i: number): string =>
  `<div class="s-card s-card--${i}"><a href="/itm/${i}"><img src="/i/${i}.jpg" alt=""></a><span class="s-card__title">Clutch kit number ${i} for vans</span><span class="s-card__price">$${i}81.07</span></div>`;
const description = '<div class="x-desc"><p>This clutch kit fits the 2.3 litre engines of 2006 to 2011 and ships with its bearing.</p></div>';

describe('rails of other products on a product page', () => {
  it('drop a run of short priced cards that link elsewhere', () => {
    const out = railed(`${description}<div class="carousel">${[1, 2, 3, 4].map(card).join('')}</div>`);
    expect(out).toContain('ships with its bearing');
    expect(out).not.toContain('Clutch kit number');
  });

  it('keep a pair of such cards, cards without prices, and long priced sections of a roundup', () => {
    const features = [1, 2, 3].map((i) => `<div class="feature"><a href="/help/${i}">Feature ${i}</a> explained in a short line</div>`).join('');
    const sections = [1, 2, 3]
      .map((i) => `<section class="pick"><h2>Pick ${i}</h2><p>${'A long verdict with pros, cons and who should buy it. '.repeat(8)}</p><a href="/buy/${i}">$${i}9 at the shop</a></section>`)
      .join('');
    const out = railed(`${description}<div class="pair">${[1, 2].map(card).join('')}</div>${features}${sections}`);
    expect(out).toContain('Clutch kit number 2');
    expect(out).toContain('Feature 3 explained');
    expect(out).toContain('Pick 3');
  });

  it('drop a run of cards without prices that link to other items of the shop, given the page URL', () => {
    const addOn = (i: number): string => `<div class="add-on"><h3>Add-on number ${i}</h3><p>Fits the kit and doubles its reach.</p><a href="/products/add-on-${i}">Buy now</a></div>`;
    const guide = (i: number): string => `<div class="guide"><h3>Guide number ${i}</h3><p>How to fit the kit, step by step.</p><a href="/guides/fit-${i}">Read</a></div>`;
    const root = bodyOf(parseHtml(`<html><body>${description}<div class="add-ons">${[1, 2, 3].map(addOn).join('')}</div>${[1, 2, 3].map(guide).join('')}</body></html>`)) as Element;
    removeProductRails([root], 'https://shop.example/products/clutch-kit');
    const out = renderText(root);
    expect(out).not.toContain('Add-on number');
    expect(out).toContain('Guide number 3');
    expect(out).toContain('ships with its bearing');
  });
});
