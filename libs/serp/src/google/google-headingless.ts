/**
 * Google result pages whose titles are set in no heading tag (a styled div instead of h3 or `role=heading`). The
 * layout reader finds its results by their headings; here a result link is found by its shape (dom/link-title.ts)
 * and read with the layout reader's blocks, snippets and sitelinks:
 * - a link made of parts one of which is the URL line (the 2020- desktop, mobile and no-JS results: title, site
 *   name and `cite` in one link), titled by its title part;
 * - a one-line link that is the first outside link of the smallest block showing a URL line, when that line shows
 *   the link's host (the 2015-2019 results; sitelinks, "Cached" and menu links come after the title in their block,
 *   navigation shows no URL line);
 * - card links that show no URL (news: source, title, snippet) on a page made mostly of them, or with a snippet's
 *   worth of text of their own beside them (an app's description); a carousel's cards hold all their text.
 * What the structural reader knows to be no result is left out as there: page chrome, sections under Google's own
 * feature headings, blocks labelled as ads and "People also ask" answers. Google's own pages count (results for
 * the query "google") where the link shows their URL, or the URL line under it shows the page and not only Google.
 */
import { attr, cleanText, findFirst, isInside, parentEl, textOf, type Element, type SerpDom } from '../dom/serp-dom.js';
import { isUrlLine, linkShape, titlePart, type LinkShape } from '../dom/link-title.js';
import { textLines } from '../util/card-text.js';
import { hostOf } from '../util/urls.js';
import { chrome, featureSections, isAdBlock, isOwnOrAd, MENU_LINE } from './google-fallback.js';
import {
  blocksOf, entriesOf, excluded, isAdLink, mainContainer, resultLink, titleOf, type OrganicCandidate, type OrganicEntry,
} from './google-organic.js';

/** Text besides the link that makes a card that shows no URL a result of its own (a description, not a date). */
const CARD_SNIPPET = 80;

interface Found extends OrganicCandidate {
  shape: LinkShape;
  /** A card link that shows no URL. */
  card: boolean;
}

/** The host a link's URL line would show: lower case, without `www.`. */
function shownHost(link: string): string {
  return hostOf(link).replace(/^www\./, '');
}

/** The text nodes directly inside `el`, joined. */
function ownText(el: Element): string {
  let t = '';
  for (const c of el.children) if (c.type === 'text') t += c.data;
  return cleanText(t);
}

/** The snippet where no known snippet class is: the block's lines without the title link, URL lines and menus. */
function genericSnippet(block: Element, c: OrganicCandidate): string {
  return textLines(block, (e) => e === c.anchor || e.name === 'cite' || attr(e, 'role') === 'button' || attr(e, 'role') === 'menu')
    .filter((l) => !isUrlLine(l) && !MENU_LINE.test(l))
    .join(' ');
}

/** Results of a page on which no result link is titled by a heading; [] when none is found this way either. */
export function headinglessEntries(dom: SerpDom, offset = 0): OrganicEntry[] {
  const main = mainContainer(dom);
  if (!main) return [];
  const found = headinglessCandidates(dom, main);
  return found.length ? entriesOf(found, main, offset, genericSnippet) : [];
}

