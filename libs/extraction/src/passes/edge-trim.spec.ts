import { describe, expect, it } from '@jest/globals';
import { formatPage, type OutputFormats } from '../index.js';

const TEXT: OutputFormats = { raw_html: false, enhanced_html: false, markdown: false, page_text: true };
const prose = (i: number): string =>
  `<p>Paragraph ${i} of the story, with words, commas, and sentences enough to read like real prose in an article body.</p>`;
const body = Array.from({ length: 5 }, (_, i) => prose(i)).join('');
const text = (article: string): string =>
  formatPage(`<html><head><title>T</title></head><body><article>${article}</article></body></html>`, { url: 'https://news.example/a', formats: TEXT }).page_text ?? '';

describe('edge trimming of the selected article', () => {
  it('drops a trailing "further reading" heading and its list of links to other articles', () => {
    const out = text(`${body}<h3>Weitere Beiträge</h3><p><a href="/x">Another story about something else</a></p><p><a href="/y">And one more story to read</a></p>`);
    expect(out).toContain('Paragraph 4 of the story');
    expect(out).not.toContain('Weitere Beiträge');
    expect(out).not.toContain('Another story');
  });

  it('drops a trailing label whose content was removed, and a bare date line at the start', () => {
    const out = text(`<p>23.10.2018</p>${body}<p><strong>Kontakt:</strong></p>`);
    expect(out).not.toMatch(/23\.10\.2018/);
    expect(out).not.toContain('Kontakt:');
    expect(out.startsWith('Paragraph 0')).toBe(true);
  });

  it('keeps a closing paragraph that holds a link within prose, and headings followed by text', () => {
    const out = text(`<h2>Background</h2>${body}<p>More details are in <a href="/report">the full report</a>, which the agency published on Monday.</p>`);
    expect(out).toContain('Background');
    expect(out).toContain('the full report');
  });

  it('never trims more than a small share of the article', () => {
    const links = Array.from({ length: 6 }, (_, i) => `<p><a href="/l${i}">A linked teaser number ${i} with a long title that goes on</a></p>`).join('');
    const out = text(`${prose(0)}${prose(1)}${links}`);
    expect(out).toContain('A linked teaser number 0');
  });
});

describe('article headers and leads', () => {
  it('drops the publication stamp under the headline and a dek that the body repeats', () => {
    const dek = 'The top picks for events, competitions and fun for the month of October.';
    const html = `<html><head><title>Things to do</title></head><body><article><div class="detail-header-dek"><p>${dek}</p></div>
      <div class="body"><h1>Things to do in October</h1><p>Published Tue, Nov 19 2019 7:05 AM EST</p><p>${dek}</p>${body}</div></article></body></html>`;
    const out = formatPage(html, { url: 'https://mag.example/n', formats: TEXT }).page_text ?? '';
    expect(out).not.toContain('Published Tue');
    expect(out.split(dek).length - 1).toBe(1);
  });

  it('keeps paragraphs that repeat each other inside one container', () => {
    const same = '<p>Lorem ipsum dolor sit amet, consectetur adipisicing elit, sed do eiusmod tempor incididunt ut labore.</p>';
    const out = text(same.repeat(4));
    expect(out.split('Lorem ipsum').length - 1).toBe(4);
  });
});
