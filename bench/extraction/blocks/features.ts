/**
 * The blocks of a page's selected content and what a block classifier reads of each. A block is a block-level element
 * (BLOCK_TAGS) holding text and no block inside it (a paragraph, list item, heading, cell, code block, a leaf div);
 * text outside every block (inline runs beside blocks) is not judged. Features are numbers read from the block, its
 * ancestors up to the selected root, its siblings and the page's profile — never from a site's address.
 */
import { BLOCK_TAGS, classAndId, HEADING_TAGS, isTag, templateKey, textContent, type Element, type ParentNode } from '#extraction/dom.js';
import type { PageProfile } from '#extraction/profile.js';
import { PAGE_TYPES } from '#extraction/signals/page-type.js';
import { AD_WORDS_ALL_RE, CHROME_RE, COMMENT_CHROME_RE, JUNK_RE, MAYBE_CONTENT_RE, POST_BLOCK_RE } from '#extraction/signals/vocabulary.js';

export interface Block {
  el: Element;
  text: string;
  features: number[];
}

const WORD_RE = /[\p{L}\p{N}_]+/gu;
const words = (s: string): string[] => s.match(WORD_RE) ?? [];

function holdsBlockTag(el: Element): boolean {
  return el.children.some((c) => isTag(c) && (BLOCK_TAGS.has(c.name) || holdsBlockTag(c)));
}

function linkChars(node: ParentNode, inLink = false): number {
  let n = 0;
  for (const c of node.children) {
    if (c.type === 'text') n += inLink ? c.data.replace(/\s+/g, '').length : 0;
    else if (isTag(c)) n += linkChars(c, inLink || c.name === 'a');
  }
  return n;
}

const TAGS = ['p', 'li', 'div', 'td', 'th', 'pre', 'dd', 'dt', 'blockquote', 'figcaption', 'span'];
const ANCESTOR_TAGS = ['li', 'table', 'header', 'footer', 'form', 'nav', 'aside', 'article', 'main', 'section', 'a', 'blockquote', 'figure', 'dl'];
const CLASS_RES = [CHROME_RE, JUNK_RE, COMMENT_CHROME_RE, MAYBE_CONTENT_RE, POST_BLOCK_RE];
const AD_RE = new RegExp(AD_WORDS_ALL_RE.source);

/** Names of the features, in order (for the report and the model file). */
export const FEATURE_NAMES: string[] = [
  ...PAGE_TYPES.map((t) => `type:${t}`),
  'proseLike',
  ...TAGS.map((t) => `tag:${t}`),
  'tag:heading',
  'tag:other',
  'headingLevel',
  'logWords',
  'logChars',
  'linkDensity',
  'depth',
  'position',
  'wordPosition',
  'logBlocks',
  'pageShare',
  ...ANCESTOR_TAGS.map((t) => `in:${t}`),
  ...['chrome', 'junk', 'comment', 'content', 'post', 'ad'].flatMap((w) => [`own:${w}`, `near:${w}`, `any:${w}`]),
  'siblingsSameTemplate',
  'parentSiblingsSameTemplate',
  'grandSiblingsSameTemplate',
  'duplicates',
  'blocksSinceHeading',
  'wordsSinceHeading',
  'endsSentence',
  'commasPerWord',
  'periodsPerWord',
  'digitShare',
  'capitalisedShare',
  'meanWordLength',
  'upperShare',
  'hasImageSibling',
  'priceLike',
  'dateLike',
  'prevBlockLinkDensity',
  'nextBlockLinkDensity',
  'prevBlockLogWords',
  'nextBlockLogWords',
  'parentBlockCount',
  'parentLinkDensity',
];

function siblingsLike(el: Element | null): number {
  if (!el || !el.parent) return 0;
  const key = templateKey(el);
  let n = 0;
  for (const s of el.parent.children) if (s !== el && isTag(s) && templateKey(s) === key) n++;
  return Math.log1p(n);
}

