/** For specs of the cleaning passes: the text a browser would show of `body` once `pass` has run over it. */
import { bodyOf, parseHtml, type Element } from '#extraction/dom.js';
import { renderText } from '#extraction/text.js';

export function textAfterPass(pass: (roots: Element[]) => void, body: string): string {
  const root = bodyOf(parseHtml(`<html><body>${body}</body></html>`)) as Element;
  pass([root]);
  return renderText(root);
}
