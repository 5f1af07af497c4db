/**
 * Bing's blocks around the organic results (UPSTREAMS.md A "Rich blocks", zoekplaatje's taxonomy): related searches,
 * the right-rail entity panel (`#b_context .b_entityTP`, `.lite-entcard-blk`), people-also-ask (`.df_alsoAsk`),
 * the answer box (`#d_ans`, `GenericMicroAnswer`, `.b_focusTextLarge`), the Copilot answer (`#b_wpt_creator`), and
 * the pagination state (`.sb_count` range, `a.sb_pagN`).
 */
import {
  attr, closest, findAll, findFirst, hasAnyClass, hasClass, textOf, type Element, type SerpDom,
} from '../dom/serp-dom.js';
import type { AiAnswer, DirectAnswer, LocalResult, QuestionAnswer, SearchPagination, Sidebar } from '../types.js';
import { sourceOf, uniqueTexts } from '../web/search-page.js';
import { hostOf, unwrapBingLink } from '../util/urls.js';

const external = (href: string): string => {
  const link = unwrapBingLink(href);
  return /^https?:\/\//i.test(link) && !/(^|\.)bing\.com$/.test(hostOf(link)) ? link : '';
};

/** `/search?q=…` links of Bing's related-search boxes (in the results column, the right rail, or the footer). */
export function parseBingRelated(dom: SerpDom): string[] {
  const boxes: Element[] = [
    ...dom.byClass('b_rs'), ...dom.byClass('b_rrsr'), ...dom.byClass('richrswrapper'), ...dom.byClass('richrsrailsugwrapper'),
    ...['brsv3', 'relatedSearchesLGWContainer', 'inline_rs', 'rs_lgw_list'].map((id) => dom.byId(id)).filter((e): e is Element => !!e),
  ];
  // The 2015 markup puts them in a plain `li.b_ans` of the right rail; their links carry FORM=R5FD….
  for (const a of dom.byTag('a')) if (/[?&]FORM=R5FD/i.test(attr(a, 'href')) && a.parent) boxes.push(closest(a, (e) => e.name === 'ul') ?? a);
  const out: string[] = [];
  for (const box of boxes) {
    const anchors = box.name === 'a' ? [box] : findAll(box, (e) => e.name === 'a');
    for (const a of anchors) {
      if (!/[?&]q=/.test(attr(a, 'href'))) continue;
      const label = findFirst(a, (e) => hasAnyClass(e, ['b_suggestionText', 'suggestion_text', 'richrsrailsuggestion_text']));
      out.push(textOf(label ?? a));
    }
  }
  return uniqueTexts(out);
}

/** `Label: value` facts of an entity panel (`.b_factrow`, `.b_vlist2col` items). */
function entityFacts(panel: Element): Record<string, string> {
  const facts: Record<string, string> = {};
  for (const row of findAll(panel, (e) => (e.name === 'li' || e.name === 'div') && hasClass(e, 'b_factrow') || e.name === 'li' && !!closest(e, (x) => hasClass(x, 'b_vlist2col'), panel))) {
    const text = textOf(row);
    const m = /^([^:]{2,40}):\s*(.+)$/.exec(text);
    if (m && !(m[1] in facts)) facts[m[1].trim()] = m[2].trim();
  }
  return facts;
}

