import { describe, expect, it } from '@jest/globals';
import { formatPage } from '../index.js';
import { bodyOf, parseHtml } from '../dom.js';
import { largestFeed } from './feed.js';

const page = (body: string): string => `<!doctype html><html><head><title>Field notes</title></head><body>${body}</body></html>`;
const intro = (n: number): string =>
  Array.from({ length: n }, (_, i) => `<p>Paragraph ${i} of the introduction to this index, written by the editors, with enough words, commas, and clauses to read as prose to anyone.</p>`).join('');
const entries = (n: number, picture = true): string =>
  `<ul class="grid">${Array.from({ length: n }, (_, i) => `<li class="tile">${picture ? `<img src="/t/${i}.jpg" alt="">` : ''}<a href="/notes/${i}">Field note number ${i} from the hills</a></li>`).join('')}</ul>`;
const text = (html: string): string => formatPage(html, { url: 'https://site.example/notes/', formats: { raw_html: false, enhanced_html: false, markdown: false, page_text: true } }).page_text ?? '';

describe('a listing keeps its feed of cards (feed.ts)', () => {
  it('adds the grid of entries beside the intro the scorer picked', () => {
    const out = text(page(`<h1>Field notes</h1><div class="intro">${intro(3)}</div>${entries(10)}`));
    expect(out).toContain('Paragraph 0 of the introduction');
    expect(out).toContain('Field note number 0 from the hills');
    expect(out).toContain('Field note number 9 from the hills');
  });

  it('does not take a menu of bare links for the feed', () => {
    const menu = `<ul class="cats">${Array.from({ length: 20 }, (_, i) => `<li class="cat"><a href="/c/${i}">Category of field notes number ${i}</a></li>`).join('')}</ul>`;
    const doc = parseHtml(page(`${menu}<div class="intro">${intro(1)}</div>${entries(6)}`));
    expect(largestFeed(bodyOf(doc))?.attribs.class).toBe('grid');
    expect(largestFeed(bodyOf(parseHtml(page(`${menu}${entries(6, false)}`))))).toBeUndefined();
  });

  it('keeps the grid that the pick of a category holds from pruning: its cards are mostly links', () => {
    const tiles = Array.from({ length: 12 }, (_, i) => `<div class="tile"><a href="/p/${i}"><img src="/p/${i}.jpg" alt=""></a><div class="name"><a href="/p/${i}">Standing desk model ${i} in oak</a></div><span class="price">$${i}99</span></div>`).join('');
    const html = page(`<h1>Desks</h1><div class="category">${intro(2)}<div class="grid">${tiles}</div></div>`);
    const out = formatPage(html, { url: 'https://shop.example/c/desks', formats: { raw_html: false, enhanced_html: false, markdown: false, page_text: true }, pageType: 'collection' }).page_text ?? '';
    expect(out).toContain('Paragraph 1 of the introduction');
    expect(out).toContain('Standing desk model 11 in oak');
  });

  it('adds the grid beside a category whose pick is a blurb, not beside a category with an article of its own', () => {
    const tiles = Array.from({ length: 12 }, (_, i) => `<li class="tile"><img src="/p/${i}.jpg" alt=""><a href="/p/${i}">Oak standing desk, size ${i}</a><span class="price">$${i}99</span></li>`).join('');
    const blurb = `<div class="about"><p>${'Our standing desks are built to order in our own workshop, from solid oak and steel, and they ship flat with every tool you need. '.repeat(2)}</p></div>`;
    const opts = { url: 'https://shop.example/c/desks', formats: { raw_html: false, enhanced_html: false, markdown: false, page_text: true }, pageType: 'collection' as const };
    expect(formatPage(page(`<h1>Desks</h1>${blurb}<ul class="grid">${tiles}</ul>`), opts).page_text).toContain('Oak standing desk, size 11');
    const article = `<div class="about">${[1, 2, 3].map((i) => `<p>Chapter ${i}. ${'How to pick the height, the depth and the frame of a standing desk, and why oak outlasts the veneers. '.repeat(2)}</p>`).join('')}</div>`;
    expect(formatPage(page(`<h1>Desks</h1>${article}<ul class="grid">${tiles}</ul>`), opts).page_text).not.toContain('Oak standing desk, size 11');
  });
});

