import { describe, expect, it } from '@jest/globals';
import { formatPage } from '../index.js';

const TEXT = { raw_html: false, enhanced_html: false, markdown: false, page_text: true };
const sentence = (i: number, what: string): string => `${what} sentence ${i}, written with commas, detail, and enough words to read as prose.`;
const prose = (n: number, what: string): string => Array.from({ length: n }, (_, i) => `<p>${sentence(i, what)} ${sentence(i + 50, what)}</p>`).join('');
const read = (body: string): string =>
  formatPage(`<html><head><title>Trail notes</title></head><body>${body}</body></html>`, { url: 'https://trail.example/notes/first-hike', formats: TEXT }).page_text ?? '';

describe('cookie notices', () => {
  it('are left out of the content when no class names them', () => {
    const banner = '<div class="fixed bottom-6"><p>Trail Co uses cookies to improve the site. By using our site, you agree to our cookie use.</p><button>OK</button></div>';
    const out = read(`<main><article>${prose(6, 'Hike')}${banner}</article></main>`);
    expect(out).toContain('Hike sentence 5');
    expect(out).not.toContain('uses cookies');
  });

  it('stay on a page about cookies, where they are the content', () => {
    const policy = [
      'We use cookies to remember your settings; you can accept or refuse them in your browser.',
      'We use cookies from analytics partners only if you consent to them in the cookie settings.',
      'This site uses cookies for sign-in; by using the sign-in page you agree to those cookies.',
    ]
      .map((p) => `<p>${p}</p>`)
      .join('');
    const out = read(`<main><article><h1>Cookie policy</h1>${policy}${prose(1, 'Policy')}</article></main>`);
    expect(out).toContain('cookies from analytics partners');
  });
});
