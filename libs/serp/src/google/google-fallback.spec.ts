import { describe, expect, it } from '@jest/globals';
import { detectVerdict } from '../index.js';
import type { OrganicResult } from '../types.js';
import { loadDom } from '../dom/serp-dom.js';
import { parseGoogleSerp } from './google-provider.js';
import { fallbackOrganicEntries } from './google-fallback.js';

const q = { type: 'search' as const, page: 1, num: 10 };
const organic = (html: string, page = 1) => {
  const { verdict, result } = parseGoogleSerp(html, { ...q, page });
  return { verdict, parser: result?.parser, results: (result?.serp_search_results ?? []) as OrganicResult[] };
};

/** A layout nobody has seen: no known class, no heading, results titled by plain links (like the WML pages). */
const UNKNOWN_LAYOUT = `<html><body><div id="main">
<div class="k1"><a href="/search?q=foo+bar&amp;sa=X">foo bar</a> <a href="https://maps.google.com/maps?q=foo">Maps</a></div>
<div class="zz"><div><span>Sponsored</span></div><a href="https://shop.example/">Foo shop – cheap foo</a><div>shop.example</div><div>Great deals on foo.</div></div>
<div class="zz"><a href="https://www.googleadservices.com/pagead/aclk?sa=L&amp;adurl=https://ad.example/">Ad foo</a><div>ad.example</div><div>Ad text here.</div></div>
<div class="zz"><a href="/url?q=https://one.example/page&amp;sa=U"><span>One result title</span><span>one.example › page</span></a><div>First snippet about foo.</div></div>
<div class="zz"><a href="/url?q=https://www.google.com/intl/en/about/&amp;sa=U">About Google</a><div>google.com</div><div>Not a result of the fallback.</div></div>
<div class="zz"><a href="https://two.example/b">Two result title</a><div>https://two.example/b</div><div>Mar 3, 2021 — Second snippet.</div></div>
<div class="zz"><a href="/url?q=https://one.example/page&amp;sa=U">One result title again</a><div>one.example</div><div>Same page twice.</div></div>
<div class="zz"><div>What is foo?</div><div>Foo is a word.</div><a href="https://faq.example/foo">faq.example answer</a><div>faq.example</div></div>
<nav><a href="https://nav.example/">Nav link</a><div>nav.example</div></nav>
</div></body></html>`;

