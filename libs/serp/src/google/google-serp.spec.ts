import { describe, expect, it } from '@jest/globals';
import { createSearchProviders, detectVerdict } from '../index.js';
import type { OrganicResult } from '../types.js';
import { parseGoogleSerp } from './google-provider.js';

const q = { type: 'search' as const, page: 1, num: 10 };

function result(href: string, title: string, snippet: string): string {
  return `<div class="g"><div class="yuRUbf"><a href="${href}"><h3>${title}</h3><cite>example.com</cite></a></div>`
    + `<div class="VwiC3b">${snippet}</div></div>`;
}

const PAGE = `<html><body><div id="main"><div id="result-stats">About 1,230 results (0.41 seconds)</div>
<div id="tads"><div class="uEierd"><a href="https://shop.example/ad"><div role="heading">Buy now</div></a></div></div>
<div id="rso">
 ${result('/url?q=https://one.example/a&sa=U&ved=x', 'First &amp; best', 'Apr 9, 2022 — One snippet text.')}
 <div class="related-question-pair" data-q="What is one?"><div role="button">What is one?</div></div>
 ${result('https://two.example/b', 'Second', 'Two snippet text.')}
</div>
<div id="rhs"><div data-attrid="title">Example Entity</div><div data-attrid="subtitle">Company</div>
 <div data-attrid="description"><span>Example is a company.</span><a href="https://en.wikipedia.org/wiki/Example">Wikipedia</a></div>
 <div data-attrid="kc:/organization:founded">Founded: 1999</div>
 <a href="https://example.com/">Website</a></div>
<div id="botstuff"><a class="k8XOCe" href="/search?q=example+inc&amp;sa=X&amp;ved=2ahUKEwifjZKr1rv-AhWDed4KHZayBCcQ1QJ6BQjEBBAB">example inc</a></div>
</div></body></html>`;

