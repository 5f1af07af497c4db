/**
 * Quotes in a thread's replies. A reply that answers an earlier post quotes it (a `<blockquote>`, or a block whose
 * class names a quote), so the quoted words are printed twice: once in the post, once in the reply, with an "X said:"
 * header and a "Click to expand…" control. The quoted copy adds nothing the thread does not already hold: it goes when
 * most of its lines are found in the thread outside any quote. A quote of a post that is not on the page (an earlier
 * page of the thread, a document, an e-mail) is the only copy of its words and is kept. Any page gets this: a thread
 * read as an article quotes the same way, and an article's pull quote repeats a sentence of its own text.
 */
import { classWords, findAll, hasAncestor, isTag, isText, removeNode, type Element, type ParentNode } from '../dom.js';
import { renderText } from '../text.js';
import { everyPage, type Pass } from './pass.js';

export const repeatedQuotes: Pass = {
  name: 'repeated-quotes',
  stage: 'content',
  // Any page: a thread read as an article quotes the same way (see the module comment).
  appliesTo: everyPage,
  run: ({ roots }) => removeRepeatedQuotes(roots),
};

/** Characters (letters and digits only) a line needs to be compared: shorter ones ("Thanks!") repeat by chance. */
const MIN_LINE = 20;
/** Share of a quote's comparable lines found elsewhere in the thread from which the quote is a repeat. */
const REPEAT_SHARE = 0.5;

/**
 * A quote: a `<blockquote>`, or a block with a class naming a quote. Script hooks (`js-selectToQuote` on every post
 * body, for the "select to quote" control) name what a script does with the block, not what it is.
 */
function isQuote(el: Element): boolean {
  if (el.name === 'blockquote') return true;
  const cls = el.attribs.class;
  // Most classes name no quote: a substring test spares splitting them into words.
  if (!cls || !/quote/i.test(cls)) return false;
  return cls.split(/\s+/).some((t) => !/^js[-_]/i.test(t) && classWords(t).includes('quote'));
}

/** Letters and digits only, lower-cased: the same words compare equal however inline markup and spacing split them. */
const collapse = (s: string): string => s.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');

/** The thread's text outside quotes, collapsed. */
function textOutsideQuotes(roots: ParentNode[]): string {
  const parts: string[] = [];
  const walk = (n: ParentNode): void => {
    for (const c of n.children) {
      if (isText(c)) parts.push(c.data);
      else if (isTag(c) && !isQuote(c)) walk(c);
    }
  };
  for (const r of roots) walk(r);
  return collapse(parts.join(' '));
}

function repeats(quote: Element, outside: string): boolean {
  const lines = renderText(quote)
    .split('\n')
    .map(collapse)
    .filter((l) => l.length >= MIN_LINE);
  if (lines.length === 0) return false;
  return lines.filter((l) => outside.includes(l)).length >= lines.length * REPEAT_SHARE;
}

/** Remove, in place, the quotes inside `roots` that repeat posts the thread holds. */
export function removeRepeatedQuotes(roots: ParentNode[]): void {
  const quotes = roots.flatMap((r) => findAll(r, (e) => isQuote(e) && !hasAncestor(e, isQuote)));
  if (quotes.length === 0) return;
  const outside = textOutsideQuotes(roots);
  for (const q of quotes) if (repeats(q, outside)) removeNode(q);
}
