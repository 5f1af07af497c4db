import { describe, expect, it } from '@jest/globals';
import { parseHtml, findFirst } from '../dom.js';
import { sectionStats, spreadOverSections } from './sections.js';

const el = (html: string): ReturnType<typeof findFirst> & object => {
  const found = findFirst(parseHtml(html), (e) => e.name === 'div');
  if (!found) throw new Error('no div');
  return found;
};

describe('sectionStats', () => {
  it('counts text, link text and h2–h4 headings', () => {
    const s = sectionStats([el('<div><h2>Ab</h2><p>cd  ef <a href="/x">gh</a></p><h5>no</h5></div>')]);
    expect(s).toEqual({ text: 2 + 5 + 2 + 2, link: 2, headings: 1 });
  });
});

describe('spreadOverSections', () => {
  const pick = { text: 1000, link: 0, headings: 1 };
  it('holds when the rest is text under two more headings', () => {
    expect(spreadOverSections({ text: 2500, link: 300, headings: 3 }, pick)).toBe(true);
  });
  it('fails when the rest has fewer than two headings of its own', () => {
    expect(spreadOverSections({ text: 2500, link: 0, headings: 2 }, pick)).toBe(false);
  });
  it('fails when the rest is mostly links', () => {
    expect(spreadOverSections({ text: 2500, link: 600, headings: 5 }, pick)).toBe(false);
  });
});