/** The blocks of `roots`, in document order, with their features. */
export function pageBlocks(roots: ParentNode[], profile: PageProfile): Block[] {
  const found: { el: Element; depth: number }[] = [];
  const walk = (n: ParentNode, depth: number): void => {
    for (const c of n.children) {
      if (!isTag(c)) continue;
      if (BLOCK_TAGS.has(c.name) && !holdsBlockTag(c)) {
        if (/[\p{L}\p{N}]/u.test(textContent(c))) found.push({ el: c, depth });
      } else walk(c, depth + 1);
    }
  };
  const rootSet = new Set<ParentNode>(roots);
  for (const r of roots) walk(r, 0);
  const texts = found.map((b) => textContent(b.el).replace(/\s+/g, ' ').trim());
  const counts = texts.map((t) => words(t).length);
  const total = Math.max(1, counts.reduce((a, b) => a + b, 0));
  const dup = new Map<string, number>();
  for (const t of texts) dup.set(t.toLowerCase(), (dup.get(t.toLowerCase()) ?? 0) + 1);
  const linkDensity = found.map((b, i) => linkChars(b.el, false) / Math.max(1, texts[i].replace(/\s+/g, '').length));
  const parentBlocks = new Map<ParentNode, number>();
  for (const b of found) if (b.el.parent) parentBlocks.set(b.el.parent, (parentBlocks.get(b.el.parent) ?? 0) + 1);
  const out: Block[] = [];
  let seen = 0;
  let lastHeading = -1;
  let wordsSinceHeading = 0;
  for (const [i, { el, depth }] of found.entries()) {
    const text = texts[i];
    const w = words(text);
    const chars = text.replace(/\s+/g, '').length;
    const heading = HEADING_TAGS.has(el.name);
    const f: number[] = [];
    for (const t of PAGE_TYPES) f.push(profile.selectAs === t ? 1 : 0);
    f.push(profile.proseLike ? 1 : 0);
    for (const t of TAGS) f.push(el.name === t ? 1 : 0);
    f.push(heading ? 1 : 0);
    f.push(!heading && !TAGS.includes(el.name) ? 1 : 0);
    f.push(heading ? Number(el.name[1]) : 0);
    f.push(Math.log1p(w.length), Math.log1p(chars), linkDensity[i], depth, i / Math.max(1, found.length - 1), seen / total);
    f.push(Math.log1p(found.length), w.length / total);
    const ancestors: Element[] = [];
    for (let p = el.parent; p && !rootSet.has(p); p = p.parent) if (isTag(p)) ancestors.push(p);
    if (el.parent && rootSet.has(el.parent) && isTag(el.parent)) ancestors.push(el.parent);
    for (const t of ANCESTOR_TAGS) f.push(ancestors.some((a) => a.name === t) ? 1 : 0);
    const own = classAndId(el);
    const near = ancestors.slice(0, 3).map(classAndId).join(' ');
    const any = ancestors.map(classAndId).join(' ');
    for (const re of [...CLASS_RES, AD_RE]) f.push(own && re.test(own) ? 1 : 0, near && re.test(near) ? 1 : 0, any && re.test(any) ? 1 : 0);
    f.push(siblingsLike(el), siblingsLike(ancestors[0] ?? null), siblingsLike(ancestors[1] ?? null));
    f.push(Math.log1p((dup.get(text.toLowerCase()) ?? 1) - 1));
    f.push(lastHeading < 0 ? 50 : Math.min(50, i - lastHeading), Math.log1p(lastHeading < 0 ? seen : wordsSinceHeading));
    f.push(/[.!?:;]["')\]]?$/.test(text) ? 1 : 0);
    const nw = Math.max(1, w.length);
    f.push((text.match(/,/g)?.length ?? 0) / nw, (text.match(/[.!?](?:\s|$)/g)?.length ?? 0) / nw);
    f.push(w.filter((x) => /^\d+$/.test(x)).length / nw, w.filter((x) => /^\p{Lu}/u.test(x)).length / nw);
    f.push(w.reduce((a, x) => a + x.length, 0) / nw, w.filter((x) => x.length > 1 && x === x.toUpperCase() && /\p{L}/u.test(x)).length / nw);
    f.push(el.parent?.children.some((c) => isTag(c) && (c.name === 'img' || c.name === 'picture' || c.name === 'figure')) ? 1 : 0);
    f.push(/[$€£¥]\s?\d|\d\s?[$€£¥]|\d[.,]\d\d\b/.test(text) && w.length < 12 ? 1 : 0);
    f.push(/\b(?:19|20)\d\d\b|\b\d{1,2}[/.-]\d{1,2}[/.-]\d{2,4}\b|\bago\b/i.test(text) && w.length < 15 ? 1 : 0);
    f.push(i > 0 ? linkDensity[i - 1] : -1, i + 1 < found.length ? linkDensity[i + 1] : -1);
    f.push(i > 0 ? Math.log1p(counts[i - 1]) : -1, i + 1 < found.length ? Math.log1p(counts[i + 1]) : -1);
    const parent = el.parent;
    f.push(Math.log1p(parent ? (parentBlocks.get(parent) ?? 1) : 1));
    f.push(parent && isTag(parent) ? linkChars(parent, false) / Math.max(1, textContent(parent).replace(/\s+/g, '').length) : linkDensity[i]);
    out.push({ el, text, features: f });
    seen += w.length;
    if (heading) {
      lastHeading = i;
      wordsSinceHeading = 0;
    } else wordsSinceHeading += w.length;
  }
  return out;
}
