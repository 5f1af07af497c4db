/**
 * Marquees: a ticker that scrolls one phrase across the page ("Book now ✱ Book now ✱ …") is built as the phrase
 * printed many times over in sibling elements, so that the animation never runs out of text. A reader sees a strip of
 * decoration; the text would say the phrase dozens of times. A block whose children are all the same short phrase,
 * many of them and nothing else, is such a strip, and goes.
 */
import { isTag, isText, removeNode, squashedTextWithin, type Element, type ParentNode } from '../dom.js';
import { everyPage, type Pass } from './pass.js';

export const marquees: Pass = {
  name: 'marquees',
  stage: 'content',
  appliesTo: everyPage,
  run: ({ roots }) => removeMarquees(roots),
};

/** Copies of one phrase from which sibling elements are a ticker, not a list (a rating's five stars, a table row). */
const MIN_COPIES = 8;
/** A ticker's phrase is a slogan or a call to action: at most this many characters. */
const MAX_PHRASE = 60;

/** The phrase `el`'s element children all repeat (MIN_COPIES or more of them, nothing else beside), or undefined. */
function tickerPhrase(el: Element): string | undefined {
  if (el.children.length < MIN_COPIES) return undefined;
  let phrase: string | undefined;
  let copies = 0;
  for (const c of el.children) {
    if (isText(c)) {
      if (c.data.trim() !== '') return undefined;
      continue;
    }
    if (!isTag(c)) continue;
    const text = squashedTextWithin(c, MAX_PHRASE)?.toLowerCase();
    if (!text || (phrase !== undefined && text !== phrase)) return undefined;
    phrase = text;
    copies++;
  }
  return copies >= MIN_COPIES ? phrase : undefined;
}

/** Remove the tickers inside `nodes`, in place (the nodes themselves stay). */
export function removeMarquees(nodes: ParentNode[]): void {
  const doomed: Element[] = [];
  const walk = (n: ParentNode): void => {
    for (const c of n.children) {
      if (!isTag(c)) continue;
      if (c.name !== 'tr' && tickerPhrase(c) !== undefined) doomed.push(c);
      else walk(c);
    }
  };
  for (const n of nodes) walk(n);
  for (const el of doomed) removeNode(el);
}
