/**
 * The generic reader for Google result layouts the layout reader (google-organic.ts) does not know. It assumes
 * nothing about class names: a result is a block made of an outside title link, the URL shown under or above it
 * (a `cite`, a breadcrumb or the link's host) and a snippet. Ads (ad containers, `aclk` links, "Ad"/"Sponsored"
 * labels), Google's own links, navigation, related searches and "People also ask" are left out. It runs when the
 * layout reader finds nothing, or clearly fewer results than the page has result blocks, and the response says so
 * (`parser: 'fallback'`) so that the gateway can log which pages need a layout of their own.
 */
import type { AnyNode } from 'domhandler';
import { attr, closest, findAll, findFirst, isElement, loadDom, parentEl, textOf, type Element, type SerpDom } from '../dom/serp-dom.js';
import type { OrganicResult } from '../types.js';
import { textLines } from '../util/card-text.js';
import { URL_LINE } from '../dom/link-title.js';
import { looksLikeDate, splitLeadingDate } from '../util/dates.js';
import { hostOf, normalizeUrl } from '../util/urls.js';
import {
  blocksOf, excluded, isAdLink, mainContainer, resultLink, titleOf, type OrganicEntry,
} from './google-organic.js';

interface Candidate {
  anchor: Element;
  link: string;
  /** The heading that titles the link, when the layout has one. */
  heading: Element | null;
}

export interface FallbackEntry extends OrganicEntry {
  /** The block shows the result's URL (cite, breadcrumb or host): the surest sign of an organic result. */
  showsUrl: boolean;
}

/** Google's own pages, caches, ad and tracking hosts: never organic results of the fallback reader. */
const OWN_HOST = /(^|\.)(google\.[a-z.]+|googleusercontent\.com|googleadservices\.com|doubleclick\.net|gstatic\.com|googlesyndication\.com)$/;

/**
 * What the structural reader needs to know about an engine, and nothing about its markup: how its result links are
 * wrapped (redirects), which hosts are its own (navigation, ads, its other verticals) and which tags title a result.
 * Google's is the default; Bing and DuckDuckGo read pages of layouts they do not know with their own.
 */
export interface StructuralProfile {
  /** The target of a link as the engine writes it ('' when it is none). */
  linkOf(a: Element): string;
  /** Ad clicks and the engine's own pages, by href and target. */
  ownOrAd(href: string, link: string): boolean;
  /** Tags that title a result when a link sits in one or holds one (besides `role=heading`). */
  headings: ReadonlySet<string>;
  /** The element holding the results column (the page's body when the engine has no such element). */
  root(dom: SerpDom): Element | null;
}

export const GOOGLE_STRUCTURE: StructuralProfile = {
  linkOf: (a) => resultLink(a),
  ownOrAd: (href, link) => isOwnOrAd(href, link),
  headings: new Set(['h3']),
  root: mainContainer,
};

/** The heading that titles `a`: a heading tag or `[role=heading]` inside it, or one around it. */
function headingOf(a: Element, profile: StructuralProfile): Element | null {
  if (profile === GOOGLE_STRUCTURE) return titleOf(a);
  const tags = profile.headings;
  const inner = findFirst(a, (e) => tags.has(e.name) || (attr(e, 'role') === 'heading' && e.name !== 'a'));
  if (inner) return inner;
  const p = parentEl(a);
  if (p && (tags.has(p.name) || attr(p, 'role') === 'heading')) return p;
  const gp = p && parentEl(p);
  if (gp && tags.has(gp.name) && p?.name !== 'div') return gp;
  return null;
}

/** Containers that are never results, whatever the layout: page chrome, forms, dialogs and ad slots. */
export function chrome(e: Element): boolean {
  if (e.name === 'nav' || e.name === 'header' || e.name === 'footer' || e.name === 'form' || e.name === 'aside') return true;
  const role = attr(e, 'role');
  if (role === 'navigation' || role === 'dialog' || role === 'banner' || role === 'contentinfo' || role === 'complementary') return true;
  const id = attr(e, 'id');
  return /^(tads|tadsb|bottomads|tvcap|rhs|botstuff|brs|foot|fbar|gb|appbar|hdtb|top_nav|searchform|sfooter|navcnt|nav)$/.test(id);
}