/** The knowledge panel of the right rail; null when the page has none. */
export function parseBingSidebar(dom: SerpDom): Sidebar | null {
  const context = dom.byId('b_context');
  // 2015-2021 `.b_entityTP`; 2021+ entity card `.lite-entcard-main` (title in the hero block `.l_ecrd_hero` or the
  // logo header, description `.l_ecrd_txt_pln` / `#ic_desc`).
  const panel = dom.byClass('b_entityTP')[0] ?? dom.byClass('lite-entcard-main')[0] ?? dom.byClass('lite-entcard-blk')[0]
    ?? (context && findFirst(context, (e) => hasClass(e, 'b_entityTitle'))?.parent);
  if (!panel || !(panel.type === 'tag')) return null;
  const named = findFirst(panel, (e) => hasAnyClass(e, ['b_entityTitle', 'lite-entcard-title', 'enttitle', 'spl_logoheader_txt']));
  const hero = findFirst(panel, (e) => hasClass(e, 'l_ecrd_hero'));
  const title = textOf(named ?? findFirst(hero ?? panel, (e) => /^h[1-3]$/.test(e.name)));
  if (!title) return null;
  const type = textOf(findFirst(panel, (e) => hasAnyClass(e, ['b_entitySubTitle', 'lite-entcard-subtitle', 'entsubtitle', 'l_ecrd_subtitle'])));
  // The description is cut with "…" and a "more" toggle; the full text sits in a hidden sibling.
  const snippetEl = findFirst(panel, (e) => hasAnyClass(e, ['b_snippet', 'lite-entcard-desc', 'lite-entcard-text', 'l_ecrd_txt_pln']) || e.attribs.id === 'ic_desc');
  const full = snippetEl && findFirst(snippetEl, (e) => hasClass(e, 'b_hide'));
  const description = textOf(full ?? snippetEl, (e) => hasAnyClass(e, ['expansionAccessibilityText', 'b_mopexpref', 'sml']));
  // "… See more on IMDb": the link text names the description's source.
  const more = /\s*See more on (.{2,40})$/.exec(description);
  const sidebar: Sidebar = { title, type, description: more ? description.slice(0, more.index) : description, attributes: entityFacts(panel) };
  if (more) sidebar.source = more[1].trim();
  const links = findAll(panel, (e) => e.name === 'a').map((a) => ({ a, href: external(attr(a, 'href')) })).filter((x) => x.href);
  const official = links.find((x) => !closest(x.a, (e) => hasClass(e, 'infoCardIcons'), panel)) ?? links[0];
  if (official) sidebar.link = official.href;
  const wiki = links.find((x) => /wikipedia\.org$/.test(hostOf(x.href)));
  if (wiki && description && !sidebar.source) sidebar.source = 'Wikipedia';
  return sidebar;
}

/** Stars of a rating row: full `sw_st` and half `sw_sth` icons ("4.5"); '' without icons. */
function starRating(row: Element): string {
  const full = findAll(row, (e) => hasClass(e, 'sw_st')).length;
  const half = findAll(row, (e) => hasClass(e, 'sw_sth')).length;
  return full + half ? String(full + half / 2) : '';
}

/** The local pack (map answer): one card per place (`.lc_content`), with its rating, address and phone. */
export function parseBingLocalResults(dom: SerpDom): { heading: string; places: LocalResult[] } | null {
  const places: LocalResult[] = [];
  for (const card of dom.byClass('lc_content')) {
    if (closest(card, (e) => hasAnyClass(e, ['b_ad', 'b_algo']))) continue;
    const title = textOf(findFirst(card, (e) => e.name === 'h2' || hasClass(e, 'lc_title')));
    if (!title || places.some((p) => p.title === title)) continue;
    const place: LocalResult = { title };
    const rows = findAll(card, (e) => hasClass(e, 'b_factrow'));
    const rating = rows.map(starRating).find(Boolean);
    if (rating) place.rating = rating;
    const address = findAll(card, (e) => e.name === 'span' && /\d.*,|,.*\d/.test(attr(e, 'title'))).map((e) => attr(e, 'title'))[0];
    if (address) place.address = address;
    const phone = rows.map((r) => /(?:\+\d[\d\s().-]{6,}\d|\(\d{3}\)\s?\d{3}-\d{4})/.exec(textOf(r))?.[0]).find(Boolean);
    if (phone) place.phone = phone;
    const link = findAll(card, (e) => e.name === 'a').map((a) => external(attr(a, 'href'))).find(Boolean);
    if (link) place.link = link;
    places.push(place);
  }
  if (!places.length) return null;
  const map = dom.byId('lMapContainer');
  return { heading: textOf(map && findFirst(map, (e) => e.name === 'h2')), places };
}

