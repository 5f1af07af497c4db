/**
 * The lead (standfirst, teaser, excerpt, "chapo") of an article often sits in the article header, next to the
 * headline, outside the container that holds the body paragraphs. It is part of the text a reader gets, so when
 * such a block precedes the selected content within the same article, it is put in front of it.
 */
import { classWords, contains, isTag, isText, squashedLength, textContent, type AnyNode, type Element } from '../dom.js';

const LEAD_WORDS = new Set([
  'lead', 'leader', 'lede', 'intro', 'introduction', 'teaser', 'excerpt', 'standfirst', 'subtitle', 'subheadline',
  'subline', 'deck', 'dek', 'chapo', 'chapeau', 'abstract', 'summary', 'vorspann', 'description', 'strapline',
]);
/** Containers that bound the search: the lead must belong to the same article. */
const MAX_CLIMB = 4;
const MIN_LEAD = 40;
const MAX_LEAD = 1200;

/** The element before `el` among its parent's elements. */
function previousElement(el: Element): Element | undefined {
  for (let p = el.prev; p; p = p.prev) if (isTag(p)) return p;
  return undefined;
}

function isLeadElement(el: Element): boolean {
  if (el.attribs.itemprop === 'description' && el.name !== 'meta') return true;
  // A subheadline: the <h2> right under the <h1> (its length is checked by the caller, so "Contents" is not one).
  // A site header's <h1> is its linked name and the <h2> under it a tagline.
  if (el.name === 'h2') {
    const h1 = previousElement(el);
    if (h1?.name === 'h1') {
      const s = stats(h1);
      return s.link < s.text * 0.5;
    }
  }
  const cls = el.attribs.class;
  if (!cls) return false;
  for (const t of cls.split(/\s+/)) for (const w of classWords(t)) if (LEAD_WORDS.has(w)) return true;
  return false;
}

function stats(node: AnyNode, inLink = false, acc = { text: 0, link: 0 }): { text: number; link: number } {
  if (isText(node)) {
    const n = squashedLength(node.data);
    acc.text += n;
    if (inLink) acc.link += n;
  } else if (isTag(node)) {
    for (const c of node.children) stats(c, inLink || node.name === 'a', acc);
  }
  return acc;
}

const squash = (s: string): string => s.replace(/\s+/g, ' ').trim();

function repeatedIn(lead: Element, nodes: Element[]): boolean {
  const text = squash(textContent(lead));
  return nodes.some((n) => squash(textContent(n)).includes(text));
}

/** The lead block for `nodes` (the selected content, in document order), or undefined. */
export function findLead(nodes: Element[]): Element | undefined {
  const first = nodes[0];
  if (!first) return undefined;
  let scope: AnyNode | null = first.parent;
  for (let level = 0; scope && isTag(scope) && scope.name !== 'body' && level < MAX_CLIMB; level++, scope = scope.parent) {
    let found: Element | undefined;
    // Walk the scope in document order until the selected content starts.
    const walk = (n: Element): boolean => {
      for (const c of n.children) {
        if (!isTag(c)) continue;
        if (c === first || contains(c, first)) {
          if (c === first) return true;
          return walk(c);
        }
        if (nodes.some((x) => contains(x, c))) continue;
        if (isLeadElement(c)) {
          const s = stats(c);
          if (s.text >= MIN_LEAD && s.text <= MAX_LEAD && s.link <= s.text * 0.3) {
            found = c;
            continue;
          }
        }
        if (walk(c)) return true;
      }
      return false;
    };
    walk(scope);
    // A header teaser that the body repeats word for word is not a separate lead.
    if (found && repeatedIn(found, nodes)) return undefined;
    if (found) return found;
    // <main> bounds the search: beyond it are other stories' teasers. (An <article> does not: themes put the
    // article header, with its standfirst, just outside the <article> that holds the body.)
    if (scope.name === 'main') break;
  }
  return undefined;
}