/** Ad labels Google prints on sponsored results, in the page's language. */
const AD_LABEL = /^(ad|ads|sponsored|sponsored result|anzeige|anzeigen|annonce|annonces|sponsorisé|publicidad|anuncio|anuncios|annuncio|annunci|patrocinado|gesponsord|advertentie|reklama|реклама|広告|广告|廣告|광고)(\s*[·•:]\s*.*)?$/i;

export const MENU_LINE = /^(?:cached|similar|translate this page|traduire cette page|diese seite übersetzen|traducir esta página|more results from|web results?|résultats web|webergebnisse|resultados de la web|risultati web|›|·|-)$/i;

/**
 * Headings of Google's blocks whose links are not results (carousels, AI-answer sources), in the languages Google
 * is most used in. Question and related-search blocks need none: their links stay on Google.
 */
const FEATURE_HEADING = new RegExp(`^(?:${[
  'top stories', 'news', 'videos?', 'short videos', 'images', 'ai overview', 'interesting finds', 'twitter',
  'latest posts from .+', 'perspectives', 'recipes',
  'à la une', 'vidéos', 'aperçu ia', 'aperçu généré par l.ia', 'schlagzeilen', 'top-meldungen', 'übersicht mit ki',
  'noticias destacadas', 'vídeos', 'imágenes', 'vista creada con ia', 'notizie principali', 'panoramica ai',
].join('|')})$`, 'i');

/** True when `el` holds any visible text (cheaper than collecting it). */
function hasText(el: Element): boolean {
  const stack: AnyNode[] = [...el.children];
  while (stack.length) {
    const n = stack.pop() as AnyNode;
    if (n.type === 'text' && n.data.trim()) return true;
    if (isElement(n) && n.type === 'tag') stack.push(...n.children);
  }
  return false;
}

/** True when the first visible text inside `el` belongs to `first`. */
function startsWith(el: Element, first: Element): boolean {
  const stack: AnyNode[] = [...el.children].reverse();
  while (stack.length) {
    const n = stack.pop() as AnyNode;
    if (n === first) return true;
    if (n.type === 'text') {
      if (n.data.trim()) return false;
      continue;
    }
    if (isElement(n) && n.type === 'tag') for (let i = n.children.length - 1; i >= 0; i--) stack.push(n.children[i]);
  }
  return false;
}

/**
 * Sections that Google titles with one of its feature headings: the nearest ancestor of such a heading that also
 * holds an outside link. Their links are carousel items, questions or AI-answer sources, not results.
 */
export function featureSections(dom: SerpDom, root: Element): Set<Element> {
  const out = new Set<Element>();
  const outside = (e: Element) => e.name === 'a' && /^https?:|^\/url\?/.test(attr(e, 'href'));
  let total = -1;
  const roleHeadings = dom.withAttr('role').filter((e) => e.attribs.role === 'heading');
  const headings = [...dom.byTag('h2'), ...dom.byTag('h3'), ...roleHeadings];
  for (const h of headings) {
    if (!FEATURE_HEADING.test(textOf(h)) || !closest(h, (e) => e === root)) continue;
    // Climb while the heading still opens the section (no text before it), a few levels at most.
    let depth = 0;
    for (let p = parentEl(h); p && p !== root && depth < 6; p = parentEl(p), depth++) {
      if (!startsWith(p, h)) break;
      const links = findAll(p, (e) => outside(e) && !closest(e, (x) => x === h)).length;
      if (!links) continue;
      if (total < 0) total = dom.byTag('a').filter(outside).length;
      // A "section" holding most of the page's links is the result list that the block happens to open.
      if (links * 2 < total) out.add(p);
      break;
    }
  }
  return out;
}