/** People-also-ask cards: the question, and the quoted answer and its source when the card carries them. */
export function parseBingQuestions(dom: SerpDom): QuestionAnswer[] {
  const out: QuestionAnswer[] = [];
  const seen = new Set<string>();
  const cards = [...dom.byClass('df_alsoAsk'), ...dom.byClass('df_alsoAskCard')].sort((a, b) => dom.order(a) - dom.order(b));
  for (const card of cards) {
    if (cards.some((c) => c !== card && closest(card, (e) => e === c))) continue;
    const qEl = findFirst(card, (e) => hasAnyClass(e, ['df_qntext', 'b_expansion_text']));
    const question = textOf(qEl);
    if (!question || seen.has(question)) continue;
    seen.add(question);
    const item: QuestionAnswer = { question };
    const body = findFirst(card, (e) => hasAnyClass(e, ['rwrl', 'df_alsocon']));
    const snippet = body && textOf(body, (e) => hasAnyClass(e, ['rwrl_cred', 'df_rq', 'b_footnote', 'b_attribution']) || e.name === 'cite');
    if (snippet) item.snippet = snippet;
    // The source: a link in the credit line, else any outbound link of the card, else the link around the card
    // (2024+ cards are wrapped in one), else the cited URL as text.
    const cred = findFirst(card, (e) => hasAnyClass(e, ['rwrl_cred', 'b_footnote']) || e.name === 'cite');
    const href = cred && findFirst(cred, (e) => e.name === 'a');
    const around = closest(card, (e) => e.name === 'a');
    const citeText = textOf(findFirst(card, (e) => e.name === 'cite'));
    const link = (href && external(attr(href, 'href')))
      || findAll(card, (e) => e.name === 'a').map((a) => external(attr(a, 'href'))).find(Boolean)
      || (around && external(attr(around, 'href')))
      || (/^https?:\/\/\S+$/.test(citeText) ? citeText : '');
    if (link) item.link = link;
    out.push(item);
  }
  return out;
}

/** The answer box above the results: featured snippet, calculator, conversion, weather, definition. */
export function parseBingDirectAnswer(dom: SerpDom): DirectAnswer | null {
  const box = dom.byId('d_ans') ?? dom.withAttr('data-key').find((e) => /MicroAnswer|Calculator|Weather|Conversion/i.test(attr(e, 'data-key')))
    ?? dom.byClass('b_focusTextLarge')[0] ?? dom.byClass('b_focusTextMedium')[0];
  if (!box) return null;
  const scope = box.name === 'div' && !hasAnyClass(box, ['b_focusTextLarge', 'b_focusTextMedium']) ? box : closest(box, (e) => hasClass(e, 'b_ans')) ?? box;
  if (closest(scope, (e) => hasAnyClass(e, ['b_ad', 'b_algo']) || e.attribs.id === 'b_context')) return null;
  const focus = findFirst(scope, (e) => hasAnyClass(e, ['b_focusTextLarge', 'b_focusTextMedium', 'df_da', 'b_focusTextSmall']));
  const con = findFirst(scope, (e) => hasAnyClass(e, ['df_con', 'rwrl']));
  const skip = (e: Element) => hasAnyClass(e, ['b_footnote', 'rwrl_cred', 'b_attribution']) || e.name === 'cite' || e.name === 'h2';
  const answer = textOf(focus, skip) || textOf(con, skip) || textOf(scope, skip);
  if (!answer) return null;
  const out: DirectAnswer = { answer };
  const label = textOf(findFirst(scope, (e) => hasAnyClass(e, ['b_focusLabel', 'b_secondaryFocus'])));
  const snippet = focus && con ? textOf(con, skip) : label;
  if (snippet && snippet !== answer) out.snippet = snippet;
  const a = findAll(scope, (e) => e.name === 'a').map((x) => external(attr(x, 'href'))).find(Boolean);
  if (a) {
    out.link = a;
    out.source = sourceOf(a, textOf(findFirst(scope, (e) => hasClass(e, 'tptt'))) || undefined);
  }
  return out;
}