function headinglessCandidates(dom: SerpDom, main: Element): Found[] {
  // Every element that holds a URL line (a cite, or text of its own that is a URL), mapped to its first such line.
  const firstUrlLine = new Map<Element, Element>();
  for (const e of dom.all) {
    const own = e.name === 'cite' ? textOf(e) : ownText(e);
    if (!own || (e.name !== 'cite' && !isUrlLine(own))) continue;
    for (let p = parentEl(e); p && p !== main; p = parentEl(p)) {
      if (firstUrlLine.has(p)) break;
      firstUrlLine.set(p, e);
    }
  }
  // A thumbnail link (an image and one line, such as a video's length) is not what titles a block.
  const thumbnail = (e: Element, shape = linkShape(e)) => !shape?.card && !!findFirst(e, (x) => x.name === 'img');
  const isResultLink = (e: Element) => e.name === 'a' && !isAdLink(attr(e, 'href')) && /^https?:\/\//i.test(resultLink(e))
    && !!textOf(e) && !thumbnail(e);
  /**
   * The first result link of the smallest block around `a` that shows a URL line is `a`, and the line shows its
   * host — for Google's own pages, a segment of its path too: a line with Google's bare host next to a link into
   * Google is furniture, not a result.
   */
  const opensUrlBlock = (a: Element, link: string, own: boolean) => {
    let block: Element | null = parentEl(a);
    while (block && block !== main && !firstUrlLine.has(block)) block = parentEl(block);
    if (!block || block === main || findFirst(block, isResultLink) !== a) return false;
    const line = textOf(firstUrlLine.get(block)).toLowerCase();
    if (!line.includes(shownHost(link))) return false;
    const segments = own ? (/^https?:\/\/[^/?#]+([^?#]*)/i.exec(link)?.[1] ?? '').toLowerCase().split('/').filter((x) => x.length > 1) : [];
    return !segments.length || segments.some((x) => line.includes(x));
  };
  const features = featureSections(dom, main);
  const read = (knownContainers: boolean): Found[] => {
    const shown: Found[] = [];
    const cards: Found[] = [];
    for (const a of dom.byTag('a')) {
      const href = attr(a, 'href');
      if (!href || isAdLink(href) || !isInside(a, main)) continue;
      const link = resultLink(a);
      if (!/^https?:\/\//i.test(link)) continue;
      const shape = linkShape(a);
      if (!shape || thumbnail(a, shape) || (knownContainers && excluded(a, main))) continue;
      let cur: Element | null = parentEl(a);
      while (cur && cur !== main && !chrome(cur) && !features.has(cur)) cur = parentEl(cur);
      if (cur && cur !== main) continue;
      const f: Found = { anchor: a, link, title: a, shape, card: false };
      if (shape.showsUrl || opensUrlBlock(a, link, isOwnOrAd(href, link))) shown.push(f);
      else if (shape.card) cards.push({ ...f, card: true });
    }
    const all = [...shown, ...cards].sort((x, y) => dom.order(x.anchor) - dom.order(y.anchor));
    if (cards.length >= 3 && cards.length > 2 * shown.length) return all;
    if (!cards.length) return shown;
    const blocks = blocksOf(all, main);
    return all.filter((f) => !f.card || textOf(blocks.get(f), (e) => e === f.anchor).length >= CARD_SNIPPET);
  };
  let found = read(true);
  if (!found.length) found = read(false);
  // A part repeated in link after link (a hidden "Web results" heading in every card) is a label, not a title.
  const counts = new Map<string, number>();
  for (const f of found) for (const t of new Set(f.shape.parts.map((p) => textOf(p)))) counts.set(t, (counts.get(t) ?? 0) + 1);
  const isLabel = (t: string) => (counts.get(t) ?? 0) >= Math.max(3, found.length / 2);
  const blocks = blocksOf(found, main);
  const seen = new Set<string>();
  return found.flatMap((f) => {
    // One result per target (a rating link to the same page in a panel above, a second link in the block).
    if (seen.has(f.link)) return [];
    // A link inside its own heading keeps that heading as title (news cards in blocks left out by class).
    const title = titleOf(f.anchor) ?? titlePart(f.shape, isLabel);
    const text = textOf(title);
    if (!title || !text) return [];
    // Blocks labelled as ads, and "People also ask" answers citing their source under the question.
    const block = blocks.get(f) as Element;
    const lines = textLines(block);
    if (isAdBlock(block, lines) || (lines[0] && lines[0] !== text && lines[0].endsWith('?'))) return [];
    seen.add(f.link);
    return [{ ...f, title }];
  });
}
