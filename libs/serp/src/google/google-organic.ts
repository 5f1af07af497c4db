/**
 * Google organic results across layout generations (2015 `h3.r > a`, 2016-2019 `.rc`, 2020-2023 `.yuRUbf`, the
 * 2021-2023 mobile cards with `[role=heading]`, and the no-JS / gbv=1 layout with `/url?q=` links).
 *
 * Rather than one selector per generation, a result is recognised by what all of them share: a link to an outside
 * page whose title is a heading (the heading inside the link, or the link inside the heading), outside ads,
 * carousels, "People also ask" and the knowledge panel. Its block is the largest ancestor holding no other result,
 * and the snippet is found in that block by the known snippet classes, else by subtracting title and URL lines.
 */
import {
  attr, cleanText, closest, findAll, findFirst, hasAnyClass, hasClass, isElement, isInside, parentEl, textOf, type Element, type SerpDom,
} from '../dom/serp-dom.js';
import type { OrganicResult, Sitelink } from '../types.js';
import { unwrapGoogleLink } from '../util/urls.js';
import { splitLeadingDate } from '../util/dates.js';

/** Containers whose links are not organic results. */
const EXCLUDED_IDS = new Set(['tads', 'tadsb', 'bottomads', 'tvcap', 'rhs', 'rhscol', 'botstuff', 'brs', 'foot', 'extrares',
  'appbar', 'top_nav', 'searchform', 'lu_map', 'imagebox_bigimages', 'kp-wp-tab-cont-Latest', 'hdtb', 'hdtb-msb', 'sfcnt',
  'gb', 'navd', 'sfooter', 'fbar', 'flun']);
const EXCLUDED_TAGS = new Set(['g-section-with-header', 'g-scrolling-carousel', 'g-snapping-carousel', 'g-inner-card', 'g-accordion-expander',
  'video-voyager', 'g-img', 'g-link', 'inline-video', 'product-viewer-group', 'header', 'footer', 'nav']);
const EXCLUDED_CLASSES = [
  // ads (desktop, mobile, no-JS)
  'uEierd', 'ads-ad', 'commercial-unit-desktop-top', 'commercial-unit-desktop-rhs', 'cu-container', 'ads-fr', 'mnr-c-ad',
  // people also ask, related questions
  'related-question-pair', 'cbphWd', 'kno-kp', 'ifM9O-ad',
  // knowledge panel / right column cards
  'knowledge-panel',
  // carousels, top stories, video packs, twitter, local pack, images pack, recipes
  'JJZKK', 'kno-fb-ctx', 'dbsr', 'So9e7d', 'VibNM', 'RzdJxc', 'VkpGBb', 'rllt__details', 'cXedhc', 'rl_item',
  'hotels-pack', 'img-brk', 'mod-rbnr', 'xSQxL', 'PhiYYd', 'lU8tTd', '_Xzb', '_Ncg', 'card-section-related',
  // sitelink tables inside a result (handled as sitelinks)
  'sld', 'usJj9c', 'jmjoTe', 'osl', 'HiHjCd', 'fl-sitelinks', 'VNLkW', 'nrgw',
];

export interface OrganicCandidate {
  anchor: Element;
  title: Element;
  link: string;
}

export function isAdLink(href: string): boolean {
  return /\/aclk\?|googleadservices\.com|\/pagead\//.test(href);
}

/**
 * The target of a result link. Mobile AMP results (2016-2019) link to Google's AMP viewer (`/amp/s/host/path`) and
 * carry the page's own URL in `data-amp-cur`: that is the result, not the viewer.
 */
