// The lead of an article, found outside the container of its body (see lead.ts).
import { describe, expect, it } from '@jest/globals';
import { formatPage } from '../index.js';
import { STORY, TEXT_ONLY } from '#test/support/pages.js';

describe('leads outside the article element', () => {
  it('finds the standfirst in an article header that sits outside the <article> holding the body', () => {
    const html = `<html><body><main><header class="entry-header"><h1>Always tired?</h1><div class="lead"><p>Many people feel tired all the time in winter, and the reasons are often simple.</p></div></header>
      <div class="wrap"><article class="post"><div class="entry-content">${STORY}</div></article></div></main></body></html>`;
    const out = formatPage(html, { url: 'https://mag.example/t', formats: TEXT_ONLY }).page_text ?? '';
    expect(out).toContain('Many people feel tired');
  });

  it('takes the subheadline under the headline, not a site tagline under a linked site name', () => {
    const sub = 'The governor signed the bill after a long night of debate in the chamber';
    const html = `<html><body><div class="top"><h1><a href="/">Blog of things</a></h1><h2>The blog of small and large things, since 2004</h2></div>
      <div class="page"><div class="head"><div class="article-header"><h1>Bill signed</h1><h2>${sub}</h2></div></div>
      <div class="content"><div class="photo"><img src="/a.jpg" alt=""></div><div class="article-body">${STORY}</div></div></div></body></html>`;
    const out = formatPage(html, { url: 'https://news.example/b', formats: TEXT_ONLY }).page_text ?? '';
    expect(out).toContain(sub);
    expect(out).not.toContain('since 2004');
  });
});

const para = (n: number): string =>
  Array.from({ length: n }, (_, i) => `<p>Body paragraph ${i} of the article, with enough words, commas, and sentences to read like real prose. It keeps going for a while.</p>`).join('');
const text = (html: string): string =>
  formatPage(`<!doctype html><html><head><title>T</title></head><body>${html}</body></html>`, { url: 'https://site.example/a', formats: TEXT_ONLY }).page_text ?? '';

describe('article lead', () => {
  it('puts the standfirst from the article header in front of the body', () => {
    const out = text(`<article><header><h1>Title</h1><p class="article-lead">The short version: the council voted to close the bridge for two years of repairs.</p></header>
      <div class="article-body">${para(5)}</div></article>`);
    expect(out).toMatch(/The short version[\s\S]*Body paragraph 0/);
  });

  it('does not pull a teaser from another article of the page', () => {
    const out = text(`<div class="teaser"><p class="teaser-text">An unrelated story teaser with plenty of words in it for the test.</p></div>
      <article><div class="article-body">${para(5)}</div></article>`);
    expect(out).not.toContain('unrelated story');
  });
});

