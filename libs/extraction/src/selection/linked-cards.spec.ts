import { describe, expect, it } from '@jest/globals';
import { bodyOf, parseHtml } from '../dom.js';
import { extractMainContent } from './main-content.js';
import { profileOf } from '../profile.js';
import { renderText } from '../text.js';

/** The main content of `html` as selected and pruned, on a service page (`landing`) or an article. */
function content(html: string, landing: boolean): string {
  const nodes = extractMainContent(bodyOf(parseHtml(html)), profileOf(landing ? 'service' : 'article'));
  return nodes ? renderText(nodes) : '';
}

const intro = (i: number): string =>
  `<p>Paragraph ${i} says what the firm does for its clients, in plain words, with detail, care, and a few commas to read like prose.</p>`;
/** A card wrapped whole in its link: the heading, the description and the "find out more" label. */
const card = (name: string): string =>
  `<div class="col"><div class="tile"><a href="/services/${name.toLowerCase()}"><div class="tile__content"><h3>${name}</h3>` +
  `<div class="tile__desc">Our ${name.toLowerCase()} team helps leaders plan, build and run what the business needs next.</div>` +
  `<div class="tile__more"><span>Find out more</span></div></div></a></div></div>`;
const page = `<html><body><div class="page"><div class="body"><h1>Our services</h1>${[1, 2, 3, 4].map(intro).join('')}
  <div class="grid">${['Audit', 'Tax', 'Consulting'].map(card).join('')}</div>${intro(5)}</div></div>
  <div class="links"><a href="/a">Careers</a> <a href="/b">Offices around the world</a></div></body></html>`;

describe('cards wrapped whole in their link (pruning a service page)', () => {
  it('keeps the grid of offers on a service page, each card a heading and a description inside one link', () => {
    const text = content(page, true);
    expect(text).toContain('Paragraph 4 says');
    expect(text).toContain('Our audit team helps leaders');
    expect(text).toContain('Our consulting team helps leaders');
  });

  it('still prunes them as a block of links elsewhere, and a plain link list on a service page', () => {
    expect(content(page, false)).not.toContain('Our audit team helps leaders');
    expect(content(page, true)).not.toContain('Offices around the world');
  });
});

/** A card under its own heading with a line of plain text, linking a few roles it staffs. */
const roleCard = (name: string): string =>
  `<div class="card"><h3>${name}</h3><span>Specialists who keep ${name.toLowerCase()} accurate, timely and compliant.</span>` +
  `<h6>Top roles:</h6><a href="/jobs/${name.length}a">${name} manager</a> <a href="/jobs/${name.length}b">Analyst</a></div>`;

describe('a section of headed feature cards that link a few details each (pruning a service page)', () => {
  const html = `<html><body><div class="page"><div class="body"><h1>Finance talent</h1>${[1, 2, 3, 4].map(intro).join('')}
    <div class="cards-wrapper">${['Payroll', 'Accounting', 'Collections'].map(roleCard).join('')}</div>${intro(5)}</div></div></body></html>`;

  it('keeps the cards on a service page: mostly plain text under headings is a section, not a link block', () => {
    expect(content(html, true)).toContain('Specialists who keep accounting accurate');
  });

  it('still prunes them elsewhere', () => {
    expect(content(html, false)).not.toContain('Specialists who keep accounting accurate');
  });
});
