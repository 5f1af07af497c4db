import { describe, expect, it } from '@jest/globals';
import { parseDuckDuckGoSearchPage } from './duckduckgo-provider.js';

const result = (n: number, cls = '') => `<div class="result results_links web-result ${cls}"><h2 class="result__title">
  <a class="result__a" href="//duckduckgo.com/l/?uddg=https%3A%2F%2Fr${n}.example%2F&amp;rut=x">Result ${n}</a></h2>
  <a class="result__snippet" href="#">Snippet ${n}.</a></div>`;
const navForm = (label: string, s: number, dc: number) => `<div class="nav-link"><form action="/html/" method="post">
  <input type="submit" class="btn btn--alt" value="${label}" /><input type="hidden" name="q" value="x" /><input type="hidden" name="s" value="${s}" />
  <input type="hidden" name="dc" value="${dc}" /><input type="hidden" name="vqd" value="4-99" /><input name="kl" value="us-en" type="hidden" /></form></div>`;
const html = (inner: string) => `<html><body><div id="links" class="results">${inner}</div></body></html>`;

describe('DuckDuckGo /search page', () => {
  it('page 1: offset 0, next-page form params (vqd) for the gateway, ads skipped', () => {
    const ad = '<div class="result result--ad"><a class="result__a" href="https://duckduckgo.com/y.js?ad_provider=x">Ad</a></div>';
    const { verdict, page, pagination } = parseDuckDuckGoSearchPage(html(ad + result(1) + result(2) + navForm('Next', 2, 3)), { page: 1 });
    expect(verdict).toEqual({ kind: 'ok' });
    expect(page).toEqual({
      total_results: '',
      search_results: [
        { title: 'Result 1', link: 'https://r1.example/', date: null, snippet: 'Snippet 1.', source: 'r1.example' },
        { title: 'Result 2', link: 'https://r2.example/', date: null, snippet: 'Snippet 2.', source: 'r2.example' },
      ],
      related_queries: [],
    });
    expect(pagination).toEqual({ offset: 0, hasNext: true, nextParams: { q: 'x', s: '2', dc: '3', vqd: '4-99', kl: 'us-en' } });
  });

  it('later page: offset from the next form\'s dc minus this page\'s results; last page has no next', () => {
    const mid = parseDuckDuckGoSearchPage(html(result(11) + result(12) + navForm('Previous', 0, 1) + navForm('Next', 12, 13)), { page: 2 });
    expect(mid.pagination).toMatchObject({ offset: 10, hasNext: true });
    const last = parseDuckDuckGoSearchPage(html(result(13) + navForm('Previous', 2, 3)), { page: 3 });
    expect(last.pagination).toEqual({ offset: null, hasNext: false });
  });

  it('reads the HTML endpoint\'s ISO timestamp as the date (midnight = a day), and leading dates in snippets', () => {
    const dated = (stamp: string) => `<div class="result results_links web-result"><h2 class="result__title"><a class="result__a" href="https://d.example/${stamp.slice(8, 10)}">D</a></h2>
      <div class="result__extras"><div class="result__extras__url"><a class="result__url" href="https://d.example/">d.example</a><span>&nbsp; &nbsp; ${stamp}</span></div></div>
      <a class="result__snippet" href="#">Text.</a></div>`;
    const lead = '<div class="result"><a class="result__a" href="https://e.example/">E</a><a class="result__snippet">Mar 3, 2024 — Text.</a></div>';
    const { page } = parseDuckDuckGoSearchPage(html(dated('2026-02-13T00:00:00.0000000') + dated('2026-02-20T22:29:00.0000000') + lead), { page: 1 });
    expect(page?.search_results.map((r) => [r.date, r.snippet])).toEqual([['2026-02-13', 'Text.'], ['2026-02-20T22:29:00', 'Text.'], ['Mar 3, 2024', 'Text.']]);
  });

  it('reads the lite endpoint (table rows) and the React page (article[data-testid=result]), without their ads', () => {
    const lite = `<table><tr class="result-sponsored"><td><a class="result-link" href="https://duckduckgo.com/y.js?ad_provider=b">Ad</a></td></tr>
      <tr><td>1.</td><td><a rel="nofollow" class="result-link" href="//duckduckgo.com/l/?uddg=https%3A%2F%2Fl1.example%2F&amp;rut=x">L1</a></td></tr>
      <tr><td></td><td class="result-snippet">Lite snippet.</td></tr><tr><td></td><td><span class="link-text">l1.example</span></td></tr>
      <tr><td>2.</td><td><a class="result-link" href="https://l2.example/">L2</a></td></tr></table>`;
    expect(parseDuckDuckGoSearchPage(lite, { page: 1 }).page?.search_results.map((r) => [r.title, r.link, r.snippet]))
      .toEqual([['L1', 'https://l1.example/', 'Lite snippet.'], ['L2', 'https://l2.example/', '']]);
    const react = `<ol class="react-results--main"><li data-layout="ad"><article data-testid="result"><a data-testid="result-title-a" href="https://ad.example/">Ad</a></article></li>
      <li data-layout="organic"><article data-testid="result"><h2><a data-testid="result-title-a" href="https://j1.example/"><span>J1</span></a></h2>
      <div data-result="snippet"><span>Text J1.</span></div></article></li></ol>`;
    expect(parseDuckDuckGoSearchPage(react, { page: 1 }).page?.search_results).toEqual([
      { title: 'J1', link: 'https://j1.example/', date: null, snippet: 'Text J1.', source: 'j1.example' },
    ]);
  });

  it('instant answer (zero-click abstract) as direct_answer', () => {
    const zci = `<div class="zci-wrapper"><div class="zci"><h1 class="zci__heading"><a href="https://en.wikipedia.org/wiki/Bee">Bee</a></h1>
      <div class="zci__result" id="zero_click_abstract">Bees are winged insects. <a href="https://en.wikipedia.org/wiki/Bee">More at Wikipedia</a></div></div></div>`;
    expect(parseDuckDuckGoSearchPage(zci + html(result(1)), { page: 1 }).page?.direct_answer).toEqual({
      answer: 'Bees are winged insects.', snippet: 'Bee', link: 'https://en.wikipedia.org/wiki/Bee', source: 'Wikipedia',
    });
  });

  it('blocked on positive evidence: anomaly page with 200, HTTP 202, challenge form; an empty shell is not "no results"', () => {
    const anomaly = '<html><body><div class="anomaly-modal__title">Unfortunately, bots use DuckDuckGo too.</div><script src="/anomaly.js"></script></body></html>';
    expect(parseDuckDuckGoSearchPage(anomaly, { page: 1 }, { status: 200 }).verdict).toEqual({ kind: 'blocked', reason: 'captcha' });
    expect(parseDuckDuckGoSearchPage('<html><body><form id="challenge-form"></form></body></html>', { page: 1 }).verdict.kind).toBe('blocked');
    expect(parseDuckDuckGoSearchPage(html(result(1)), { page: 1 }, { status: 202 }).verdict).toEqual({ kind: 'blocked', reason: 'captcha' });
    expect(parseDuckDuckGoSearchPage('<html><body><div id="links"></div></body></html>', { page: 1 }).verdict.kind).toBe('blocked');
    expect(parseDuckDuckGoSearchPage(html('<div class="no-results">No results.</div>'), { page: 1 }).verdict).toEqual({ kind: 'no_results' });
  });
});
