/**
 * Small Bing result pages in Bing's own markup (`ol#b_results > li.b_algo`, `.sb_count` range, `a.sb_pagN` pager,
 * `#b_context` panel, `.df_alsoAsk`, `#d_ans`, the Copilot box, `.b_rs` related searches) whose result links point
 * wherever the test wants (a loopback fixture site), so `/search` runs end to end without the captured corpus.
 */
export interface FixtureResult {
  title: string;
  link: string;
  snippet: string;
}

export interface BingPageOptions {
  query: string;
  results: FixtureResult[];
  /** 0-based offset the page prints in `.sb_count` ("11-20 of …"). */
  offset: number;
  /** A pager "next" link to `first=offset+results+1`. */
  hasNext: boolean;
  /** The blocks around the results (AI answer, people-also-ask, panel, answer box, related searches). */
  blocks?: boolean;
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');

export function bingPage(o: BingPageOptions): string {
  const q = encodeURIComponent(o.query);
  const algos = o.results
    .map((r) => `<li class="b_algo"><div class="b_tpcn"><div class="tptt">${esc(new URL(r.link).host)}</div></div>`
      + `<h2><a href="${esc(r.link)}">${esc(r.title)}</a></h2><div class="b_caption"><p class="b_lineclamp2">${esc(r.snippet)}</p></div></li>`)
    .join('\n');
  const blocks = o.blocks
    ? {
        top: `<li class="b_ans b_top"><div class="b_wpt_bl"><div id="b_wpt_creator">Copilot</div><p>${esc(o.query)} is explained by the Copilot answer.</p></div></li>
          <li class="b_ans"><div id="d_ans"><div class="df_da">${esc(o.query)}: the direct answer</div></div></li>`,
        middle: `<li class="b_ans b_mop"><div class="df_alsoAsk"><div class="df_qntext">What is ${esc(o.query)}?</div><div class="df_alsocon">An answer about ${esc(o.query)}.</div></div></li>`,
        bottom: `<li class="b_ans"><div class="b_rs"><h2>Related searches</h2><ul><li><a href="/search?q=${q}+history">${esc(o.query)} history</a></li>`
          + `<li><a href="/search?q=${q}+today">${esc(o.query)} today</a></li></ul></div></li>`,
        context: `<ol id="b_context"><li class="b_ans"><div class="b_entityTP"><div class="b_entityTitle">${esc(o.query)}</div>`
          + `<div class="b_entitySubTitle">Topic</div><div class="b_snippet">${esc(o.query)} is a topic with a knowledge panel.</div></div></li></ol>`,
      }
    : { top: '', middle: '', bottom: '', context: '' };
  const first = o.offset + 1;
  const last = o.offset + o.results.length;
  const pager = `<li class="b_pag"><nav><ul><li><a class="${o.offset === 0 ? 'sb_pagS' : 'sb_pagP'}" href="#">${Math.floor(o.offset / 10) + 1}</a></li>`
    + (o.hasNext ? `<li><a class="sb_pagN" href="/search?q=${q}&amp;first=${last + 1}&amp;FORM=PERE">Next</a></li>` : '')
    + '</ul></nav></li>';
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${esc(o.query)} - Search</title></head><body>
<header id="b_header"><form action="/search"><input name="q" value="${esc(o.query)}"></form></header>
<main aria-label="Search Results"><div id="b_content"><span class="sb_count">${first}-${last} of 1,230 results</span>
<ol id="b_results">${blocks.top}
${algos}
${blocks.middle}${blocks.bottom}${pager}</ol>${blocks.context}</div></main></body></html>`;
}

/** Bing's challenge, served with 200 (a soft block: no results, the "One last step" captcha). */
export const BING_CHALLENGE = `<!doctype html><html><head><title>Bing</title></head><body><div id="b_captcha"><h1>One last step</h1>
<p>Please solve the challenge below to continue</p><script src="https://challenges.cloudflare.com/turnstile/v0/api.js"></script></div></body></html>`;
