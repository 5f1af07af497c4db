import { describe, expect, it } from '@jest/globals';
import { bodyOf, parseHtml, textContent } from '../dom.js';
import { removeRecirculation } from './recirculation.js';

/** The page's text once its recirculation rails are removed. */
const withoutRails = (html: string): string => {
  const doc = parseHtml(html);
  removeRecirculation([bodyOf(doc)]);
  return textContent(bodyOf(doc));
};

const sentence = (i: number): string => `Sentence ${i} describes the product in plain words, with commas, detail, and care.`;
const prose = (n: number): string => Array.from({ length: n }, (_, i) => `<p>${sentence(i)} ${sentence(i + 100)} ${sentence(i + 200)}</p>`).join('');
const cards = (label: string): string => Array.from({ length: 6 }, (_, i) => `<div class="c${i % 2}"><a href="/x/${i}">${label} ${i}</a><span>$${i}9.00</span></div>`).join('');

describe('recommendation rails (removeRecirculation)', () => {
  it('removes a rail wrapped with its heading, and keeps the product text', () => {
    const text = withoutRails(`<body><div id="c">${prose(3)}<div class="x1"><div class="x2"><h2>People who viewed this item also viewed</h2></div><div class="x3">${cards('Other thing')}</div></div></div></body>`);
    expect(text).toContain('Sentence 2 describes');
    expect(text).not.toContain('also viewed');
    expect(text).not.toContain('Other thing');
  });

  it('removes a rail whose cards carry their own headings, up to the next heading of its rank', () => {
    const card = (i: number): string => `<li class="card"><h3>Other kettle ${i}</h3><a href="/k/${i}">View</a></li>`;
    const text = withoutRails(`<body><div id="c">${prose(3)}<h2>Care</h2><p>Wash cold.</p><div class="x1"><div class="x2"><h2>You may also like</h2></div><ul class="x3">${card(1)}${card(2)}</ul></div></div></body>`);
    expect(text).not.toContain('Other kettle');
    expect(text).toContain('Wash cold.');
    expect(text).toContain('Sentence 2 describes');
  });

  it('removes an "explore related" rail', () => {
    const text = withoutRails(`<body><div id="c">${prose(3)}<div class="x1"><h2>Explore related items</h2><div class="x3">${cards('Nearby thing')}</div></div></div></body>`);
    expect(text).not.toContain('Nearby thing');
    expect(text).toContain('Sentence 2 describes');
  });

  it("removes the rail of posts that closes a service page (\"From our blog\", \"Featured insights\")", () => {
    const posts = (label: string): string => Array.from({ length: 3 }, (_, i) => `<div class="t"><span>6 min read</span><h3><a href="/p/${i}">${label} ${i}</a></h3></div>`).join('');
    for (const heading of ['From our blog', 'Featured insights', 'Latest insights']) {
      const text = withoutRails(`<body><div id="c">${prose(3)}<section class="s1"><h2>${heading}</h2><div class="g">${posts('Survey of teams')}</div></section></div></body>`);
      expect(text).toContain('Sentence 2 describes');
      expect(text).not.toContain('Survey of teams');
    }
  });

  it('removes the rail of case studies that a service page features ("Featured client stories", "Related case studies")', () => {
    const story = (i: number): string => `<div class="card"><h3><a href="/stories/${i}">Regional bank ${i} modernises its payments</a></h3><p>5 min read</p><p>A client of ours moved its ledger to the cloud in a year.</p></div>`;
    for (const heading of ['Featured client stories', 'Related case studies', 'Featured customer stories']) {
      const text = withoutRails(`<body><div id="c">${prose(3)}<section class="s1"><h2>${heading}</h2><div class="g">${story(1)}${story(2)}</div></section></div></body>`);
      expect(text).toContain('Sentence 2 describes');
      expect(text).not.toContain('Regional bank');
    }
  });

  it('removes a heading and the blocks after it, up to the next heading, in a flat layout', () => {
    const text = withoutRails(`<body><h2>Details</h2>${prose(2)}<h3>You may also like</h3><ul><li><a href="/a">Other thing A</a></li></ul><h2>Care</h2><p>Wash cold.</p></body>`);
    expect(text).not.toContain('Other thing A');
    expect(text).toContain('Wash cold.');
    expect(text).toContain('Details');
  });

  it('does not climb into the content that holds the rail', () => {
    const text = withoutRails(`<body><div class="article">${prose(4)}<h2>Related articles</h2><ul><li><a href="/a">Another story</a></li></ul></div></body>`);
    expect(text).toContain('Sentence 3 describes');
    expect(text).not.toContain('Another story');
  });

  it('leaves a heading that only mentions the words', () => {
    const doc = parseHtml(`<body><h2>Why customers also love our warranty service, explained in full detail here and now</h2>${prose(1)}</body>`);
    removeRecirculation([bodyOf(doc)]);
    expect(textContent(bodyOf(doc))).toContain('warranty service');
  });
});
