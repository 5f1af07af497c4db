import { describe, expect, it } from '@jest/globals';
import { bodyOf, parseHtml } from '../dom.js';
import { removePlaceholderText } from './placeholder-text.js';
import { renderText } from '../text.js';

const FILLER = 'Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua.';
const article = '<p>The quarterly rankings compare forty insurers on growth, underwriting results and return on equity.</p>'.repeat(12);

const run = (body: string): string => {
  const doc = parseHtml(`<html><body>${body}</body></html>`);
  removePlaceholderText(doc);
  return renderText(bodyOf(doc));
};

describe('removePlaceholderText', () => {
  it("drops a theme's unfilled cards with their filler, keeping the article", () => {
    const card = `<div class="card"><h3>Heading Line</h3><p>${FILLER}</p><a href="/r">Register</a></div>`;
    const text = run(`<main><article>${article}</article><section class="promo">${card}${card}</section></main>`);
    expect(text).toContain('The quarterly rankings compare');
    expect(text).not.toContain('Lorem ipsum');
    expect(text).not.toContain('Heading Line');
  });

  it('keeps a page that is mostly filler (a template or a test page shows nothing else)', () => {
    const latin = '<p>Ut enim ad minim veniam, quis nostrud exercitation ullamco laboris nisi ut aliquip ex ea commodo consequat.</p>';
    const text = run(`<article><h1>Test</h1><p>${FILLER}</p>${latin.repeat(3)}<p>A short real note.</p></article>`);
    expect(text).toContain('Lorem ipsum dolor sit amet');
  });
});
