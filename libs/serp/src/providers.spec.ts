import { describe, expect, it } from '@jest/globals';
import { DEVICE_PROFILES, searchEngineNeeds } from '#contracts';
import { createSearchProviders, detectVerdict } from './index.js';
import type { SerpPageParams } from './types.js';

const providers = createSearchProviders({
  googleBaseUrl: 'http://127.0.0.1:8081/', bingBaseUrl: 'http://127.0.0.1:8082', duckduckgoBaseUrl: 'http://127.0.0.1:8083/',
  searxngBaseUrl: 'http://127.0.0.1:8084/searx/',
});
const serpQuery: SerpPageParams = { q: 'coffee beans', gl: 'DE', hl: 'de', page: 3, num: 20, type: 'news', tbs: 'qdr:w', device: 'mobile' };

describe('request builders', () => {
  it('Google: locale, paging as start=(page-1)*num, freshness, vertical, device user agent, configured base URL', () => {
    const r = providers.google.buildSerpRequest?.(serpQuery);
    const url = new URL(r?.url ?? '');
    expect(url.origin + url.pathname).toBe('http://127.0.0.1:8081/search');
    expect(Object.fromEntries(url.searchParams)).toEqual({ q: 'coffee beans', gl: 'de', hl: 'de', num: '20', start: '40', tbs: 'qdr:w', tbm: 'nws' });
    expect(r?.headers['user-agent']).toBe(DEVICE_PROFILES.mobile.userAgent);
    expect(r?.headers['accept-language']).toBe('de-DE,de;q=0.9,en;q=0.8');
    const places = new URL(providers.google.buildSerpRequest?.({ ...serpQuery, type: 'places', page: 1 }).url ?? '');
    expect(places.searchParams.get('tbm')).toBe('lcl');
    expect(places.searchParams.has('start')).toBe(false);
  });

  it('Google is rendered (it needs JavaScript) unless GOOGLE_TRANSPORT=http; every other provider is plain HTTP', () => {
    expect(searchEngineNeeds('google', 'render')).toEqual({ renders: true });
    expect(searchEngineNeeds('google', 'http')).toEqual({ renders: false });
    for (const provider of ['bing', 'duckduckgo', 'searxng'] as const) expect(searchEngineNeeds(provider, 'render')).toEqual({ renders: false });
    const dflt = createSearchProviders({ googleBaseUrl: 'http://127.0.0.1:1/', bingBaseUrl: 'http://127.0.0.1:1/', duckduckgoBaseUrl: 'http://127.0.0.1:1/' });
    expect(dflt.searxng).toBeUndefined();
  });

  it('Bing: setlang, market and first=(page-1)*10+1 over HTTP (more cases in bing/bing-request.spec.ts)', () => {
    const r = providers.bing.buildSearchPageRequest?.({ query: 'a b', page: 2, setLang: 'fr', cc: 'fr', device: 'desktop' });
    const url = new URL(r?.url ?? '');
    expect(url.origin + url.pathname).toBe('http://127.0.0.1:8082/search');
    expect(Object.fromEntries(url.searchParams)).toEqual({ q: 'a b', setlang: 'fr', mkt: 'fr-FR', pq: 'a b', first: '11', FORM: 'PERE' });
    expect(r?.headers['user-agent']).toBe(DEVICE_PROFILES.desktop.userAgent);
  });

  it('DuckDuckGo: the HTML endpoint with a kl region and s/dc offsets (more cases in duckduckgo/duckduckgo-request.spec.ts)', () => {
    const url = new URL(providers.duckduckgo.buildSearchPageRequest?.({ query: 'x', page: 2, setLang: 'de', cc: 'DE' }).url ?? '');
    expect(url.pathname).toBe('/html/');
    expect(Object.fromEntries(url.searchParams)).toMatchObject({ q: 'x', kl: 'de-de', s: '10', dc: '11' });
  });

  it('freshness (tbs) on /search pages: each engine its own filter, at its finest where it has no hour', () => {
    const page = (provider: 'google' | 'bing' | 'duckduckgo' | 'searxng', tbs: 'qdr:h' | 'qdr:w' | 'qdr:y') =>
      Object.fromEntries(new URL(providers[provider]?.buildSearchPageRequest?.({ query: 'x', page: 1, tbs }).url ?? '').searchParams);
    expect(page('google', 'qdr:h').tbs).toBe('qdr:h');
    expect(page('bing', 'qdr:h').filters).toBe('ex1:"ez1"');
    expect(page('bing', 'qdr:w').filters).toBe('ex1:"ez2"');
    expect(page('duckduckgo', 'qdr:h').df).toBe('d');
    expect(page('duckduckgo', 'qdr:y').df).toBe('y');
    expect(page('searxng', 'qdr:w').time_range).toBe('week');
    expect(page('bing', 'qdr:w')).not.toHaveProperty('tbs');
  });

  it('SearXNG: format=json, language, pageno, category and time range under the instance path', () => {
    const url = new URL(providers.searxng.buildSerpRequest?.(serpQuery).url ?? '');
    expect(url.pathname).toBe('/searx/search');
    expect(Object.fromEntries(url.searchParams)).toEqual({ format: 'json', q: 'coffee beans', language: 'de-DE', pageno: '3', categories: 'news', time_range: 'week' });
  });
});

