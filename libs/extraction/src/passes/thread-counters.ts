/**
 * Counters on a forum thread: vote scores beside each answer, post numbers (#7), reply and view counts. They are
 * blocks whose whole text is a number, standing apart from any sentence (no text beside them in their parent), and
 * they are no part of what anyone wrote. A number inside a sentence, a table cell or a list item is left alone.
 * A post number that links to its post (`<a href="…#post-7">#7</a>`) is one wherever it sits, in a list of the
 * post's controls too: a "#" and digits is no value a table or list holds. The poster panel's statistics are counters
 * too: a short label and a number or a date ("Posts: 4032", "Joined: Dec
 * 11, 2021"), a line of their own, or a definition list of such pairs.
 */
import { BLOCK_TAGS, findAll, findFirst, hasAncestor, isTag, isText, removeNode, textContent, textLengthUpTo, type Element, type ParentNode } from '../dom.js';
import type { Pass } from './pass.js';

export const threadCounters: Pass = {
  name: 'thread-counters',
  stage: 'content',
  appliesTo: (p) => p.forum,
  run: ({ roots }) => removeThreadCounters(roots),
};

const COUNTER_RE = /^#?\d{1,6}$/;
/** Cells and items hold data: a number there is a value. */
const DATA_TAGS = new Set(['td', 'th', 'li', 'dd', 'dt', 'code', 'pre']);

function standsApart(el: Element): boolean {
  const parent = el.parent;
  if (!parent) return false;
  return parent.children.every((c) => !isText(c) || c.data.trim() === '');
}

function isCounter(el: Element): boolean {
  if (DATA_TAGS.has(el.name) || !COUNTER_RE.test(textContent(el).trim()) || !standsApart(el)) return false;
  if (findFirst(el, (c) => DATA_TAGS.has(c.name)) || hasAncestor(el, (a) => DATA_TAGS.has(a.name))) return false;
  // The outermost such block goes; its inner wrappers with the same text go with it.
  return !(el.parent && isTag(el.parent) && COUNTER_RE.test(textContent(el.parent).trim()));
}

const POST_NUMBER_RE = /^#\d{1,6}$/;
const isPostNumberLink = (el: Element): boolean => el.name === 'a' && !!el.attribs.href && POST_NUMBER_RE.test(textContent(el).trim()) && standsApart(el);

/** A number as panels print it (4032, 1,234, 2.5k) or a date (Dec 11, 2021; 11 Dec 2021; Dec 2021; 2021-12-11). */
const STAT_VALUE = String.raw`(?:[\d.,]+\s*[kKmM]?|\d{1,4}[-/.]\d{1,2}[-/.]\d{1,4}|\p{L}{3,9}\.? \d{1,2},? \d{4}|\d{1,2} \p{L}{3,9}\.? \d{4}|\p{L}{3,9}\.? \d{4})`;
/** A short label, a colon and a value: the whole text of a line of the poster panel. */
const STAT_LINE_RE = new RegExp(String.raw`^\p{L}[\p{L} ]{1,24}:\s*${STAT_VALUE}$`, 'u');
const STAT_VALUE_RE = new RegExp(String.raw`^${STAT_VALUE}$`, 'u');
const MAX_STAT_LABEL = 25;

const trimmed = (el: Element): string => textContent(el).replace(/\s+/g, ' ').trim();

/** Characters of a stat line, and of a list of them, at most (longer blocks are read no further). */
const MAX_STAT_LINE = 60;
const MAX_STAT_LIST = 400;

function isStatLine(el: Element): boolean {
  if (textLengthUpTo(el, MAX_STAT_LIST) >= MAX_STAT_LIST) return false;
  if (el.name === 'dl') {
    // A definition list of label → value pairs, every value a number or a date.
    const terms = el.children.filter((c): c is Element => isTag(c) && (c.name === 'dt' || c.name === 'dd'));
    const values = terms.filter((c) => c.name === 'dd');
    return values.length > 0 && terms.length === values.length * 2 && terms.every((c) => (c.name === 'dt' ? trimmed(c).length <= MAX_STAT_LABEL : STAT_VALUE_RE.test(trimmed(c))));
  }
  if (el.name === 'td' || el.name === 'th' || el.name === 'pre' || el.name === 'code') return false;
  if (textLengthUpTo(el, MAX_STAT_LINE) >= MAX_STAT_LINE || el.children.some((c) => isTag(c) && BLOCK_TAGS.has(c.name))) return false;
  return STAT_LINE_RE.test(trimmed(el)) && standsApart(el);
}

/** Remove the counters inside `roots`, in place. */
export function removeThreadCounters(roots: ParentNode[]): void {
  for (const el of roots.flatMap((r) => findAll(r, (e) => isCounter(e) || isPostNumberLink(e)))) removeNode(el);
  for (const el of roots.flatMap((r) => findAll(r, (e) => isStatLine(e) && !hasAncestor(e, isStatLine)))) removeNode(el);
}
