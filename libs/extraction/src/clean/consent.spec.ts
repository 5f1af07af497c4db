import { describe, expect, it } from '@jest/globals';
import { bodyOf, parseHtml } from '../dom.js';
import { cleanDocument } from './clean.js';
import { renderText } from '../text.js';

const notice = Array.from({ length: 30 }, (_, i) => `<p>We process your data for purpose ${i}, to deliver content and measure advertising, with our partners.</p>`).join('');

describe('consent-management dialogs', () => {
  it('are removed by the vendor name even when they outweigh a short page', () => {
    const doc = parseHtml(`<html><body><div class="thread"><p>Short first post.</p><p>A short reply.</p></div><div id="onetrust-consent-sdk"><div role="dialog">${notice}</div></div></body></html>`);
    cleanDocument(doc, { url: 'https://site.example/t/1', aggressive: false });
    const text = renderText(bodyOf(doc));
    expect(text).toContain('Short first post.');
    expect(text).not.toContain('We process your data');
  });

  it('leave a page wrapper that only carries a generic consent state class', () => {
    const doc = parseHtml(`<html><body><div class="page cookie-consent-active"><p>Short first post.</p>${notice}</div></body></html>`);
    cleanDocument(doc, { url: 'https://site.example/t/1', aggressive: false });
    expect(renderText(bodyOf(doc))).toContain('Short first post.');
  });
});
