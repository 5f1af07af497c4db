import { describe, expect, it } from '@jest/globals';
import { findAll, parseHtml, textContent, type Element } from '../dom.js';
import { formatPage } from '../index.js';
import { sectionRun } from './section-run.js';

const TEXT = { raw_html: false, enhanced_html: false, markdown: false, page_text: true };
const sentence = (i: number): string => `Sentence ${i} explains the model step by step, with its trade-offs, costs, and risks.`;
const paragraphs = (from: number, n: number): string => Array.from({ length: n }, (_, i) => `<p>${sentence(from + i)} ${sentence(from + i + 50)}</p>`).join('');
/** One block of the template: heading and paragraphs under wrappers, as component frameworks render them. */
const block = (cls: string, s: number, n: number): string =>
  `<section class="${cls}"><div class="container"><div class="wrapper"><div class="rich"><h2>Part ${s}</h2>${paragraphs(s * 100, n)}</div><div class="media"><img src="/p${s}.png" alt=""></div></div></div></section>`;

/** Text and link stats of an element, as the scorer keeps them. */
const stats = (el: Element): { text: number; link: number } => ({
  text: textContent(el).replace(/\s+/g, ' ').trim().length,
  link: findAll(el, (e) => e.name === 'a').reduce((a, e) => a + textContent(e).replace(/\s+/g, ' ').trim().length, 0),
});
const richOf = (html: string, part: number): Element => findAll(parseHtml(html), (e) => e.attribs.class === 'rich')[part];

describe('sectionRun', () => {
  it('finds the run of same-template sections that holds the pick', () => {
    const html = `<body><div class="post">${[1, 2, 3, 4].map((s) => block('blog-section', s, 3)).join('')}</div></body>`;
    const run = sectionRun(richOf(html, 1), stats);
    expect(run?.map((e) => e.attribs.class)).toEqual(['blog-section', 'blog-section', 'blog-section', 'blog-section']);
  });
  it('finds a run whose class names are hashes with digits (CSS modules)', () => {
    const html = `<body><div class="post">${[1, 2, 3, 4].map((s) => block('cdb42bcc', s, 3).replace(/<(\/?)section\b/g, '<$1div')).join('')}</div></body>`;
    expect(sectionRun(richOf(html, 2), stats)?.length).toBe(4);
  });
  it('finds nothing when the blocks around the pick have other templates', () => {
    const html = `<body><div class="post">${block('hero', 1, 3)}${block('features', 2, 3)}${block('pricing', 3, 3)}</div></body>`;
    expect(sectionRun(richOf(html, 1), stats)).toBeUndefined();
  });
  it('finds nothing when the run is of link cards', () => {
    const card = (i: number): string => `<section class="card"><div class="container"><a href="/s/${i}">A teaser headline number ${i} that leads to another story on the site</a></div></section>`;
    const html = `<body><div class="post">${block('card', 1, 3)}${[2, 3, 4, 5].map(card).join('')}</div></body>`;
    expect(sectionRun(richOf(html, 0), stats)).toBeUndefined();
  });
});

describe('an article rendered as a run of sections', () => {
  it('keeps every section, not only the one that scores best', () => {
    const ld = '<script type="application/ld+json">{"@type":"Article","datePublished":"2025-01-01"}</script>';
    const sections = [block('blog-section', 1, 3), block('blog-section', 2, 8), block('blog-section', 3, 3), block('blog-section', 4, 3)].join('');
    const html = `<html><head><title>Models compared</title>${ld}</head><body><nav><a href="/">Home</a></nav><div class="post">${sections}</div></body></html>`;
    const out = formatPage(html, { url: 'https://blog.example/models', formats: TEXT });
    expect(out.page_text).toContain('Sentence 200 explains');
    expect(out.page_text).toContain('Sentence 100 explains');
    expect(out.page_text).toContain('Sentence 400 explains');
  });
});

describe('a page whose sections each have a heading but no common template', () => {
  /** A band of the page: a heading and a short paragraph or two, under a wrapper whose class is its own. */
  const band = (cls: string, s: number, n: number): string =>
    `<div class="${cls}"><div class="row"><div class="col"><h3>Feature ${s}</h3>${paragraphs(s * 100, n)}</div></div></div>`;
  const page = (bands: string): string =>
    `<html><head><title>Free planner</title><script type="application/ld+json">{"@type":"Review","datePublished":"2025-01-01"}</script></head>` +
    `<body><nav><a href="/">Home</a></nav>${bands}</body></html>`;

  it('keeps every headed section under <body>, not only the one that scores best', () => {
    const bands = [band('container', 1, 1), band('container', 2, 1), band('container wide', 3, 6), band('container', 4, 1), band('container', 5, 1), band('container', 6, 1)].join('');
    const out = formatPage(page(bands), { url: 'https://planner.example/free', formats: TEXT });
    expect(out.page_text).toContain('Sentence 300 explains');
    expect(out.page_text).toContain('Sentence 100 explains');
    expect(out.page_text).toContain('Sentence 600 explains');
  });

  it('keeps an article alone when only a few headed blocks stand beside it', () => {
    const bands = [band('story', 1, 12), band('about-author', 2, 1), band('signup', 3, 1)].join('');
    const out = formatPage(page(bands), { url: 'https://planner.example/free', formats: TEXT });
    expect(out.page_text).toContain('Sentence 100 explains');
    expect(out.page_text).not.toContain('Sentence 300 explains');
  });
});

describe('a headed section nested deep in page-builder wrappers', () => {
  it('keeps the sibling sections of a pick wrapped seven levels down', () => {
    // Each wrapper also holds an image, so none is an only child that the pick climbs through.
    const wrap = (inner: string, depth: number): string => (depth === 0 ? inner : `<div class="wrap-${depth}"><img src="/w${depth}.png" alt="">${wrap(inner, depth - 1)}</div>`);
    const band = (s: number, n: number): string => `<div class="band-${s}"><h2>Service ${s}</h2>${paragraphs(s * 100, n)}</div>`;
    const deep = `<div class="intro"><h2>Service 3</h2>${wrap(`<div class="copy">${paragraphs(300, 12)}</div>`, 6)}</div>`;
    const html =
      `<html><head><title>Analytics agency</title><script type="application/ld+json">{"@type":"Article","datePublished":"2025-01-01"}</script></head>` +
      `<body><div class="entry">${band(1, 2)}${band(2, 2)}${deep}${band(4, 2)}${band(5, 2)}${band(6, 2)}</div></body></html>`;
    const out = formatPage(html, { url: 'https://agency.example/service/analytics', formats: TEXT });
    expect(out.page_text).toContain('Sentence 300 explains');
    expect(out.page_text).toContain('Sentence 100 explains');
    expect(out.page_text).toContain('Sentence 600 explains');
  });
});