export function resultLink(a: Element): string {
  const href = attr(a, 'href');
  const link = unwrapGoogleLink(href);
  if (link) return link;
  const canonical = attr(a, 'data-amp-cur');
  if (/^https?:\/\//i.test(canonical)) return canonical;
  const amp = /^(?:https?:\/\/www\.google\.[a-z.]+)?\/amp\/(s\/)?([^?#]+)/i.exec(href);
  return amp ? `${amp[1] ? 'https' : 'http'}://${amp[2]}` : '';
}

/** The heading that titles `a`: an h3 / `[role=heading]` inside it, or an h3 around it. */
export function titleOf(a: Element): Element | null {
  const inner = findFirst(a, (e) => e.name === 'h3' || (attr(e, 'role') === 'heading' && e.name !== 'a'));
  if (inner) return inner;
  const p = parentEl(a);
  if (p && (p.name === 'h3' || attr(p, 'role') === 'heading')) return p;
  const gp = p && parentEl(p);
  if (gp && gp.name === 'h3' && p?.name !== 'div') return gp;
  return null;
}

export function excluded(el: Element, stop: Element | null): boolean {
  // 2016-2018 featured video (a video result in a knowledge-style block at the top): a result, whatever it sits in.
  const featuredVideo = closest(el, (e) => hasClass(e, 'knowledge-block__video-nav-block'), stop);
  let cur: Element | null = featuredVideo ? parentEl(featuredVideo) : el;
  // Results that continuous scrolling appended (`#arc-srp_110`, …) sit under `#botstuff` and are results all the same.
  let appended = false;
  while (cur && cur !== stop) {
    const id = cur.attribs.id;
    if (id?.startsWith('arc-srp')) appended = true;
    if (id && (EXCLUDED_IDS.has(id) || id.startsWith('tads')) && !(appended && id === 'botstuff')) return true;
    // The knowledge panel's region (at the right, or above the results on entity pages since 2023): its news and
    // image tiles link out under headings of their own.
    if (cur.attribs.role === 'complementary') return true;
    if (EXCLUDED_TAGS.has(cur.name)) return true;
    if (cur.attribs['data-text-ad'] !== undefined || cur.attribs['data-q'] !== undefined) return true;
    if (cur.attribs.class && hasAnyClass(cur, EXCLUDED_CLASSES)) return true;
    // A card under its own tray header ("Interesting finds", 2021 mobile) is a feature, not a list of results.
    if (cur.name === 'g-card' && findFirst(cur, (e) => e.name === 'g-tray-header')) return true;
    cur = parentEl(cur);
  }
  return false;
}

/** The element that holds the main result list in this layout. */
export function mainContainer(dom: SerpDom): Element | null {
  // Not #rso: whole-page knowledge layouts (films, people) put the first results beside it, and featured snippets
  // sit above it. Everything that is not a result is excluded by container instead.
  return dom.byId('main') ?? dom.byTag('body')[0] ?? null;
}

/**
 * A module's visible heading, `[role=heading][aria-level=2]`, at most two levels into `el` (not the hidden `<h2>`
 * Google puts first in each result's own card on mobile).
 */
function sectionHeading(el: Element, depth = 0): boolean {
  if (attr(el, 'role') === 'heading' && attr(el, 'aria-level') === '2') return true;
  if (depth >= 2) return false;
  for (const c of el.children) if (isElement(c) && sectionHeading(c, depth + 1)) return true;
  return false;
}

/** Whether `el` holds any visible text (stops at the first). */
function hasText(el: Element): boolean {
  for (const c of el.children) {
    if (c.type === 'text' ? /\S/.test(c.data) : isElement(c) && hasText(c)) return true;
  }
  return false;
}

/** Levels above a card's link its module may open: a "more" expander puts four between, a video carousel nine. */
const MODULE_LEVELS = 10;

/**
 * A card in a module of its own (2023 "Explore brands", "Discussions and forums", 2025 "Videos", …): a block that
 * opens with its own section heading, two to MODULE_LEVELS levels above a link titled by a `[role=heading]` rather
 * than an `<h3>`. Results are titled by `<h3>`, or, on mobile, by a `[role=heading]` in a card of their own that opens
 * with no such heading.
 */
function underModuleHeading(a: Element, main: Element): boolean {
  let cur: Element = a;
  for (let level = 0; level < MODULE_LEVELS; level++) {
    const parent = parentEl(cur);
    if (!parent || parent === main) return false;
    // What the block opens with, past the empty elements that draw its frame.
    const first = parent.children.find((c): c is Element => isElement(c) && (c === cur || hasText(c)));
    if (level >= 2 && first && first !== cur && sectionHeading(first)) return true;
    cur = parent;
  }
  return false;
}

export function findOrganicCandidates(dom: SerpDom, main: Element): OrganicCandidate[] {
  const out: OrganicCandidate[] = [];
  const seenTitles = new Set<Element>();
  for (const a of dom.byTag('a')) {
    const href = attr(a, 'href');
    if (!href || isAdLink(href)) continue;
    if (!isInside(a, main)) continue;
    const title = titleOf(a);
    if (!title || seenTitles.has(title)) continue;
    const link = resultLink(a);
    if (!link || !/^https?:\/\//i.test(link)) continue;
    if (excluded(a, main)) continue;
    if (!textOf(title)) continue;
    if (title.name !== 'h3' && underModuleHeading(a, main)) continue;
    seenTitles.add(title);
    out.push({ anchor: a, title, link });
  }
  // A link titled by an h3 elsewhere is that result; a `[role=heading]` link to the same page is an attribution
  // line ("According to macpaw.com" above a 2019 featured snippet), not a result of its own.
  const h3Links = new Set(out.filter((c) => c.title.name === 'h3').map((c) => c.link));
  return out.filter((c) => c.title.name === 'h3' || !h3Links.has(c.link));
}

/**
 * For each candidate, the largest ancestor of its anchor (below `main`) that contains no other candidate: its
 * "result block". Counting candidates per ancestor once keeps this linear in candidates × depth.
 */
export function blocksOf<C extends { anchor: Element }>(candidates: C[], main: Element): Map<C, Element> {
  const count = new Map<Element, number>();
  for (const c of candidates) {
    for (let p = parentEl(c.anchor); p && p !== main; p = parentEl(p)) count.set(p, (count.get(p) ?? 0) + 1);
  }
  const out = new Map<C, Element>();
  for (const c of candidates) {
    let block = c.anchor;
    for (let p = parentEl(c.anchor); p && p !== main && count.get(p) === 1; p = parentEl(p)) block = p;
    out.set(c, block);
  }
  return out;
}

const SNIPPET_CLASSES = ['VwiC3b', 'IsZvec', 'aCOpRe', 'st', 'yDYNvb', 'lyLwlc', 'Uroaid', 'MSiauf', 's3v9rd', 'fzUZNc', 'k8HTde'];
const NOT_SNIPPET_CLASSES = ['TbwUpd', 'byrV5b', 'action-menu', 'eFM0qc', 'csDOgf', 'iTPLzd', 'UPmit', 'osl', 'HiHjCd',
  'kv', 'slp', 'P1usbc', 'ChPIuf', 'dTxz9', 'Ww4FFb-ratings', 'fG8Fp', 'usJj9c', 'jmjoTe', 'VNLkW', 'rg_meta'];

// "4.5/5", "4,5 (702)"; not a date such as "14/11/2018".
const RATING_LINE = /^(?:rating\b|[\d.,]+\s*\/\s*\d+\b(?!\/)|[\d.,]+\s*\(\d[\d,.]*\))/i;

function textBeforeFirstLink(el: Element): string {
  const parts: string[] = [];
  let stop = false;
  const visit = (n: Element) => {
    for (const c of n.children) {
      if (stop) return;
      if (c.type === 'text') parts.push(c.data);
      else if (isElement(c)) {
        if (c.name === 'a') stop = true;
        else visit(c);
      }
    }
  };
  visit(el);
  return cleanText(parts.join(' ')).replace(/\s*[·-]\s*$/, '');
}

/**
 * No-JS layout: every text line is a `.BNeawe.s3v9rd`; the snippet is the first innermost one that is not a row
 * of links (inline sitelinks), a rating line or a "Label: value" facts row.
 */
function noJsSnippet(block: Element, c: OrganicCandidate): string | null {
  const lines = findAll(block, (e) => hasClass(e, 's3v9rd') && !isInside(e, c.anchor));
  if (!lines.length) return null;
  for (const line of lines) {
    if (findFirst(line, (e) => hasClass(e, 's3v9rd'))) continue; // not innermost
    if (findFirst(line, (e) => e.name === 'a')) {
      // Sentence, then inline sitelinks ("History · Coffee bean · …"): the text before the first link is the snippet.
      const lead = textBeforeFirstLink(line);
      if (lead.length >= 40) return lead;
      continue;
    }
    if (closest(line, (e) => hasAnyClass(e, ['AVsepf', 'Ap5OSd']), block)) continue;
    const text = textOf(line);
    if (!text || RATING_LINE.test(text)) continue;
    return text;
  }
  return '';
}

/** Featured-snippet answer text (shown above the source link, which is itself an organic result). */
export const FEATURED_ANSWER_CLASSES = ['hgKElc', 'LGOjhe', 'di3YZe', 'X5LH0c', 'iKJnec', 'e24Kjc', 'Y0NH2b'];

/**
 * The snippet of a result in its block. `generic`: what to read when no snippet class of a known layout is found (by
 * default the block's text without the title link, URL lines and menus).
 */
export function snippetIn(block: Element, c: OrganicCandidate, generic?: (block: Element, c: OrganicCandidate) => string): string {
  const featured = closest(c.anchor, (e) => hasClass(e, 'ifM9O') || hasClass(e, 'xpdopen') || e.name === 'block-component');
  if (featured) {
    const answer = findFirst(featured, (e) => hasAnyClass(e, FEATURED_ANSWER_CLASSES));
    // `rg_meta`: image metadata as JSON text (2016), hidden on the page.
    if (answer) return textOf(answer, (e) => hasClass(e, 'rg_meta'));
  }
  const noJs = noJsSnippet(block, c);
  if (noJs !== null) return noJs;
  // One walk of the block, remembering every element per snippet class in document order.
  const byClass = new Map<string, Element[]>();
  for (const e of findAll(block, (x) => !!x.attribs.class)) {
    if (isInside(e, c.anchor)) continue;
    for (const cls of SNIPPET_CLASSES) {
      if (hasClass(e, cls)) {
        const l = byClass.get(cls);
        if (l) l.push(e);
        else byClass.set(cls, [e]);
      }
    }
  }
  for (const cls of SNIPPET_CLASSES) {
    for (const f of byClass.get(cls) ?? []) {
      if (isInside(c.anchor, f)) continue;
      // Nested snippet classes: take the outermost, skip rating/sitelink lines that reuse the class.
      const text = textOf(f, (e) => hasAnyClass(e, NOT_SNIPPET_CLASSES) || e.name === 'cite');
      if (text.length >= 3 && text !== textOf(c.title)) return text;
    }
  }
  if (generic) return generic(block, c);
  // Fallback: block text minus the title link, URL lines and menus.
  return textOf(block, (e) => e === c.anchor || e.name === 'cite' || e.name === 'h3' || hasAnyClass(e, NOT_SNIPPET_CLASSES)
    || attr(e, 'role') === 'button' || attr(e, 'role') === 'menu');
}

function sitelinksIn(block: Element, c: OrganicCandidate): Sitelink[] {
  const links: Sitelink[] = [];
  const seen = new Set<string>([c.link]);
  const holders = findAll(block, (e) => hasAnyClass(e, ['sld', 'usJj9c', 'jmjoTe', 'osl', 'HiHjCd', 'VNLkW', 'fl-sitelinks', 'nrgw']));
  for (const h of holders) {
    for (const a of findAll(h, (e) => e.name === 'a')) {
      const link = unwrapGoogleLink(attr(a, 'href'));
      const title = textOf(a);
      if (!link || !title || seen.has(link) || /^https?:\/\/webcache\./.test(link)) continue;
      seen.add(link);
      links.push({ title, link });
    }
  }
  return links;
}

/** An organic result with the anchor it was read from (for merging with the fallback reader in page order). */
export interface OrganicEntry {
  result: OrganicResult;
  anchor: Element;
}

/** The layout reader's results with their anchors, positions counted from `offset`. */
export function layoutOrganicEntries(dom: SerpDom, offset = 0): OrganicEntry[] {
  const main = mainContainer(dom);
  if (!main) return [];
  return entriesOf(findOrganicCandidates(dom, main), main, offset);
}

/**
 * Results read from their title links: each one's block, snippet (`genericSnippet`: see snippetIn) and sitelinks, positions
 * counted from `offset`.
 */
export function entriesOf(
  candidates: OrganicCandidate[], main: Element, offset = 0, genericSnippet?: (block: Element, c: OrganicCandidate) => string,
): OrganicEntry[] {
  const blocks = blocksOf(candidates, main);
  const entries: OrganicEntry[] = [];
  const seenLinks = new Set<string>();
  for (const c of candidates) {
    // A second heading link inside an earlier result's `.g` is a sitelink card, not a result.
    const g = closest(c.anchor, (e) => hasClass(e, 'g'), main);
    const block = blocks.get(c) as Element;
    const key = c.link;
    if (seenLinks.has(key) && g) continue;
    seenLinks.add(key);
    const raw = snippetIn(block, c, genericSnippet);
    const { date, rest } = splitLeadingDate(raw);
    const result: OrganicResult = {
      title: textOf(c.title),
      link: c.link,
      snippet: rest,
      position: offset + entries.length + 1,
    };
    if (date) result.date = date;
    const sitelinks = sitelinksIn(g && !isInside(block, g) ? g : block, c);
    if (sitelinks.length) result.sitelinks = sitelinks;
    entries.push({ result, anchor: c.anchor });
  }
  return entries;
}

/**
 * Organic results in page order, as the layout reader sees them (no fallback). `offset` is added to each 1-based
 * rank so that page p of n results starts at (p-1)*n + 1: rank tracking wants the absolute position.
 */
export function parseGoogleOrganic(dom: SerpDom, offset = 0): OrganicResult[] {
  return layoutOrganicEntries(dom, offset).map((e) => e.result);
}
