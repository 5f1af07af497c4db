import { describe, expect, it } from '@jest/globals';
import { bodyOf, parseHtml, textContent, type Element } from '../dom.js';
import { removeRepeatedBlocks, removeResponsiveDuplicates } from './responsive-duplicates.js';

const run = (body: string): string => {
  const root = bodyOf(parseHtml(`<html><body>${body}</body></html>`)) as Element;
  removeResponsiveDuplicates([root]);
  return textContent(root).replace(/\s+/g, ' ').trim();
};
const count = (s: string, sub: string): number => s.split(sub).length - 1;
const plans = '<p>The Pro plan includes unlimited projects, priority support and daily backups.</p>';

describe('removeResponsiveDuplicates', () => {
  it('keeps one copy of a block rendered once per breakpoint', () => {
    const out = run(`<div class="hidden-xs">${plans}</div><div class="visible-xs">${plans}</div>`);
    expect(count(out, 'The Pro plan includes')).toBe(1);
  });
  it('keeps repeated text when no copy is marked for a screen size', () => {
    const out = run(`<div class="plan">${plans}</div><div class="plan">${plans}</div>`);
    expect(count(out, 'The Pro plan includes')).toBe(2);
  });
  it('keeps one copy when a class names the screen in another form', () => {
    const out = run(`<div class="plan__desktopCopy">${plans}</div><div class="plan__mobileCopy">${plans}</div><div class="slide mobile">${plans}</div>`);
    expect(count(out, 'The Pro plan includes')).toBe(1);
  });
  it('keeps one of the server-rendered variants a site builder marks per breakpoint', () => {
    const out = run(`<div class="ssr-variant hidden-a1b2c3">${plans}</div><div class="ssr-variant hidden-d4e5f6">${plans}</div>`);
    expect(count(out, 'The Pro plan includes')).toBe(1);
  });
  it('keeps the cards of a template that names a screen on every card', () => {
    const out = run(`<div class="card"><p class="note is-small-mobile">${plans}</p></div><div class="card"><p class="note is-small-mobile">${plans}</p></div>`);
    expect(count(out, 'The Pro plan includes')).toBe(2);
  });
  it('keeps a marked block whose wrapper carries the same text', () => {
    const out = run(`<div class="wrap"><div class="hide-for-mobile">${plans}</div></div>`);
    expect(count(out, 'The Pro plan includes')).toBe(1);
  });
});

describe('removeRepeatedBlocks', () => {
  const runAll = (body: string): string => {
    const root = bodyOf(parseHtml(`<html><body>${body}</body></html>`)) as Element;
    removeRepeatedBlocks([root]);
    return textContent(root).replace(/\s+/g, ' ').trim();
  };

  it('keeps one copy of a product section printed twice, whatever its class names', () => {
    const section = '<h3>Interchangeable straps</h3><p>Swap the strap in seconds, no tools needed, for a different look each day.</p>';
    const out = runAll(`<div class="a">${section}<p>Water resistant to fifty meters for swims and showers alike.</p></div><div class="b">${section}</div>`);
    expect(count(out, 'Swap the strap')).toBe(1);
    expect(out).toContain('Water resistant');
  });

  it('keeps short labels that repeat', () => {
    const out = runAll('<ul><li>In stock</li></ul><ul><li>In stock</li></ul>');
    expect(count(out, 'In stock')).toBe(2);
  });
});