const BING = `<ol id="b_results">
 <li class="b_ad"><div class="b_algo"><h2><a href="https://ad.example/">Ad</a></h2></div></li>
 <li class="b_algo"><h2><a href="https://one.example/">One</a></h2><div class="b_caption"><cite>one.example</cite>
   <p><span class="news_dt">24/1/2013</span>&nbsp;· First snippet text.</p></div>
   <div class="b_deep"><ul><li><h3 class="deeplink_title"><a href="https://one.example/news">News</a></h3></li></ul></div></li>
 <li class="b_algo"><h2><a href="https://two.example/">Two</a></h2><div class="b_caption"><p>Second snippet.</p></div></li>
</ol><span class="sb_count">About 1.234.000 results</span>
<div class="b_rs"><ul><li><a href="/search?q=one+two">one two</a></li></ul></div>`;

const DDG = `<div id="links">
 <div class="result results_links result--ad"><h2 class="result__title"><a class="result__a" href="https://ad.example/">Ad</a></h2></div>
 <div class="result results_links"><h2 class="result__title"><a class="result__a" href="//duckduckgo.com/l/?uddg=https%3A%2F%2Fone.example%2Fa&amp;rut=x">One <b>A</b></a></h2>
   <a class="result__snippet" href="#">First snippet.</a></div>
 <div class="result results_links"><h2 class="result__title"><a class="result__a" href="https://two.example/">Two</a></h2>
   <div class="result__snippet"><span class="result__date">Nov 21, 2019</span>Second snippet.</div></div>
</div>`;

