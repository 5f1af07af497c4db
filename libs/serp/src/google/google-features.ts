/**
 * Google's enriched blocks: knowledge graph, people also ask, related searches, answer box, top stories and the
 * result count. Each reader returns undefined when the page has no such block, so the response only carries what
 * Google showed. Markers are chosen to hold across generations: `data-attrid` (knowledge panel, 2018-2023),
 * `data-q` / `.related-question-pair` (PAA), the related-search click id in `ved` (`1QJ`, 2020-2023) plus headings.
 */
import {
  attr, closest, findAll, findFirst, hasAnyClass, hasClass, isInside, parentEl, textOf, type Element, type SerpDom,
} from '../dom/serp-dom.js';
import type { AnswerBox, KnowledgeGraph, PeopleAlsoAskItem, RelatedSearch, TopStory } from '../types.js';
import { looksLikeDate } from '../util/dates.js';
import { unwrapGoogleLink } from '../util/urls.js';
import { FEATURED_ANSWER_CLASSES } from './google-organic.js';

function firstByAttr(dom: SerpDom, name: string, value: string, within?: Element | null): Element | undefined {
  return dom.withAttr(name).find((e) => e.attribs[name] === value && (!within || isInside(e, within)));
}

function imageSrc(img: Element | null | undefined): string | undefined {
  if (!img) return undefined;
  for (const k of ['data-src', 'src', 'data-iurl']) {
    const v = attr(img, k);
    if (/^https?:\/\//i.test(v)) return v;
    if (v.startsWith('//')) return `https:${v}`;
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------- knowledge graph

const KG_CONTAINER = (e: Element) =>
  e.attribs.id === 'rhs' || hasAnyClass(e, ['kp-wholepage', 'knowledge-panel', 'kp-blk', 'osrp-blk', 'TzHB6b']);

export function parseKnowledgeGraph(dom: SerpDom): KnowledgeGraph | undefined {
  const titleEl = firstByAttr(dom, 'data-attrid', 'title') ?? dom.byClass('kno-ecr-pt')[0] ?? dom.byClass('qrShPb')[0];
  if (!titleEl) return undefined;
  const box = closest(titleEl, KG_CONTAINER) ?? null;
  const title = textOf(titleEl, (e) => attr(e, 'role') === 'button');
  if (!title) return undefined;
  const typeEl = firstByAttr(dom, 'data-attrid', 'subtitle', box) ?? dom.byClass('kno-ecr-st')[0] ?? dom.byClass('_gdf')[0];
  const kg: KnowledgeGraph = { title, type: textOf(typeEl), description: '', attributes: {} };

  const descEl = firstByAttr(dom, 'data-attrid', 'description', box) ?? dom.byClass('kno-rdesc')[0];
  if (descEl) {
    const source = findAll(descEl, (e) => e.name === 'a' && /^https?:|^\/url\?/.test(attr(e, 'href'))).pop();
    const headings = (e: Element) => e.name === 'h2' || e.name === 'h3' || attr(e, 'role') === 'heading' || e === source;
    kg.description = textOf(descEl, headings).replace(/^Description\s+/, '');
    if (source) {
      kg.descriptionSource = textOf(source);
      kg.descriptionLink = unwrapGoogleLink(attr(source, 'href')) || attr(source, 'href');
    }
  }

  for (const row of dom.withAttr('data-attrid')) {
    const id = row.attribs['data-attrid'];
    if (!id || !/^(kc|ss|hw):\//.test(id) || (box && !isInside(row, box))) continue;
    // Rows read "Label: value"; carousels with the same attrid have no colon and are skipped.
    const text = textOf(row, (e) => attr(e, 'role') === 'button' && textOf(e).toUpperCase() === 'MORE');
    const m = /^([^:]{1,60}):\s+(.+)$/.exec(text);
    if (!m || findFirst(row, (e) => !!e.attribs['data-attrid'])) continue;
    const key = m[1].trim();
    if (!(key in kg.attributes)) kg.attributes[key] = m[2].replace(/,?\s*MORE$/i, '').trim();
  }
  if (!Object.keys(kg.attributes).length) {
    // 2015-2019 panels: `.w8qArf` label + `.kno-fv` / `.LrzXr` value.
    for (const label of dom.byClass('w8qArf')) {
      const row = parentEl(label);
      if (!row) continue;
      const key = textOf(label).replace(/:\s*$/, '');
      const value = textOf(findFirst(row, (e) => hasAnyClass(e, ['kno-fv', 'LrzXr', '_Xbe'])));
      if (key && value && !(key in kg.attributes)) kg.attributes[key] = value;
    }
  }

  const site = (box ? findAll(box, (e) => e.name === 'a') : [])
    .find((a) => /^(website|official site|site web|sitio web|webseite)$/i.test(textOf(a)));
  const siteLink = site && unwrapGoogleLink(attr(site, 'href'));
  if (siteLink) kg.website = siteLink;
  const imgHolder = firstByAttr(dom, 'data-attrid', 'image', box);
  const img = imageSrc(imgHolder && findFirst(imgHolder, (e) => e.name === 'img'));
  if (img) kg.imageUrl = img;
  return kg;
}

// ----------------------------------------------------------------------------------------------- people also ask

export function parsePeopleAlsoAsk(dom: SerpDom): PeopleAlsoAskItem[] | undefined {
  const items: PeopleAlsoAskItem[] = [];
  const seen = new Set<string>();
  const pairs = [...new Set([...dom.withAttr('data-q'), ...dom.byClass('related-question-pair')])]
    .sort((a, b) => dom.order(a) - dom.order(b));
  for (const pair of pairs) {
    // Nested markers (data-q inside .related-question-pair) describe the same question.
    const inner = findFirst(pair, (e) => e.attribs['data-q'] !== undefined || hasClass(e, 'related-question-pair'));
    if (inner) continue;
    const button = findFirst(pair, (e) => attr(e, 'role') === 'button');
    const question = (pair.attribs['data-q'] || textOf(button ?? pair)).trim();
    if (!question || seen.has(question)) continue;
    seen.add(question);
    items.push({ question, ...paaAnswer(pair) });
  }
  if (!items.length) items.push(...noJsPeopleAlsoAsk(dom, seen));
  return items.length ? items : undefined;
}

/** The expanded answer of a PAA entry, when Google rendered it: its source link, title and text. */
function paaAnswer(pair: Element): Omit<PeopleAlsoAskItem, 'question'> {
  const heading = findFirst(pair, (e) => e.name === 'h3' && !!closest(e, (x) => x.name === 'a', pair))
    ?? findFirst(pair, (e) => e.name === 'a' && !!findFirst(e, (x) => x.name === 'h3'));
  const a = heading && (heading.name === 'a' ? heading : closest(heading, (x) => x.name === 'a', pair));
  const link = a ? unwrapGoogleLink(attr(a, 'href')) : '';
  const answer = findFirst(pair, (e) => hasAnyClass(e, FEATURED_ANSWER_CLASSES));
  return { snippet: textOf(answer), title: a ? textOf(findFirst(a, (e) => e.name === 'h3') ?? a) : '', link };
}

/** No-JS layout: a section headed "People also ask" with `.C7GS5b` questions, each followed by its answer. */
function noJsPeopleAlsoAsk(dom: SerpDom, seen: Set<string>): PeopleAlsoAskItem[] {
  const out: PeopleAlsoAskItem[] = [];
  for (const q of dom.byClass('C7GS5b')) {
    const section = closest(q, (e) => hasClass(e, 'Gx5Zad') || hasClass(e, 'xpd'));
    const header = section && findFirst(section, (e) => hasClass(e, 'K8tyEc'));
    if (!header || !/people also ask|autres questions|otras preguntas|nutzer fragen auch/i.test(textOf(header))) continue;
    const question = textOf(q);
    if (!question || seen.has(question)) continue;
    seen.add(question);
    const answerBox = q.next && (q.next as Element).type === 'tag' ? (q.next as Element) : null;
    const a = answerBox && findFirst(answerBox, (e) => e.name === 'a' && /^\/url\?|^https?:/.test(attr(e, 'href')));
    const text = answerBox && findFirst(answerBox, (e) => hasClass(e, 's3v9rd') && !findFirst(e, (x) => hasClass(x, 's3v9rd')));
    out.push({
      question,
      snippet: textOf(text),
      title: a ? textOf(findFirst(a, (e) => hasClass(e, 'vvjwJb')) ?? a) : '',
      link: a ? unwrapGoogleLink(attr(a, 'href')) : '',
    });
  }
  return out;
}

// ---------------------------------------------------------------------------------------------- related searches

const RELATED_HEADING = /^(related searches|searches related to|people also search for|recherches associées|ähnliche suchanfragen|búsquedas relacionadas|ricerche correlate|pesquisas relacionadas)/i;

function searchQueryOf(a: Element): string | null {
  const href = attr(a, 'href');
  if (!/(^|\/)search\?/.test(href) || !/[?&]q=/.test(href)) return null;
  return textOf(a);
}

function queryParamOf(href: string, key: string): string {
  const m = new RegExp(`[?&]${key}=([^&#]+)`).exec(href);
  return m ? m[1] : '';
}

/**
 * The element kind inside a `ved` click id ("0ahUKEw…", "2ahUKEw…"): after a one-character version, a base64url
 * protobuf whose top-level field 2 is the kind of element clicked (22 = organic result, 341 = related search).
 * Returns undefined when the id cannot be read.
 */
export function vedKind(ved: string): number | undefined {
  if (ved.length < 8 || !/^[0-9]a/.test(ved)) return undefined;
  const bytes = Buffer.from(ved.slice(1).replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  let i = 0;
  const varint = (): number => {
    let value = 0;
    let shift = 0;
    while (i < bytes.length) {
      const b = bytes[i++];
      value += (b & 0x7f) * 2 ** shift;
      shift += 7;
      if (!(b & 0x80) || shift > 35) break;
    }
    return value;
  };
  while (i < bytes.length) {
    const tag = varint();
    const field = Math.floor(tag / 8);
    const wire = tag % 8;
    if (wire === 0) {
      const v = varint();
      if (field === 2) return v;
    } else if (wire === 2) {
      const length = varint(); // not `i += varint()`: that reads i before varint() advances it
      i += length;
    }
    else if (wire === 5) i += 4;
    else if (wire === 1) i += 8;
    else return undefined;
  }
  return undefined;
}

export function parseRelatedSearches(dom: SerpDom): RelatedSearch[] | undefined {
  const queries: string[] = [];
  const add = (q: string | null) => {
    if (q && q.length < 150 && !queries.includes(q)) queries.push(q);
  };
  // 2016-2023: a link's click id (`ved`) records the kind of element clicked; related searches are kind 341.
  for (const a of dom.byTag('a')) {
    if (!/(^|\/)search\?/.test(attr(a, 'href'))) continue;
    if (vedKind(attr(a, 'data-ved') || queryParamOf(attr(a, 'href'), 'ved')) === 341 && !closest(a, (e) => e.attribs['data-q'] !== undefined)) {
      add(searchQueryOf(a));
    }
  }
  if (!queries.length) {
    for (const id of ['brs', 'bres']) {
      const box = dom.byId(id);
      if (box) for (const a of findAll(box, (e) => e.name === 'a')) add(searchQueryOf(a));
    }
    for (const cls of ['k8XOCe', 'brs_col', 'nVcaUb', 'Q71vJc']) {
      for (const el of dom.byClass(cls)) {
        for (const a of el.name === 'a' ? [el] : findAll(el, (e) => e.name === 'a')) add(searchQueryOf(a));
      }
    }
  }
  if (!queries.length) {
    // Any layout: the links under a "Related searches" heading.
    const heading = dom.all.find((e) => {
      const t = e.children.length === 1 ? e.children[0] : null;
      return !!t && t.type === 'text' && t.data.length < 80 && RELATED_HEADING.test(t.data.trim());
    });
    let box = heading ? parentEl(heading) : null;
    for (let i = 0; box && i < 5; i++, box = parentEl(box)) {
      const links = findAll(box, (e) => e.name === 'a' && searchQueryOf(e) !== null);
      if (links.length >= 2) {
        for (const a of links) add(searchQueryOf(a));
        break;
      }
    }
  }
  return queries.length ? queries.map((query) => ({ query })) : undefined;
}

// ---------------------------------------------------------------------------------------------------- answer box

// Short answers ("1999", "5:32 PM", "1 USD = 0.92 EUR"); page-wide class names that also style other widgets are avoided.
const DIRECT_ANSWER_CLASSES = ['Z0LcW', 'IZ6rdc', 'XcVN5d', 'qv3Wpe', 'dDoNo', '_XWk', 'cwcot', 'DFlfde'];

export function parseAnswerBox(dom: SerpDom): AnswerBox | undefined {
  // Featured snippet: an answer text plus its source result.
  for (const cls of FEATURED_ANSWER_CLASSES) {
    for (const answer of dom.byClass(cls)) {
      if (closest(answer, (e) => e.attribs['data-q'] !== undefined || hasClass(e, 'related-question-pair'))) continue;
      const box = closest(answer, (e) => hasAnyClass(e, ['ifM9O', 'xpdopen', 'c2xzTb', 'kp-blk']) || e.name === 'block-component');
      const snippet = textOf(answer);
      if (!snippet) continue;
      const out: AnswerBox = { answer: snippet, snippet };
      const a = box && findFirst(box, (e) => e.name === 'a' && !!findFirst(e, (h) => h.name === 'h3'));
      const titleEl = a && findFirst(a, (h) => h.name === 'h3');
      if (a) out.link = unwrapGoogleLink(attr(a, 'href'));
      if (titleEl) out.title = textOf(titleEl);
      const direct = box && findFirst(box, (e) => hasAnyClass(e, DIRECT_ANSWER_CLASSES));
      if (direct && textOf(direct)) out.answer = textOf(direct);
      return out;
    }
  }
  // Direct answers: calculator, conversions, dates, short facts.
  const calc = dom.byId('cwos');
  if (calc && textOf(calc)) return { answer: textOf(calc), snippet: textOf(calc) };
  for (const cls of DIRECT_ANSWER_CLASSES) {
    const el = dom.byClass(cls)[0];
    if (el && textOf(el) && !closest(el, (e) => e.attribs.id === 'rhs')) return { answer: textOf(el), snippet: textOf(el) };
  }
  return undefined;
}

// --------------------------------------------------------------------------------------------------- top stories

const TOP_STORIES_IN_TEXT = /^\s*(top stories|à la une|in the news|notícias principais|noticias destacadas|schlagzeilen|principales noticias|notizie principali)\s*$/im;
const TOP_STORIES_HEADING = /^(top stories|à la une|in the news|notícias principais|noticias destacadas|schlagzeilen|principales noticias|notizie principali)$/i;

/** Direct text of an element (its own text nodes only), trimmed. */
function ownText(e: Element): string {
  let t = '';
  for (const c of e.children) if (c.type === 'text') t += c.data;
  return t.replace(/\s+/g, ' ').trim();
}

/**
 * Top stories: the news links gathered under a "Top stories" / "In the news" heading (2016-2023: carousels of
 * g-inner-card, g-card or plain cards). The section is the nearest ancestor of the heading with two or more outside
 * links; each card's lines give title (the heading or longest line), source and date.
 */
export function parseTopStories(dom: SerpDom): TopStory[] | undefined {
  // Cheap gate on the markup before looking at elements: most pages have no news block.
  if (!TOP_STORIES_IN_TEXT.test(dom.text())) return undefined;
  const headings = [...dom.byTag('h3'), ...dom.byTag('h2'), ...dom.byTag('span'), ...dom.byTag('div')]
    .filter((e) => e.children.length > 0 && e.children[0].type === 'text' && TOP_STORIES_HEADING.test(ownText(e)));
  const stories: TopStory[] = [];
  const seen = new Set<string>();
  for (const heading of headings) {
    if (closest(heading, (e) => e.attribs.id === 'rhs' || e.attribs.id === 'hdtb' || e.attribs.id === 'top_nav')) continue;
    let section: Element | null = parentEl(heading);
    let links: Element[] = [];
    for (let i = 0; section && i < 6; i++, section = parentEl(section)) {
      links = findAll(section, (e) => e.name === 'a' && /^https?:/.test(unwrapGoogleLink(attr(e, 'href'))));
      if (links.length >= 2) break;
    }
    if (!section || links.length < 2) continue;
    for (const a of links) {
      const link = unwrapGoogleLink(attr(a, 'href'));
      if (seen.has(link)) continue;
      const lines = textLinesOf(a);
      if (!lines.length) continue;
      const headingEl = findFirst(a, (e) => attr(e, 'role') === 'heading' || hasAnyClass(e, ['mCBkyc', 'nDgy9d', 'JheGif', '_IRg', 'y355M']));
      const date = lines.map((l) => l.replace(/^[·\-–\s]+|[·\-–\s]+$/g, '')).find((l) => looksLikeDate(l)) ?? '';
      const title = headingEl ? textOf(headingEl) : lines.filter((l) => !looksLikeDate(l)).sort((x, y) => y.length - x.length)[0] ?? '';
      if (!title || title.length < 8) continue;
      seen.add(link);
      const source = lines.find((l) => l !== title && !title.includes(l) && !looksLikeDate(l.replace(/^[·\-–\s]+|[·\-–\s]+$/g, '')) && l.length < 60)
        ?.replace(/\s*[-–·]\s*$/, '') ?? '';
      const story: TopStory = { title, link, source, date };
      const img = imageSrc(findFirst(a, (e) => e.name === 'img'));
      if (img) story.imageUrl = img;
      stories.push(story);
    }
  }
  return stories.length ? stories : undefined;
}

/** Text lines of a card: text of each element with only text children, split where " - " joins source and date. */
function textLinesOf(root: Element): string[] {
  const out: string[] = [];
  for (const e of [root, ...findAll(root, () => true)]) {
    if (e.name === 'style' || e.name === 'script') continue;
    if (e.children.some((c) => c.type === 'text' && c.data.trim())) {
      const t = e.children.every((c) => c.type === 'text' || (c.type === 'tag' && ['b', 'em', 'wbr', 'br', 'i'].includes((c as Element).name)))
        ? textOf(e) : ownText(e);
      for (const part of t.split(/\s+[-–]\s+(?=\d|\w+ ago)/)) if (part.trim()) out.push(part.trim());
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------- search information

export function parseTotalResults(dom: SerpDom): { totalResults?: number; timeTaken?: number } | undefined {
  const el = dom.byId('result-stats') ?? dom.byId('resultStats');
  const text = textOf(el);
  if (!text) return undefined;
  const num = /([\d][\d.,\s\u00a0\u202f]*)\s*(results|résultats|resultados|ergebnisse|risultati)/i.exec(text)
    ?? /([\d][\d.,\u00a0\u202f]*)/.exec(text);
  const out: { totalResults?: number; timeTaken?: number } = {};
  if (num) out.totalResults = Number(num[1].replace(/[^\d]/g, ''));
  const time = /\(([\d.,]+)\s*(seconds|secondes|segundos|sekunden|secondi)\)/i.exec(text);
  if (time) out.timeTaken = Number(time[1].replace(',', '.'));
  return out.totalResults !== undefined ? out : undefined;
}