/** Ad clicks, Google's own pages and image-result links (`/imgres`: a thumbnail grid, not web results). */
export function isOwnOrAd(href: string, link: string): boolean {
  return isAdLink(href) || /\/imgres\?/.test(href) || OWN_HOST.test(hostOf(link));
}

/**
 * Outside links in `root`, page chrome left out. `knownContainers`: also leave out what the layout reader knows
 * is not organic (carousels, knowledge panel, question lists by their class names).
 */
function candidatesOf(dom: SerpDom, root: Element, knownContainers: boolean, profile: StructuralProfile): Candidate[] {
  const out: Candidate[] = [];
  const features = featureSections(dom, root);
  for (const a of dom.byTag('a')) {
    const href = attr(a, 'href');
    if (!href) continue;
    const link = profile.linkOf(a);
    if (!/^https?:\/\//i.test(link) || profile.ownOrAd(href, link)) continue;
    if (!closest(a, (e) => e === root)) continue;
    if (closest(a, (e) => chrome(e) || features.has(e), root) || (knownContainers && excluded(a, root))) continue;
    if (!hasText(a)) continue;
    const heading = headingOf(a, profile);
    // A second link to the same page in the same heading (a "visited" marker, an icon) is part of that title.
    const prev = out[out.length - 1];
    if (heading && prev && prev.heading === heading && prev.link === link) continue;
    out.push({ anchor: a, link, heading });
  }
  return out;
}

/**
 * The links that title result blocks: heading links, and — for layouts or result types without headings (the
 * basic/WML layouts title results with plain links) — the first link to each target whose text is not a bare URL
 * and that does not sit in a heading link's block (sitelinks, cite links, thumbnails).
 */
function titleLinks(cands: Candidate[], root: Element): Candidate[] {
  const headed = cands.filter((c) => c.heading && textOf(c.heading));
  const headedBlocks = new Set(blocksOf(headed, root).values());
  const inHeadedBlock = (a: Element) => !!closest(a, (e) => headedBlocks.has(e), root);
  const seen = new Set(headed.map((c) => normalizeUrl(c.link)));
  const plain = cands.filter((c) => {
    if (c.heading) return false;
    const key = normalizeUrl(c.link);
    if (seen.has(key) || !plainTitle(c.anchor) || inHeadedBlock(c.anchor)) return false;
    seen.add(key);
    return true;
  });
  if (!plain.length) return headed;
  return [...headed, ...plain].sort((a, b) => (a.anchor.startIndex ?? 0) - (b.anchor.startIndex ?? 0));
}

/** The link's first line that is not a URL or breadcrumb (layouts put title and URL in one link); '' if none. */
function plainTitle(a: Element): string {
  const lines = textLines(a, (e) => e.name === 'cite' || e.name === 'img');
  return lines.find((l) => !URL_LINE.test(l) && !l.includes('›')) ?? '';
}

function titleText(c: Candidate): string {
  if (!c.heading) return plainTitle(c.anchor);
  // A link inside its heading is the title; the heading may hold more (a "visited" marker, a second link).
  return closest(c.anchor, (e) => e === c.heading) ? textOf(c.anchor) || textOf(c.heading) : textOf(c.heading);
}

/**
 * The text lines of a block without the title: the title link, or only its heading when the link wraps a whole
 * card (news cards put source, heading and snippet inside one link). Other links to the same page are left out.
 */
function blockLines(block: Element, c: Candidate, profile: StructuralProfile): string[] {
  const key = normalizeUrl(c.link);
  const titleEl = c.heading && closest(c.heading, (e) => e === c.anchor) ? c.heading : c.anchor;
  return textLines(block, (e) => e === titleEl || e.name === 'cite' || attr(e, 'role') === 'button'
    || attr(e, 'role') === 'menu' || (e !== c.anchor && e.name === 'a' && normalizeUrl(profile.linkOf(e)) === key));
}

/** True when one of the block's lines (title link included) shows the result's URL: a cite, breadcrumb or host. */
function showsUrl(block: Element, c: Candidate, allLines: string[]): boolean {
  if (findFirst(block, (e) => e.name === 'cite')) return true;
  const host = hostOf(c.link).replace(/^www\./, '');
  return allLines.some((l) => l.includes('›') || (!!host && l.toLowerCase().includes(host)) || URL_LINE.test(l));
}

/** A `cite`, breadcrumb or URL line in the block (not a mere mention of the host). */
function showsUrlLine(block: Element): boolean {
  return !!findFirst(block, (e) => e.name === 'cite') || textLines(block).some((l) => l.includes('›') || URL_LINE.test(l));
}

export function isAdBlock(block: Element, allLines: string[]): boolean {
  if (findFirst(block, (e) => e.attribs['data-text-ad'] !== undefined)) return true;
  return allLines.some((l) => l.length <= 80 && AD_LABEL.test(l));
}

/**
 * A result block is a few lines (a few hundred elements with sitelinks); a "block" holding a whole column is a lone
 * link in page furniture. Checked on the element count first, which stops early, before any text is collected.
 */
const MAX_BLOCK_ELEMENTS = 400;
const MAX_BLOCK_LINES = 60;

function tooLarge(block: Element): boolean {
  return findAll(block, () => true, MAX_BLOCK_ELEMENTS).length >= MAX_BLOCK_ELEMENTS;
}

/**
 * For a title, the largest ancestor of its block (below `root`) in which every title links to the same site.
 */
function siteBlocks(titles: Candidate[], root: Element): (c: Candidate, block: Element) => Element {
  const siteIn = new Map<Element, string>();
  for (const t of titles) {
    const host = hostOf(t.link).replace(/^www\./, '');
    for (let p = parentEl(t.anchor); p && p !== root; p = parentEl(p)) {
      const had = siteIn.get(p);
      if (had === undefined) siteIn.set(p, host);
      else if (had !== host) siteIn.set(p, '');
    }
  }
  return (c, block) => {
    const host = hostOf(c.link).replace(/^www\./, '');
    let site = block;
    for (let p = parentEl(block); p && p !== root && siteIn.get(p) === host; p = parentEl(p)) site = p;
    return site;
  };
}

/**
 * Result blocks found by structure, in page order, one per target URL. Containers the layout reader knows to be
 * carousels or panels are left out first; a page with nothing else (a news-only page) is read without that rule.
 */
export function fallbackOrganicEntries(dom: SerpDom, offset = 0, profile: StructuralProfile = GOOGLE_STRUCTURE): FallbackEntry[] {
  let root = profile.root(dom);
  // A saved fragment (no html/body element, results column unknown) is read as the body of a page. Not for Google,
  // whose caller merges these entries with the layout reader's by position in the same tree.
  if (!root && profile !== GOOGLE_STRUCTURE) {
    dom = loadDom(`<body>${dom.source}</body>`);
    root = profile.root(dom);
  }
  if (!root) return [];
  const first = blocksToEntries(dom, root, true, profile);
  const entries = first.length ? first : blocksToEntries(dom, root, false, profile);
  return entries.map((e, i) => ({ ...e, result: { ...e.result, position: offset + i + 1 } }));
}

const HEADING_LEVEL: Record<string, number> = { h1: 1, h2: 2, h3: 3, h4: 4, h5: 5, h6: 6 };

/**
 * Sitelinks titled by a lower heading level inside a result (Bing: an h2 result with h3 deep links): a candidate
 * whose nearest ancestor holding a higher-level heading link holds exactly one, before it and to the same site,
 * belongs to that result and is not one of its own.
 */
function withoutSubheadings(cands: Candidate[], root: Element): Candidate[] {
  const level = (c: Candidate) => (c.heading ? HEADING_LEVEL[c.heading.name] ?? 9 : 9);
  const levels = new Set(cands.map(level));
  if (levels.size < 2) return cands;
  const top = Math.min(...levels);
  const holders = new Map<Element, Candidate[]>();
  for (const c of cands) {
    if (level(c) !== top) continue;
    for (let p = parentEl(c.anchor); p && p !== root; p = parentEl(p)) {
      const l = holders.get(p);
      if (l) l.push(c);
      else holders.set(p, [c]);
    }
  }
  const site = (c: Candidate) => hostOf(c.link).replace(/^www\./, '');
  return cands.filter((c) => {
    if (level(c) === top) return true;
    for (let p = parentEl(c.anchor); p && p !== root; p = parentEl(p)) {
      const h = holders.get(p);
      if (!h) continue;
      return !(h.length === 1 && (h[0].anchor.startIndex ?? 0) < (c.anchor.startIndex ?? 0) && site(h[0]) === site(c));
    }
    return true;
  });
}

function blocksToEntries(dom: SerpDom, root: Element, knownContainers: boolean, profile: StructuralProfile): FallbackEntry[] {
  const cands = candidatesOf(dom, root, knownContainers, profile);
  const titles = titleLinks(profile.headings.size > 1 ? withoutSubheadings(cands, root) : cands, root);
  const blocks = blocksOf(titles, root);
  const siteOf = siteBlocks(titles, root);
  const consumed = new Set<Candidate>();
  const out: FallbackEntry[] = [];
  const seen = new Set<string>();
  for (const c of titles) {
    const key = normalizeUrl(c.link);
    if (seen.has(key) || consumed.has(c)) continue;
    let block = blocks.get(c) as Element;
    // A plain title link whose own block shows no URL may head a result whose sitelinks split it up: its block is
    // then the largest one holding only links to its site, and the links after it there are its sitelinks.
    if (!c.heading && !showsUrl(block, c, textLines(block))) {
      const site = siteOf(c, block);
      const inSite = site === block ? [] : titles.filter((t) => t !== c && closest(t.anchor, (e) => e === site, root));
      if (inSite.length && inSite.every((t) => dom.order(t.anchor) > dom.order(c.anchor)) && !tooLarge(site) && showsUrlLine(site)) {
        for (const t of inSite) consumed.add(t);
        block = site;
      }
    }
    const title = titleText(c);
    if (!title || title.length < 2 || tooLarge(block)) continue;
    const allLines = textLines(block);
    if (allLines.length > MAX_BLOCK_LINES || isAdBlock(block, allLines)) continue;
    // "People also ask" answers cite their source with a link under the question.
    if (allLines[0] && allLines[0] !== title && allLines[0].endsWith('?')) continue;
    const lines = blockLines(block, c, profile).filter((l) => l !== title);
    const url = showsUrl(block, c, allLines);
    const snippetLines = lines.filter((l) => !URL_LINE.test(l) && !MENU_LINE.test(l) && !l.includes('›') && l.length > 1);
    // News cards print the date as a line of its own, after the snippet.
    const last = snippetLines[snippetLines.length - 1];
    const trailingDate = snippetLines.length > 1 && looksLikeDate(last) ? snippetLines.pop() : undefined;
    const split = splitLeadingDate(snippetLines.join(' '));
    const rest = split.rest;
    const date = split.date ?? trailingDate;
    // Without a shown URL, only a heading link with a real snippet can be a result (news-style cards).
    if (!url && !(c.heading && rest.length >= 30)) continue;
    seen.add(key);
    const result: OrganicResult = { title, link: c.link, snippet: rest, position: 0 };
    if (date) result.date = date;
    out.push({ result, anchor: c.anchor, showsUrl: url });
  }
  // On a page whose results mostly show their URL, cards that do not are carousels, sitelinks and top stories;
  // a page made mostly of such cards (a news vertical) is read from them all.
  const withUrl = out.filter((e) => e.showsUrl);
  if (withUrl.length * 2 < out.length) return out;
  // Kept: results grouped under the one before from the same site ("More results from …": title, date,
  // snippet, no URL); sitelinks have one- or two-word titles and a line of text.
  let lastHost = '';
  return out.filter((e) => {
    const host = hostOf(e.result.link).replace(/^www\./, '');
    const keep = e.showsUrl || (host === lastHost && e.result.title.split(/\s+/).length >= 4 && e.result.snippet.length >= 60);
    if (keep) lastHost = host;
    return keep;
  });
}