describe('Bing and DuckDuckGo parsers', () => {
  it('Bing: organic results without ads, dates, deep links, total and related queries', () => {
    const { verdict, page } = providers.bing.parseSearchPage?.(BING, { query: 'x', page: 1 }) ?? {};
    expect(verdict).toEqual({ kind: 'ok' });
    expect(page?.search_results).toEqual([
      { title: 'One', link: 'https://one.example/', date: '24/1/2013', snippet: 'First snippet text.', source: 'one.example' },
      { title: 'Two', link: 'https://two.example/', date: null, snippet: 'Second snippet.', source: 'two.example' },
    ]);
    expect(page?.total_results).toBe('About 1.234.000 results');
    expect(page?.related_queries).toEqual(['one two']);
  });

  it('DuckDuckGo: unwraps uddg links, skips ads, separates dates', () => {
    const { page } = providers.duckduckgo.parseSearchPage?.(DDG, { query: 'x', page: 1 }) ?? {};
    expect(page?.search_results).toEqual([
      { title: 'One A', link: 'https://one.example/a', date: null, snippet: 'First snippet.', source: 'one.example' },
      { title: 'Two', link: 'https://two.example/', date: 'Nov 21, 2019', snippet: 'Second snippet.', source: 'two.example' },
    ]);
  });

  it('tells no-results pages from block pages', () => {
    expect(detectVerdict('bing', '<ol id="b_results"><li class="b_no"><h1>There are no results for <strong>zzqx</strong></h1></li></ol>'))
      .toEqual({ kind: 'no_results' });
    expect(detectVerdict('duckduckgo', '<div id="links"><div class="no-results">No results.</div></div>')).toEqual({ kind: 'no_results' });
    expect(detectVerdict('duckduckgo', '<div class="anomaly-modal__title">Unfortunately, bots use DuckDuckGo too.</div>'))
      .toEqual({ kind: 'blocked', reason: 'captcha' });
    // Google's wording since 2023, without the query in emphasis (so not found by the statement's shape).
    expect(detectVerdict('google', `<div id="main"><div id="rso"><div class="card-section"><p>It looks like there aren't many great matches for your search</p>
<p>Tip: Try using words that might appear on the page you're looking for.</p></div></div></div>`)).toEqual({ kind: 'no_results' });
    expect(detectVerdict('bing', '<html><body>maintenance</body></html>')).toEqual({ kind: 'blocked', reason: 'unknown' });
    expect(detectVerdict('nope', '<html></html>')).toEqual({ kind: 'blocked', reason: 'unknown' });
  });
});

describe('SearXNG JSON', () => {
  const body = JSON.stringify({
    query: 'x', number_of_results: 1200,
    results: [
      { url: 'https://one.example/', title: 'One', content: 'First', engine: 'bing', publishedDate: '2023-04-02T00:00:00' },
      { url: 'https://two.example/', title: 'Two', content: 'Second', engine: 'ddg' },
    ],
    answers: ['42'], suggestions: ['x y'], infoboxes: [{ infobox: 'X', content: 'About X', attributes: [{ label: 'Born', value: '1990' }] }],
  });

  it('maps results, answer, infobox and suggestions to the /serp-search shape', () => {
    const { verdict, result } = providers.searxng.parseSerp?.(body, { ...serpQuery, type: 'search', page: 2, num: 10 }) ?? {};
    expect(verdict).toEqual({ kind: 'ok' });
    expect(result).toEqual({
      serp_search_results: [
        { title: 'One', link: 'https://one.example/', snippet: 'First', position: 11, date: '2023-04-02T00:00:00' },
        { title: 'Two', link: 'https://two.example/', snippet: 'Second', position: 12 },
      ],
      answerBox: { answer: '42', snippet: '42' },
      knowledgeGraph: { title: 'X', type: '', description: 'About X', attributes: { Born: '1990' } },
      relatedSearches: [{ query: 'x y' }],
      searchInformation: { totalResults: 1200 },
    });
  });

  it('empty results are no_results; failing engines, HTML or garbage are blocked', () => {
    const q = { query: 'x', page: 1 };
    expect(providers.searxng.parseSearchPage?.(JSON.stringify({ results: [], unresponsive_engines: [] }), q).verdict).toEqual({ kind: 'no_results' });
    expect(providers.searxng.parseSearchPage?.(JSON.stringify({ results: [], unresponsive_engines: [['google', 'CAPTCHA']] }), q).verdict)
      .toEqual({ kind: 'blocked', reason: 'rate_limited' });
    expect(providers.searxng.parseSearchPage?.('<html>Too Many Requests</html>', q).verdict).toEqual({ kind: 'blocked', reason: 'rate_limited' });
    expect(providers.searxng.parseSearchPage?.('not json', q).verdict).toEqual({ kind: 'blocked', reason: 'unknown' });
  });
});
