import { describe, expect, it } from '@jest/globals';
import { bodyOf, findFirst, parseHtml, textContent, type Element } from '../dom.js';
import { faqOutside } from './faq.js';
import { formatPage } from '../index.js';

const TEXT = { raw_html: false, enhanced_html: false, markdown: false, page_text: true };
const sentence = (i: number): string => `Sentence ${i} says what the service does for a team, with commas, detail, and care.`;
const prose = (n: number): string => Array.from({ length: n }, (_, i) => `<p>${sentence(i)} ${sentence(i + 100)} ${sentence(i + 200)}</p>`).join('');
const qa = (i: number): string => `<div class="item"><h3>Question ${i}?</h3><div class="answer">Answer ${i}: yes, and the plan covers it for every member of the team.</div></div>`;
const faq = `<section class="home-faq"><h2>Questions</h2>${[1, 2, 3, 4].map(qa).join('')}</section>`;

describe('faqOutside', () => {
  it('finds an FAQ block outside the pick, and none inside it', () => {
    const doc = parseHtml(`<html><body><div class="copy">${prose(2)}</div><div class="band">${faq}</div></body></html>`);
    const pick = findFirst(bodyOf(doc), (e) => e.attribs.class === 'copy') as Element;
    expect(faqOutside(doc, [pick]).map((e) => e.attribs.class)).toEqual(['home-faq']);
    const band = findFirst(bodyOf(doc), (e) => e.attribs.class === 'band') as Element;
    expect(faqOutside(doc, [band])).toEqual([]);
  });
  it('ignores a short block named FAQ (a link to the help centre)', () => {
    const doc = parseHtml(`<html><body><div class="copy">${prose(2)}</div><div class="faq-link"><a href="/help">FAQ</a></div></body></html>`);
    const pick = findFirst(bodyOf(doc), (e) => e.attribs.class === 'copy') as Element;
    expect(faqOutside(doc, [pick])).toEqual([]);
    expect(textContent(pick)).toContain('Sentence 0');
  });
});

describe('a service page with an FAQ', () => {
  it('keeps the FAQ beside its pick', () => {
    const teasers = `<div class="more">${Array.from({ length: 20 }, (_, i) => `<p><a href="/r/${i}">Related reading number ${i} for teams</a></p>`).join('')}</div>`;
    const html = `<html><head><title>Service</title></head><body><div class="wrap"><div class="copy">${prose(6)}</div>${teasers}</div><div class="band">${faq}</div></body></html>`;
    const out = formatPage(html, { url: 'https://service.example/', formats: TEXT });
    expect(out.metadata).toMatchObject({ pageType: 'service' });
    expect(out.page_text).toContain('Sentence 5 says');
    expect(out.page_text).toContain('Answer 4: yes');
  });
});

describe('an FAQ inside the pick', () => {
  const entry = (i: number): string =>
    `<div class="entry"><a href="#" class="toggle"><h3>Can I move plan ${i} later?</h3></a><div class="answer"><p>Yes: see <a href="/plans">our plans</a> and <a href="/billing">billing</a>.</p></div></div>`;
  const page = (faqClass: string): string =>
    `<html><head><title>Guide</title><meta property="og:type" content="article"><meta property="article:published_time" content="2024-05-01"></head><body><article><h1>Guide</h1>${prose(6)}<div class="${faqClass}"><h2>Questions</h2>${[1, 2, 3].map(entry).join('')}</div></article></body></html>`;

  it('is kept whole, though its entries read as link blocks', () => {
    const out = formatPage(page('faq-list'), { url: 'https://guide.example/a', formats: TEXT }).page_text ?? '';
    expect(out).toContain('Sentence 5 says');
    expect(out).toContain('Can I move plan 3 later?');
    expect(out).toContain('Yes: see our plans and billing.');
  });

  it('is pruned like any other block when nothing names it an FAQ', () => {
    const out = formatPage(page('list'), { url: 'https://guide.example/a', formats: TEXT }).page_text ?? '';
    expect(out).toContain('Sentence 5 says');
    expect(out).not.toContain('Yes: see our plans');
  });
});

describe('a service page whose pick is mostly its FAQ', () => {
  it('widens to the sections above the FAQ', () => {
    const answer = (i: number): string => `<div class="faq-item"><h3>Question ${i}?</h3><p>${sentence(i)} ${sentence(i + 10)} ${sentence(i + 20)} ${sentence(i + 30)}</p></div>`;
    const html = `<html><head><title>Service</title></head><body><main>
      <section class="hero"><h1>Payroll for small teams</h1><p>Run payroll in minutes.</p></section>
      <section class="band"><h2>Answers</h2><p>${sentence(99)}</p><div class="list">${Array.from({ length: 8 }, (_, i) => answer(i)).join('')}</div></section>
    </main></body></html>`;
    const out = formatPage(html, { url: 'https://payroll.example/', formats: TEXT });
    expect(out.metadata).toMatchObject({ pageType: 'service' });
    expect(out.page_text).toContain('Question 7?');
    expect(out.page_text).toContain('Run payroll in minutes.');
  });
});
