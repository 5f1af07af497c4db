import { describe, expect, it } from '@jest/globals';
import { parseBingSearchPage } from './bing-provider.js';
import { bingRangeOffset } from './bing-features.js';

const algo = (n: number) => `<li class="b_algo"><h2><a href="https://r${n}.example/">Result ${n}</a></h2><div class="b_caption"><p>Snippet ${n}.</p></div></li>`;
const serp = (inner: string, extra = '') => `<html><body><span class="sb_count">11-20 of 1,230,000 results</span>
<ol id="b_results">${inner}${algo(1)}${algo(2)}
<li class="b_pag"><nav><ul><li><a class="sb_pagP" href="/search?q=x&first=1">Prev</a></li><li><a class="sb_pagS">2</a></li>
<li><a class="sb_pagN" title="Next page" href="/search?q=x&first=21&FORM=PORE">Next</a></li></ul></nav></li></ol>
<ol id="b_context">${extra}</ol></body></html>`;

describe('Bing /search page', () => {
  it('reports the offset the page shows, the next page, and the total as printed', () => {
    const { verdict, page, pagination } = parseBingSearchPage(serp(''), { page: 2 });
    expect(verdict).toEqual({ kind: 'ok' });
    expect(pagination).toEqual({ offset: 10, hasNext: true, nextParams: { first: '21' } });
    expect(page?.total_results).toBe('1,230,000 results');
    expect(bingRangeOffset('1-10 of 5 results')).toBe(0);
    expect(bingRangeOffset('5 results')).toBeNull();
    // Without a range: the next link's first= minus this page's results.
    const noRange = serp('').replace('11-20 of 1,230,000 results', 'Page 2 of 1,230,000 results');
    expect(parseBingSearchPage(noRange, { page: 2 }).pagination.offset).toBe(18);
  });

  it('parses the answer box, Copilot answer, people-also-ask and knowledge panel; absent blocks are absent', () => {
    const answer = `<li class="b_ans b_top"><div id="d_ans"><div class="df_da">42 kilometres</div><div class="df_con">The marathon is 42.195 km long.</div>
      <cite><a href="https://en.wikipedia.org/wiki/Marathon">Wikipedia</a></cite></div></li>`;
    const copilot = `<li class="b_ans"><div class="b_wpt_bl"><div id="b_wpt_creator">Copilot</div><p>A marathon is a long-distance race.</p>
      <a href="https://runner.example/marathon">Runner's guide</a></div></li>`;
    const paa = `<li class="b_ans b_mop"><div class="df_alsoAsk"><div class="b_expansion_text">How long is a marathon?</div>
      <div class="df_alsocon"><div class="rwrl">26.2 miles.</div><div class="rwrl_cred"><a href="https://run.example/faq">run.example</a></div>
      <div class="df_rq"><a href="/search?q=How+long">See all results</a></div></div></div></li>`;
    const panel = `<li class="b_ans"><div class="b_entityTP"><h2 class="b_entityTitle">Marathon</h2><div class="b_entitySubTitle">Sport event</div>
      <div class="b_snippet">Long-distance race… <div class="b_hide"><span>Long-distance foot race of 42.195 km.</span></div></div>
      <div class="b_factrow"><strong>Distance:</strong> 42.195 km</div>
      <a href="https://www.worldathletics.example/">Official site</a></div></li>`;
    const related = '<li class="b_ans"><div class="b_rs"><h2>Related searches</h2><ul><li><a href="/search?q=marathon+training">marathon training</a></li></ul></div></li>';
    const { page } = parseBingSearchPage(serp(answer + copilot + paa, panel + related), { page: 2 });
    expect(page?.direct_answer).toEqual({
      answer: '42 kilometres', snippet: 'The marathon is 42.195 km long.', link: 'https://en.wikipedia.org/wiki/Marathon', source: 'en.wikipedia.org',
    });
    expect(page?.ai_answer).toEqual({ answer: 'A marathon is a long-distance race. Runner\'s guide', sources: [{ title: 'Runner\'s guide', link: 'https://runner.example/marathon' }] });
    expect(page?.questions_answers).toEqual([{ question: 'How long is a marathon?', snippet: '26.2 miles.', link: 'https://run.example/faq' }]);
    expect(page?.sidebar).toEqual({
      title: 'Marathon', type: 'Sport event', description: 'Long-distance foot race of 42.195 km.', attributes: { Distance: '42.195 km' },
      link: 'https://www.worldathletics.example/',
    });
    expect(page?.related_queries).toEqual(['marathon training']);
    expect(page?.search_results.map((r) => r.link)).toEqual(['https://r1.example/', 'https://r2.example/']);
    const plain = parseBingSearchPage(serp(''), { page: 2 }).page ?? {};
    expect(Object.keys(plain).sort()).toEqual(['related_queries', 'search_results', 'total_results']);
  });

  it('2026 Copilot layout: the promoted rank-1 card, the generated answer with its citations, dates from news_dt', () => {
    const ck = (url: string) => `https://www.bing.com/ck/a?!&amp;&amp;p=x&amp;u=a1${Buffer.from(url).toString('base64url')}&amp;ntb=1`;
    const promoted = `<ol id="b_topw" class="b_results_eml"><div class="b_wpt_bl"><div class="b_tpcn"><a class="tilk" href="${ck('https://www.pcmag.example/best')}">
      <div class="tptxt"><div class="tptt">pcmag.example</div></div></a></div><h2><a href="${ck('https://www.pcmag.example/best')}">Best laptops | PCMag</a></h2>
      <div class="b_caption"><p class="b_lineclamp2"><span class="news_dt">1. Aug. 2026</span> · Our picks …</p></div></div>
      <div class="b_wpt_bl"><div class="mma_acf_label_container"><span class="mma_badge_slug">Gesponsert</span></div>
      <h2><a href="https://www.bing.com/aclk?ld=x&amp;u=aHR0cHM6Ly9hZC5leGFtcGxlLw">Sponsored card</a></h2></div>
      <div class="b_wpt_bl"><a class="mc_vtvc_link" href="${ck('https://video.example/v')}">Video</a></div></ol>`;
    const generated = `<li class="b_ans b_top"><h2>The top laptops of 2026 include the MacBook Air.</h2><h2>Top picks</h2>
      <div class="answer_container"><a class="md_citlink" aria-label="Quellen: Forbes" href="${ck('https://www.forbes.example/best-laptop/')}">Forbes</a>
      <a class="md_citlink" href="${ck('https://www.pcwelt.example/test.html')}">www.pcwelt.example</a></div></li>`;
    const { page } = parseBingSearchPage(promoted + serp(generated), { page: 2 });
    expect(page?.search_results[0]).toEqual({
      title: 'Best laptops | PCMag', link: 'https://www.pcmag.example/best', date: '1. Aug. 2026', snippet: 'Our picks …', source: 'pcmag.example',
    });
    expect(page?.search_results.map((r) => r.title)).toEqual(['Best laptops | PCMag', 'Result 1', 'Result 2']);
    expect(page?.ai_answer).toEqual({
      answer: 'The top laptops of 2026 include the MacBook Air. Top picks',
      sources: [{ title: 'Forbes', link: 'https://www.forbes.example/best-laptop/' }, { title: 'www.pcwelt.example', link: 'https://www.pcwelt.example/test.html' }],
    });
    expect(page?.direct_answer).toBeUndefined();
  });

  it('2024+ related-search rail and people-also-ask cards wrapped in their source link', () => {
    const rail = `<li class="b_ans"><div class="richrsrailsugwrapper"><div class="richrsrailsuggestion"><a href="/search?q=rust+book&amp;FORM=R5FD">
      <div class="richrsrailsuggestion_text">rust book</div></a></div></div></li>`;
    const paa = `<li class="b_ans"><a href="https://doc.rust.example/book/"><div class="df_alsoAskCard"><div class="df_qntext">Is Rust hard?</div>
      <div class="df_alsocon">It takes practice.</div><div class="b_attribution"><cite>doc.rust.example</cite></div></div></a></li>`;
    const { page } = parseBingSearchPage(serp(paa, rail), { page: 2 });
    expect(page?.related_queries).toEqual(['rust book']);
    expect(page?.questions_answers).toEqual([{ question: 'Is Rust hard?', snippet: 'It takes practice.', link: 'https://doc.rust.example/book/' }]);
  });

  it('2021+ entity card (lite-entcard-main) as the sidebar', () => {
    const card = `<li class="b_ans"><div class="lite-entcard-main"><div class="l_ecrd_hero"><h2>Rust</h2></div>
      <div class="l_ecrd_subtitle">Programming language</div><div id="ic_desc"><span class="l_ecrd_txt_pln">Rust is a systems language.</span></div>
      <a href="https://www.rust-lang.example/">rust-lang.example</a></div></li>`;
    expect(parseBingSearchPage(serp('', card), { page: 2 }).page?.sidebar).toEqual({
      title: 'Rust', type: 'Programming language', description: 'Rust is a systems language.', attributes: {}, link: 'https://www.rust-lang.example/',
    });
  });

  it('leaves ads out (b_ad blocks and aclick links)', () => {
    const ads = '<li class="b_ad"><ul><li class="b_algo"><h2><a href="https://ad.example/">Ad</a></h2></li></ul></li>'
      + '<li class="b_algo"><h2><a href="https://www.bing.com/aclick?ld=1&u=x">Ad 2</a></h2></li>';
    expect(parseBingSearchPage(serp(ads), { page: 2 }).page?.search_results.map((r) => r.title)).toEqual(['Result 1', 'Result 2']);
  });

  it('blocked on positive evidence: challenge page with 200, captcha redirect, 429; never "no results"', () => {
    const challenge = '<html><head><title>One last step</title></head><body><h1>Please solve the challenge below to continue</h1></body></html>';
    expect(parseBingSearchPage(challenge, { page: 1 }, { status: 200 }).verdict).toEqual({ kind: 'blocked', reason: 'captcha' });
    expect(parseBingSearchPage('<html><body></body></html>', { page: 1 }, { status: 200, finalUrl: 'https://www.bing.com/turing/captcha/challenge?q=x' }).verdict)
      .toEqual({ kind: 'blocked', reason: 'captcha' });
    expect(parseBingSearchPage(serp(''), { page: 2 }, { status: 429 }).verdict).toEqual({ kind: 'blocked', reason: 'rate_limited' });
    // A snippet quoting "One last step" on a normal page is not a block.
    const quoting = serp('<li class="b_algo"><h2><a href="https://q.example/">One last step</a></h2></li>');
    expect(parseBingSearchPage(quoting, { page: 2 }, { status: 200 }).verdict).toEqual({ kind: 'ok' });
    expect(parseBingSearchPage('<ol id="b_results"><li class="b_no"><h1>There are no results for <strong>zzqx</strong></h1></li></ol>', { page: 1 }).verdict)
      .toEqual({ kind: 'no_results' });
  });
});