describe('Google result page', () => {
  it('extracts organic results in order with unwrapped links, dates split from snippets, ads left out', () => {
    const { verdict, result: r } = parseGoogleSerp(PAGE, q);
    expect(verdict).toEqual({ kind: 'ok' });
    const organic = r?.serp_search_results as OrganicResult[];
    expect(organic.map((o) => [o.position, o.link, o.title])).toEqual([
      [1, 'https://one.example/a', 'First & best'],
      [2, 'https://two.example/b', 'Second'],
    ]);
    expect(organic[0]).toMatchObject({ snippet: 'One snippet text.', date: 'Apr 9, 2022' });
  });

  it('continues positions across pages: page 3 of 10 starts at 21', () => {
    const { result: r } = parseGoogleSerp(PAGE, { type: 'search', page: 3, num: 10 });
    expect((r?.serp_search_results as OrganicResult[]).map((o) => o.position)).toEqual([21, 22]);
  });

  it('reads the knowledge panel, people also ask, related searches and result count', () => {
    const { result: r } = parseGoogleSerp(PAGE, q);
    expect(r?.knowledgeGraph).toEqual({
      title: 'Example Entity', type: 'Company', description: 'Example is a company.', attributes: { Founded: '1999' },
      descriptionSource: 'Wikipedia', descriptionLink: 'https://en.wikipedia.org/wiki/Example', website: 'https://example.com/',
    });
    expect(r?.peopleAlsoAsk).toEqual([{ question: 'What is one?', snippet: '', title: '', link: '' }]);
    expect(r?.relatedSearches).toEqual([{ query: 'example inc' }]);
    expect(r?.searchInformation).toEqual({ totalResults: 1230, timeTaken: 0.41 });
  });

  it('reads the results that continuous scrolling appended under #botstuff, after the first ones', () => {
    const page = `<html><body><div id="main"><div id="rso">${result('https://one.example/', 'One', 'one')}</div>
<div id="botstuff"><div id="arc-srp_110"><div class="MjjYud">${result('https://eleven.example/', 'Eleven', 'eleven')}</div></div>
<a class="k8XOCe" href="/search?q=example+two&amp;sa=X">example two</a></div></div></body></html>`;
    const organic = parseGoogleSerp(page, q).result?.serp_search_results as OrganicResult[];
    expect(organic.map((o) => [o.position, o.link])).toEqual([[1, 'https://one.example/'], [2, 'https://eleven.example/']]);
  });

  it('leaves out the news and image tiles of a knowledge panel shown above the results (role=complementary)', () => {
    const page = `<html><body><div id="main"><div id="rcnt"><div><div role="complementary"><h2>Claude Monet</h2>
<div class="tile"><a href="https://news.example/monet-party"><div role="heading">Painting party in 2022</div><span>Community</span></a></div></div></div>
<div id="rso">${result('https://encyclopedia.example/wiki/Claude_Monet', 'Claude Monet', 'French painter.')}</div></div></div></body></html>`;
    const organic = parseGoogleSerp(page, q).result?.serp_search_results as OrganicResult[];
    expect(organic.map((o) => o.link)).toEqual(['https://encyclopedia.example/wiki/Claude_Monet']);
  });

  it('leaves out the cards of a module under its own heading ("Explore brands", "Discussions and forums", "Videos"), keeps mobile cards', () => {
    const card = (href: string, title: string) => `<div class="c"><div class="d"><a href="${href}"><span role="heading" aria-level="3">${title}</span>`
      + `<span>Best sellers at ${title}.</span></a></div></div>`;
    const mobile = (href: string, title: string) => `<div class="m"><div class="n"><h2>Web result with site links</h2>`
      + `<a href="${href}"><div role="heading" aria-level="3">${title}</div><span>${href}</span></a></div><div>Snippet of ${title}.</div></div>`;
    // 2025 "Videos": the heading comes after the empty elements that draw the module's frame, nine levels above the link.
    const deep = (inner: string) => '<div><div class="a"><div class="b"><div><div class="c"><div><div class="d"><div>'.concat(inner, '</div></div></div></div></div></div></div></div>');
    const videos = `<div class="mod"><div class="v"><div class="frame"></div><div class="frame"></div><div class="hd"><span role="heading" aria-level="2">Videos</span></div>`
      + `<div>${deep('<a href="https://video.example/watch?v=1"><div role="heading" aria-level="3">A video on one</div></a>')}</div></div></div>`;
    const page = `<html><body><div id="main"><div id="rso">${result('https://one.example/', 'One', 'one')}
<div class="mod"><div class="box"><div role="heading" aria-level="2"><div>Explore brands</div></div>${card('https://brand-a.example/', 'Brand A')}
<g-expandable-container><div><g-expandable-content><span>${card('https://brand-b.example/', 'Brand B')}</span></g-expandable-content></div></g-expandable-container></div></div>
<div class="mod"><div class="box"><div class="h"><div role="heading" aria-level="2">Discussions and forums</div></div>
<div><div>${card('https://forum.example/t/1', 'Which one?')}</div></div></div></div>
${mobile('https://two.example/', 'Two')}${videos}</div></div></body></html>`;
    const organic = parseGoogleSerp(page, q).result?.serp_search_results as OrganicResult[];
    expect(organic.map((o) => o.link)).toEqual(['https://one.example/', 'https://two.example/']);
  });

  it('reads a fragment of a result page saved without <html> and <body>', () => {
    const fragment = `<div class="klitem"><a href="/search?q=The+Starry+Night">The Starry Night</a></div>
${result('https://one.example/', 'One', 'one')}${result('https://two.example/', 'Two', 'two')}`;
    const organic = parseGoogleSerp(fragment, q).result?.serp_search_results as OrganicResult[];
    expect(organic.map((o) => o.link)).toEqual(['https://one.example/', 'https://two.example/']);
  });

  it('omits blocks the page does not have', () => {
    const { result: r } = parseGoogleSerp(`<div id="main">${result('https://a.example/', 'A', 'a')}</div>`, q);
    expect(Object.keys(r ?? {})).toEqual(['serp_search_results']);
  });

  it('turns a featured snippet into an answer box (answer and snippet both strings, §2.2) and keeps its source as an organic result', () => {
    const html = `<div id="main"><block-component><div class="xpdopen"><div class="ifM9O">
      <span class="hgKElc">Coffee is a drink.</span><div class="g"><div class="yuRUbf"><a href="https://c.example/"><h3>Coffee</h3></a></div></div>
      </div></div></block-component><div id="rso">${result('https://d.example/', 'D', 'd text')}</div></div>`;
    const { result: r } = parseGoogleSerp(html, q);
    expect(r?.answerBox).toEqual({ answer: 'Coffee is a drink.', snippet: 'Coffee is a drink.', link: 'https://c.example/', title: 'Coffee' });
    expect((r?.serp_search_results as OrganicResult[])[0]).toMatchObject({ link: 'https://c.example/', snippet: 'Coffee is a drink.' });
  });

  it('gives a direct answer (calculator) a snippet too: the contract says answerBox carries both strings', () => {
    const { result: r } = parseGoogleSerp(`<div id="main"><span id="cwos">42</span><div id="rso">${result('https://d.example/', 'D', 'd')}</div></div>`, q);
    expect(r?.answerBox).toEqual({ answer: '42', snippet: '42' });
  });
});