describe('Google fallback reader (unknown layouts)', () => {
  it('reads title link + shown URL + snippet blocks in page order, without ads, Google links, questions or nav', () => {
    const { verdict, parser, results } = organic(UNKNOWN_LAYOUT);
    expect(verdict).toEqual({ kind: 'ok' });
    expect(parser).toBe('fallback');
    expect(results).toEqual([
      { title: 'One result title', link: 'https://one.example/page', snippet: 'First snippet about foo.', position: 1 },
      { title: 'Two result title', link: 'https://two.example/b', snippet: 'Second snippet.', date: 'Mar 3, 2021', position: 2 },
    ]);
  });

  it('reads links that put the URL line before the title (mobile style), without headings', () => {
    const res = (host: string, title: string) => `<div class="m"><a href="https://${host}/p"><div>https://${host} › p</div>`
      + `<div>${title}</div></a><div>Snippet for ${title}.</div></div>`;
    const { parser, results } = organic(`<div id="main">${res('a.example', 'Alpha page')}${res('b.example', 'Beta page')}</div>`);
    expect(parser).toBe('fallback');
    expect(results.map((r) => [r.title, r.snippet])).toEqual([['Alpha page', 'Snippet for Alpha page.'], ['Beta page', 'Snippet for Beta page.']]);
  });

  it('leaves out sections Google titles as its own blocks (Top stories, Videos, AI Overview)', () => {
    const res = (host: string) => `<div class="r"><a href="https://${host}/">Result at ${host}</a><div>${host} › page</div><div>About ${host}.</div></div>`;
    const section = (heading: string, host: string) => `<div class="s"><div role="heading" aria-level="2">${heading}</div>`
      + `<div><a href="https://${host}/x">Story at ${host}</a><div>${host} · 2 hours ago</div></div></div>`;
    const html = `<div id="main">${res('a.example')}${section('Top stories', 'news.example')}${res('b.example')}${section('AI Overview', 'src.example')}`
      + `${res('c.example')}${section('Videos', 'video.example')}</div>`;
    expect(organic(html).results.map((r) => r.link)).toEqual(['https://a.example/', 'https://b.example/', 'https://c.example/']);
  });

  it('keeps a plain-link result whose sitelinks split its block, and drops the sitelinks', () => {
    const main = '<div class="res"><div><a href="https://m.example/">Main site title</a></div>'
      + '<div><a href="https://m.example/a">Alpha</a> <a href="https://m.example/b">Beta</a></div>'
      + '<div>m.example › home</div><div>Main snippet text.</div></div>';
    const other = '<div class="res"><a href="https://o.example/p">Other page title</a><div>o.example › p</div><div>Other snippet.</div></div>';
    const { results } = organic(`<div id="main">${main}${other}</div>`);
    expect(results.map((r) => r.link)).toEqual(['https://m.example/', 'https://o.example/p']);
  });

  it('counts positions across pages', () => {
    expect(organic(UNKNOWN_LAYOUT, 2).results.map((r) => r.position)).toEqual([11, 12]);
  });

  it('reads a news-only page: cards the layout reader leaves out, a link around source, heading and snippet', () => {
    const card = (href: string, title: string) => `<div class="dbsr"><a href="${href}"><div>Daily Paper</div>`
      + `<div role="heading" aria-level="3">${title}</div><div>A long enough snippet about the story in question.</div><div>3 hours ago</div></a></div>`;
    const { parser, results } = organic(`<div id="main">${card('https://p.example/1', 'Story one')}${card('https://p.example/2', 'Story two')}</div>`);
    expect(parser).toBe('fallback');
    expect(results.map((r) => [r.title, r.snippet, r.date])).toEqual([
      ['Story one', 'Daily Paper A long enough snippet about the story in question.', '3 hours ago'],
      ['Story two', 'Daily Paper A long enough snippet about the story in question.', '3 hours ago'],
    ]);
  });

  it('completes the layout reader when it finds clearly fewer results than the page shows, in page order', () => {
    const known = (n: number) => `<div class="g"><div class="yuRUbf"><a href="https://k${n}.example/"><h3>Known ${n}</h3></a></div>`
      + `<div class="VwiC3b">Known snippet ${n}.</div></div>`;
    const plain = (n: number) => `<div class="nw"><a href="https://n${n}.example/">New ${n}</a><div>n${n}.example › x</div><div>New snippet ${n}.</div></div>`;
    const { parser, results } = organic(`<div id="main">${known(1)}${plain(1)}${plain(2)}${known(2)}${plain(3)}</div>`);
    expect(parser).toBe('fallback');
    expect(results.map((r) => [r.position, r.title])).toEqual([[1, 'Known 1'], [2, 'New 1'], [3, 'New 2'], [4, 'Known 2'], [5, 'New 3']]);
  });

  it('on a page whose results show their URL, drops cards without one (carousels, sitelinks), keeps same-site groups', () => {
    const res = (n: number, host: string, path = '') => `<div class="r"><a href="https://${host}/${path}"><div role="heading">Result number ${n} title</div></a>`
      + `<div>${host} › ${path || 'home'}</div><div>Snippet of result ${n}.</div></div>`;
    const grouped = '<ul><li><a href="https://b.example/more"><div role="heading">More from the same site here</div></a>'
      + '<div>Oct 6, 2020 — A long enough snippet for a grouped result from the same site as above.</div></li></ul>';
    const card = (n: number) => `<div class="v"><a href="https://video.example/${n}"><div role="heading">Video ${n}</div>`
      + '<div>A card with a heading and a line of text long enough to pass.</div></a></div>';
    // The reader itself (the layout reader would take these heading links before it).
    const entries = fallbackOrganicEntries(loadDom(`<div id="main">${res(1, 'a.example')}${res(2, 'b.example')}${grouped}${card(1)}${card(2)}${res(3, 'c.example')}</div>`));
    expect(entries.map((e) => e.result.link)).toEqual(['https://a.example/', 'https://b.example/', 'https://b.example/more', 'https://c.example/']);
  });

  it('leaves a known page alone: no parser flag when the layout reader found every result', () => {
    const html = '<div id="main"><div class="g"><a href="https://a.example/"><h3>A</h3></a><div class="VwiC3b">a</div></div></div>';
    expect(organic(html).parser).toBeUndefined();
  });
});