/**
 * The generative answer: Copilot's container holding `#b_wpt_creator` (zoekplaatje; `#copans_container`,
 * `.b_genserp_container` in other public parsers), or the generated prose box
 * (`li.b_ans.b_top` in 2026 captures) recognised by its numbered citation links `a.md_citlink`. Citations are the
 * sources, not part of the text.
 */
export function parseBingAiAnswer(dom: SerpDom): AiAnswer | null {
  const creator = dom.byId('b_wpt_creator') ?? dom.byId('copans_container') ?? dom.byClass('b_genserp_container')[0];
  const citation = dom.byClass('md_citlink').find((a) => !closest(a, (e) => hasAnyClass(e, ['b_algo', 'b_ad']) || e.attribs.id === 'b_context'));
  const anchor = creator ?? citation;
  if (!anchor) return null;
  const box = closest(anchor, (e) => creator ? hasAnyClass(e, ['b_wpt_bl', 'b_ans']) || e.name === 'li' : hasClass(e, 'b_ans') || e.name === 'li') ?? anchor;
  const skip = (e: Element) => e.attribs.id === 'b_wpt_creator' || hasAnyClass(e, ['md_citlink', 'b_footnote', 'b_attribution']) || ['cite', 'button', 'sup'].includes(e.name);
  const answer = textOf(box, skip);
  if (!answer) return null;
  const cited = findAll(box, (e) => e.name === 'a' && hasClass(e, 'md_citlink'));
  const anchors = cited.length ? cited : findAll(box, (e) => e.name === 'a');
  const sources = anchors.map((a) => ({
    title: textOf(a) || attr(a, 'aria-label').replace(/^[^:]{1,20}:\s*/, '') || attr(a, 'title'),
    link: external(attr(a, 'href')),
  })).filter((x, i, all) => x.link && all.findIndex((y) => y.link === x.link) === i);
  return { answer, sources };
}

/** `"11-20 of 1,230,000 results"` → 10 (0-based offset); null without a range. */
export function bingRangeOffset(countText: string): number | null {
  const m = /^\s*(\d[\d.,\s\u00a0\u202f]*?)\s*[-–]\s*\d/.exec(countText);
  if (!m) return null;
  const n = Number(m[1].replace(/[^\d]/g, ''));
  return Number.isFinite(n) && n >= 1 ? n - 1 : null;
}

/**
 * Where the page sits: the `.sb_count` range ("11-20 of …"); else page 1 when the pager marks "1" as current (or
 * shows no pager position at all); else the next link's `first` minus this page's results. A next link means a
 * next page.
 */
export function parseBingPagination(dom: SerpDom, resultCount: number): SearchPagination {
  const countText = textOf(dom.byClass('sb_count')[0]);
  const current = textOf(dom.byClass('sb_pagS')[0]);
  const next = dom.byClass('sb_pagN').find((a) => attr(a, 'href'));
  const first = next && /[?&]first=(\d+)/.exec(attr(next, 'href'));
  let offset = bingRangeOffset(countText);
  if (offset === null && (current === '1' || !current && !dom.byClass('sb_pagP').length && countText)) offset = 0;
  if (offset === null && first && Number(first[1]) - 1 - resultCount >= 0) offset = Number(first[1]) - 1 - resultCount;
  const pagination: SearchPagination = { offset, hasNext: !!next };
  if (first) pagination.nextParams = { first: first[1] };
  return pagination;
}

/** The result count exactly as printed, without the "11-20 of" range in front. */
export function bingTotalResults(dom: SerpDom): string {
  const text = textOf(dom.byClass('sb_count')[0]);
  return text.replace(/^\s*\d[\d.,\s\u00a0\u202f]*[-–]\s*\d[\d.,\s\u00a0\u202f]*\s+\S+\s+/, '').trim();
}
