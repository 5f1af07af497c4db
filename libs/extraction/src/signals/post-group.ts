/**
 * A thread is a run of posts built from one template: sibling blocks with the same tag and class names. When the
 * article-style pick is one post (the opening one, usually the longest), the thread is the container of that run.
 */
import { POSTER_NAME_RE } from './vocabulary.js';
import { findFirst, isTag, templateKey, textContent, textLengthUpTo, type Document, type Element, type ParentNode } from '../dom.js';

/** Levels above the pick searched for the run of posts it belongs to (post body → post → post wrapper…). */
const MAX_LEVELS = 6;
/** Posts besides the pick's from which its siblings are a thread rather than a pair of blocks. */
const MIN_OTHER_POSTS = 2;
/** Characters a sibling must hold to count as a post (not an empty spacer row or an ad slot of the same template). */
const MIN_POST_TEXT = 40;

const classSet = (el: Element): Set<string> => new Set((el.attribs.class ?? '').split(/\s+/).filter((w) => w && !/\d/.test(w)));

/**
 * Whether two siblings are printed from one template: the same tag and class names, or the class names of one
 * extended by modifiers (`message--threadStarterPost`, `is-first`) on the other.
 */
function sameTemplate(a: Element, b: Element): boolean {
  if (a.name !== b.name) return false;
  if (templateKey(a) === templateKey(b)) return true;
  const [small, large] = [classSet(a), classSet(b)].sort((x, y) => x.size - y.size);
  if (small.size === 0) return false;
  for (const w of small) if (!large.has(w)) return false;
  return true;
}

/**
 * The container of the run of posts `pick` is one of (the nearest ancestor whose children include the pick's
 * ancestor and at least two more blocks of its template holding text), or undefined.
 */
export function postGroup(pick: Element): Element | undefined {
  let el: Element = pick;
  for (let level = 0; level < MAX_LEVELS; level++) {
    const parent = el.parent;
    if (!parent || !isTag(parent) || parent.name === 'body' || parent.name === 'html') return undefined;
    let others = 0;
    for (const c of parent.children) if (c !== el && isTag(c) && sameTemplate(c, el) && textLengthUpTo(c, MIN_POST_TEXT) >= MIN_POST_TEXT) others++;
    if (others >= MIN_OTHER_POSTS) return parent;
    el = parent;
  }
  return undefined;
}

/** Child indices from the document down to `el`, to find the same node in a copy of the tree. */
export function pathOf(el: Element): number[] {
  const path: number[] = [];
  for (let n: Element = el; n.parent; n = n.parent as Element) {
    path.unshift(n.parent.children.indexOf(n));
    if (!isTag(n.parent)) break;
  }
  return path;
}

/** The element at `path` in `doc` (see pathOf), or undefined when the tree differs there. */
export function atPath(doc: Document, path: number[]): Element | undefined {
  let n: ParentNode = doc;
  for (const i of path) {
    const c: ParentNode['children'][number] | undefined = n.children[i];
    if (!c || !isTag(c)) return undefined;
    n = c;
  }
  return n === doc ? undefined : (n as Element);
}

/**
 * Whether `el` is one post of a run: at least MIN_OTHER_POSTS siblings besides it share its template (tag and class
 * names) and hold text. On a thread such blocks are the posts, however short or full of links (a one-line answer
 * under its poster's name and permalink) they are.
 */
export function isPostOfRun(el: Element): boolean {
  const parent = el.parent;
  if (!parent || !isTag(parent) || textLengthUpTo(el, MIN_POST_TEXT) < MIN_POST_TEXT) return false;
  let others = 0;
  for (const c of parent.children) {
    if (c === el || !isTag(c) || !sameTemplate(c, el) || textLengthUpTo(c, MIN_POST_TEXT) < MIN_POST_TEXT) continue;
    if (++others >= MIN_OTHER_POSTS) return true;
  }
  return false;
}

/** A date as forums print them: 11-29-2024, Jan 22, 2024, 22 January 2024, 3 days ago. */
const POST_DATE_RE =
  /\b(?:\d{1,2}[-/.]\d{1,2}[-/.]\d{2,4}|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.? \d{1,2},? \d{4}|\d{1,2} (?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]* \d{4}|\d+ (?:minutes?|hours?|days?|weeks?|months?|years?) ago)\b/i;

/**
 * Whether `el`, whose text is `text`, is the dated byline of a post of a run (see isPostOfRun; `postOfRun`: the same
 * test, memoised by the caller).
 */
export function isPostByline(el: Element, text: string, postOfRun: (el: Element) => boolean = isPostOfRun): boolean {
  if (!POST_DATE_RE.test(text)) return false;
  for (let p = el.parent; p && isTag(p); p = p.parent) if (postOfRun(p)) return true;
  return false;
}

/**
 * Marks of a poster's name: the class forum engines give it (XenForo, vBulletin and phpBB `username`, `post-author`,
 * `poster`) or its microdata.
 */
const isPosterName = (el: Element): boolean => el.attribs.itemprop === 'author' || el.attribs.rel === 'author' || POSTER_NAME_RE.test(el.attribs.class ?? '');
/** Characters besides the poster's name a block holding it may print (a flag, an "OP" mark), at most. */
const NAME_SLACK = 12;
const squashedLength = (el: Element): number => textContent(el).replace(/\s+/g, ' ').trim().length;

/**
 * Whether `el` is little more than the name of the poster of a post of a run (see isPostOfRun): the panel beside the
 * post that engines print apart from the date (XenForo's `message-cell--user`), once cleaning took the poster's title,
 * join date and post count. A panel that prints the poster's rank and badges as well is left to pruning.
 */
export function isPostAuthor(el: Element, postOfRun: (el: Element) => boolean = isPostOfRun): boolean {
  const name = isPosterName(el) ? el : findFirst(el, isPosterName);
  if (!name || squashedLength(el) > squashedLength(name) + NAME_SLACK) return false;
  for (let p = el.parent; p && isTag(p); p = p.parent) if (postOfRun(p)) return true;
  return false;
}