describe('Google verdicts need positive evidence', () => {
  const page = (body: string) => `<html><body>${body}</body></html>`;

  it('an ordinary page without recognisable results is ok (flagged), not blocked', () => {
    expect(detectVerdict('google', page('<div id="main"><p>Something Google has never shown before.</p></div>'))).toEqual({ kind: 'ok' });
    expect(parseGoogleSerp(page('<div>x</div>'), q).result?.parser).toBe('none');
  });

  it.each([
    ['unusual traffic (fr)', '<p>Nos systèmes ont détecté un trafic exceptionnel sur votre réseau informatique.</p>', 'unusual_traffic'],
    ['unusual traffic (it)', '<p>I nostri sistemi hanno rilevato traffico insolito proveniente dalla tua rete.</p>', 'unusual_traffic'],
    ['unusual traffic (ja)', '<p>このページについて お使いのコンピュータ ネットワークから通常と異なるトラフィックが検出されました。</p>', 'unusual_traffic'],
    ['automated queries (403 page)', '<p>We\'re sorry... but your computer or network may be sending automated queries.</p>', 'unusual_traffic'],
    ['a consent wall (sv)', '<h1>Innan du fortsätter till Google</h1>', 'consent'],
    ['the /sorry/ URL', '<p>Redirecting to https://www.google.com/sorry/index?continue=x</p>', 'captcha'],
    ['a sorry.google.com link', '<a href="https://sorry.google.com/sorry/Captcha">continue</a>', 'captcha'],
    ['a Cloudflare challenge', '<script src="/cdn-cgi/challenge-platform/h/b/orchestrate/chl_page/v1"></script>', 'captcha'],
    ['a DataDome captcha', '<iframe src="https://geo.captcha-delivery.com/captcha/?initialCid=x"></iframe>', 'captcha'],
    ['a consent wall (es)', '<h1>Antes de ir a Google</h1><button>Aceptar todo</button>', 'consent'],
    ['the no-JavaScript gate', '<noscript><meta content="0;url=/httpservice/retry/enablejs?sei=x" http-equiv="refresh"></noscript>', 'unknown'],
  ])('%s is blocked', (_name, body, reason) => {
    expect(detectVerdict('google', page(body))).toEqual({ kind: 'blocked', reason });
  });

  it.each([
    ['es', '<p>No se han encontrado resultados para tu búsqueda (<b>zzqx</b>).</p>'],
    ['pt', '<p>Sua pesquisa - <b>zzqx</b> - não encontrou nenhum documento correspondente.</p>'],
    ['nl', '<p>Je zoekopdracht - <b>zzqx</b> - heeft geen overeenkomstige documenten opgeleverd.</p>'],
    ['ru', '<p>По запросу <b>zzqx</b> ничего не найдено.</p>'],
  ])('Google\u2019s no-match sentence (%s) is no_results', (_lang, body) => {
    expect(detectVerdict('google', page(body))).toEqual({ kind: 'no_results' });
  });
});