describe('Bing Images pages read as a web search', () => {
  const page = (grid: string, action = '/images/search') => `<html><body><form action="${action}" method="get"><input name="q" value="rpg title screen"></form>`
    + `<div id="b_content">${grid}</div></body></html>`;
  const m = (purl: string, t: string) => JSON.stringify({ purl, murl: `${purl}img.jpg`, t }).replace(/"/g, '&quot;');

  it('reads each image of the scripted grid (a.iusc) as its source page, two images of one page as two results', () => {
    const grid = ['https://a.example/', 'https://b.example/post', 'https://a.example/']
      .map((u, i) => `<li><div class="imgpt"><a class="iusc" m="${m(u, `Title ${i + 1}`)}" href="/images/search?view=detailV2&amp;id=${i}"><img src="x.jpg"></a></div></li>`).join('');
    const { verdict, page: p } = parseBingSearchPage(page(`<ul class="dgControl_list">${grid}</ul>`), { page: 1 });
    expect(verdict).toEqual({ kind: 'ok' });
    expect(p?.search_results.map((r) => [r.title, r.link, r.source])).toEqual([
      ['Title 1', 'https://a.example/', 'a.example'], ['Title 2', 'https://b.example/post', 'b.example'], ['Title 3', 'https://a.example/', 'a.example'],
    ]);
  });

  it('reads the no-JavaScript grid (div.item: the page link a.tit, its title in .des)', () => {
    const item = (u: string, t: string) => `<div class="item"><a class="thumb" href="${u}full.jpg"><img src="t.jpg"></a>`
      + `<div class="meta"><a class="tit" href="${u}">${new URL(u).host}</a><div class="des">${t}</div><div class="fileInfo">480 x 360 jpeg 12kB</div></div></div>`;
    const { page: p } = parseBingSearchPage(page(`<div class="content"><div class="row">${item('https://c.example/', 'C page')}${item('https://d.example/x', 'D page')}</div></div>`), { page: 1 });
    expect(p?.search_results.map((r) => [r.title, r.link])).toEqual([['C page', 'https://c.example/'], ['D page', 'https://d.example/x']]);
  });

  it('leaves the image strip of a web page alone', () => {
    const strip = `<a class="iusc" m="${m('https://a.example/', 'A')}" href="/images/search?id=1"><img src="x.jpg"></a>`;
    expect(parseBingSearchPage(page(strip, '/search'), { page: 1 }).page?.search_results ?? []).toEqual([]);
  });
});

describe('Bing pages of an unknown layout (classes renamed)', () => {
  it('reads results by structure: heading links whose block shows the URL, deep links kept as sitelinks, ads left out', () => {
    const card = (n: number) => `<li class="q${n}"><h2><a href="https://site${n}.example/page">Result ${n} title</a></h2>`
      + `<div><cite>https://site${n}.example/page</cite></div><p>Snippet of result ${n}, long enough to read as a snippet.</p>`
      + (n === 1 ? '<ul><li><h3><a href="https://site1.example/deep">Deep link</a></h3></li></ul>' : '') + '</li>';
    const ad = '<li class="zz"><h2><a href="https://www.bing.com/aclk?ld=x">Sponsored thing</a></h2><cite>ad.example</cite></li>';
    const html = `<html><body><header><a href="https://www.bing.com/images">Images</a></header><main><ol>${ad}${card(1)}${card(2)}${card(3)}</ol></main></body></html>`;
    const { verdict, page } = parseBingSearchPage(html, { page: 1 });
    expect(verdict).toEqual({ kind: 'ok' });
    expect(page?.search_results.map((r) => [r.title, r.link])).toEqual([
      ['Result 1 title', 'https://site1.example/page'], ['Result 2 title', 'https://site2.example/page'], ['Result 3 title', 'https://site3.example/page'],
    ]);
    expect(page?.search_results[1].snippet).toContain('Snippet of result 2');
    // A saved fragment (no html/body element) is read the same way.
    const fragment = parseBingSearchPage(`<ol>${ad}${card(1)}${card(2)}${card(3)}</ol>`, { page: 1 });
    expect(fragment.page?.search_results.map((r) => r.link)).toEqual(page?.search_results.map((r) => r.link));
  });
  it('on a page whose cards have no heading, the cards "People also ask" quotes (outside the results list) are not results', () => {
    const card = (n: number, tag = 'li') => `<${tag} class="b_algo"><div class="b_title"><a href="https://r${n}.example/">Result ${n}</a></div>`
      + `<cite>r${n}.example</cite><div class="b_caption"><p>Snippet ${n}.</p></div></${tag}>`;
    const quoted = `<li class="b_ans"><div class="df_alsoAsk"><div>Why?</div>${card(9, 'div')}</div></li>`;
    const html = `<html><body><ol id="b_results">${card(1)}${quoted}${card(2)}${card(3)}</ol></body></html>`;
    expect(parseBingSearchPage(html, { page: 1 }).page?.search_results.map((r) => r.title)).toEqual(['Result 1', 'Result 2', 'Result 3']);
  });
});
