/**
 * Features of a candidate region of a cleaned page (the article pick, the `<main>` region, the body), read in one walk
 * without rendering: how much text it holds and how that text is laid out (links, headings, paragraphs, list items,
 * runs of cards printed from one template, code, tables, forms). Text is counted as the trimmed length of each text
 * node, which tracks the rendered length closely enough to compare regions.
 */
import { HEADING_TAGS, isTag, isText, templateKey, trimmedLength, type AnyNode, type Element, type ParentNode } from '#extraction/dom.js';

export interface RegionFeatures {
  /** Characters of text. */
  text: number;
  /** Characters inside links. */
  linkText: number;
  headings: number;
  /** Paragraphs of at least PROSE characters, and their characters. */
  prose: number;
  proseText: number;
  /** Characters inside outermost list items. */
  listText: number;
  /** Cards in runs of at least MIN_RUN siblings of one template, and the longest run. */
  cards: number;
  longestRun: number;
  /** Characters inside `<pre>`, and inside tables. */
  preText: number;
  tableText: number;
  /** Form controls (inputs, selects, buttons). */
  controls: number;
  /** Links. */
  links: number;
  /** Block elements holding text (a rough count of blocks). */
  blocks: number;
  /** Characters of the page's cleaned body. */
  pageText: number;
}

const PROSE = 150;
const MIN_RUN = 3;
const MIN_CARD_TEXT = 20;
const CONTROLS = new Set(['input', 'select', 'button', 'textarea']);
const BLOCKS = new Set(['p', 'li', 'td', 'th', 'dd', 'dt', 'pre', 'blockquote', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'figcaption']);

export function regionFeatures(nodes: ParentNode[], page: ParentNode): RegionFeatures {
  const f: RegionFeatures = { text: 0, linkText: 0, headings: 0, prose: 0, proseText: 0, listText: 0, cards: 0, longestRun: 0, preText: 0, tableText: 0, controls: 0, links: 0, blocks: 0, pageText: 0 };
  /** Text of `n`, counting into `f` as it goes; `ctx` bits: 1 inside a link, 2 a list item, 4 pre, 8 table. */
  const walk = (n: AnyNode, ctx: number): number => {
    if (isText(n)) return trimmedLength(n.data);
    if (!isTag(n)) return 0;
    const el = n as Element;
    const name = el.name;
    let inner = ctx;
    if (name === 'a') {
      f.links++;
      inner |= 1;
    } else if (name === 'li' && !(ctx & 2)) inner |= 2;
    else if (name === 'pre') inner |= 4;
    else if (name === 'table') inner |= 8;
    else if (CONTROLS.has(name)) f.controls++;
    if (HEADING_TAGS.has(name)) f.headings++;
    let t = 0;
    const runs = new Map<string, number>();
    let cardsHere = 0;
    for (const c of el.children) {
      const ct = walk(c, inner);
      t += ct;
      if (isTag(c) && ct >= MIN_CARD_TEXT) {
        const key = templateKey(c);
        const r = (runs.get(key) ?? 0) + 1;
        runs.set(key, r);
        if (r > f.longestRun) f.longestRun = r;
      }
    }
    for (const r of runs.values()) if (r >= MIN_RUN) cardsHere += r;
    f.cards += cardsHere;
    if (name === 'a' && !(ctx & 1)) f.linkText += t;
    if (name === 'li' && !(ctx & 2)) f.listText += t;
    if (name === 'pre' && !(ctx & 4)) f.preText += t;
    if (name === 'table' && !(ctx & 8)) f.tableText += t;
    if (name === 'p' && t >= PROSE) {
      f.prose++;
      f.proseText += t;
    }
    if (BLOCKS.has(name) && t > 0) f.blocks++;
    return t;
  };
  for (const n of nodes) f.text += walk(n, 0);
  f.pageText = nodes.length === 1 && nodes[0] === page ? f.text : textOf(page);
  return f;
}

function textOf(n: AnyNode): number {
  if (isText(n)) return trimmedLength(n.data);
  if (!isTag(n) && !('children' in n)) return 0;
  let t = 0;
  for (const c of (n as ParentNode).children) t += textOf(c);
  return t;
}

/** Lines of rendered text: how many, how many characters, and how many (and how much) under SHORT_LINE characters. */
export interface LineStats {
  chars: number;
  lines: number;
  short: number;
  shortChars: number;
}

/** Where the pick's text sits in a candidate's: the text before the pick's first line and after its last. */
export interface Around {
  found: boolean;
  before: LineStats;
  after: LineStats;
}

/** Menus, labels and buttons render as short lines. */
const SHORT_LINE = 40;
/** Lines of the pick at least this long are looked up in the candidate (short ones repeat: "Read more"). */
const ANCHOR_LINE = 20;

function lineStats(text: string): LineStats {
  const lines = text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  const short = lines.filter((l) => l.length < SHORT_LINE);
  return { chars: lines.reduce((a, l) => a + l.length, 0), lines: lines.length, short: short.length, shortChars: short.reduce((a, l) => a + l.length, 0) };
}

/** The text of `candidate` (rendered) before and after the pick's (rendered), found by its first and last long lines. */
export function aroundPick(candidate: string, pick: string): Around {
  const lines = pick
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l.length >= ANCHOR_LINE);
  const first = lines[0];
  const last = lines[lines.length - 1];
  const start = first === undefined ? -1 : candidate.indexOf(first);
  const end = last === undefined ? -1 : candidate.lastIndexOf(last);
  if (start < 0 || end < 0 || last === undefined) return { found: false, before: lineStats(''), after: lineStats('') };
  return { found: true, before: lineStats(candidate.slice(0, start)), after: lineStats(candidate.slice(end + last.length)) };
}