describe('Google verdicts', () => {
  it('says no_results for Google’s no-match page, not blocked and not ok', () => {
    const html = '<div id="main"><div class="card-section"><p>Your search - <b>zzqx</b> - did not match any documents.</p></div></div>';
    expect(detectVerdict('google', html)).toEqual({ kind: 'no_results' });
  });

  it('recognises captcha, unusual-traffic and consent pages as blocked', () => {
    expect(detectVerdict('google', '<form id="captcha-form" action="/sorry/index"><div class="g-recaptcha"></div></form>'))
      .toEqual({ kind: 'blocked', reason: 'captcha' });
    expect(detectVerdict('google', '<p>Our systems have detected unusual traffic from your computer network.</p>'))
      .toEqual({ kind: 'blocked', reason: 'unusual_traffic' });
    expect(detectVerdict('google', '<form action="https://consent.google.com/save"><h1>Before you continue to Google</h1></form>'))
      .toEqual({ kind: 'blocked', reason: 'consent' });
  });

  it('calls a body that is not an HTML page blocked/unknown, and never throws on garbage', () => {
    for (const body of ['', '<<<>>>', '\u0000\u0001binary', '{"json": true}']) {
      const out = parseGoogleSerp(body, q);
      expect(out.verdict).toEqual({ kind: 'blocked', reason: 'unknown' });
      expect(out.result).toBeUndefined();
    }
  });

  it('calls an HTML page without results or block evidence ok, with zero results flagged parser: none', () => {
    const out = parseGoogleSerp('<html><body><div id="main">Hello</div></body></html>', q);
    expect(out.verdict).toEqual({ kind: 'ok' });
    expect(out.result).toEqual({ serp_search_results: [], parser: 'none' });
  });

  it('maps a Google page to the /search page object', () => {
    const providers = createSearchProviders({ googleBaseUrl: 'http://127.0.0.1:9/', bingBaseUrl: 'http://127.0.0.1:9/', duckduckgoBaseUrl: 'http://127.0.0.1:9/' });
    const { page } = providers.google.parseSearchPage?.(PAGE, { query: 'x', page: 1 }) ?? {};
    expect(page?.total_results).toBe('1230');
    expect(page?.search_results[0]).toEqual({ title: 'First & best', link: 'https://one.example/a', date: 'Apr 9, 2022', snippet: 'One snippet text.', source: 'one.example' });
    expect(page?.related_queries).toEqual(['example inc']);
  });
});

describe('Google layouts across generations', () => {
  const organic = (html: string) => (parseGoogleSerp(`<div id="main">${html}</div>`, q).result?.serp_search_results ?? []) as OrganicResult[];

  it('resolves mobile AMP viewer links (2016-2019) to the page itself', () => {
    const amp = (href: string, cur: string) => `<div class="g"><h3 class="r"><a href="${href}" ${cur}>Story</a></h3>`
      + '<cite>example.com</cite><span class="st">Story text.</span></div>';
    expect(organic(amp('/amp/s/www.example.com/story/amp', 'data-amp-cur="https://www.example.com/story"'))[0].link).toBe('https://www.example.com/story');
    expect(organic(amp('/amp/example.org/a/amp', ''))[0].link).toBe('http://example.org/a/amp');
  });

  it('keeps a no-JS snippet that starts with a dd/mm/yyyy date (not a rating line)', () => {
    const html = '<div class="ZINbbc"><div class="kCrYT"><a href="/url?q=https://shop.example/&amp;sa=U"><h3><div class="BNeawe">Shops</div></h3></a></div>'
      + '<div class="kCrYT"><div class="BNeawe s3v9rd AP7Wnd">14/11/2018 · Eleven shops in Lisbon.</div></div></div>';
    expect(organic(html)[0]).toMatchObject({ date: '14/11/2018', snippet: 'Eleven shops in Lisbon.' });
  });

  it('leaves out "Interesting finds" cards and 2016 tweet carousels, keeps the featured video result', () => {
    const card = '<g-card><div><g-tray-header><div role="heading" aria-level="2">Interesting finds</div></g-tray-header>'
      + '<a href="https://find.example/"><div role="heading" aria-level="3">A find</div></a></div></g-card>';
    const tweets = '<g-snapping-carousel><div><a href="https://t.example/1"><h3>Tweet</h3></a></div></g-snapping-carousel>';
    const video = '<div class="g knowledge-block__video-nav-block"><div class="kno-fb-ctx"><h3 class="r"><a href="https://v.example/">Trailer</a></h3></div></div>';
    expect(organic(card + tweets + video + result('https://r.example/', 'R', 'r text')).map((r) => r.title)).toEqual(['Trailer', 'R']);
  });

  it('takes the h3 result, not the "According to …" line above a featured snippet, for the same link', () => {
    const html = '<div class="ifM9O"><div role="heading" aria-level="3"><a href="https://m.example/">According to m.example</a></div></div>'
      + result('https://m.example/', 'M page', 'm text');
    expect(organic(html).map((r) => r.title)).toEqual(['M page']);
  });
});
