/**
 * How deeply a document nests its elements, measured with htmlparser2's tokenizer alone (no tree is built).
 * The extraction pipeline walks the tree recursively; past a few thousand levels it overflows the stack and can
 * only return an empty page. Browsers never build such trees (Chromium's parser stops nesting at 512 levels), so
 * a page deeper than MAX_NESTING_DEPTH is hostile or broken, and failing it beats charging for empty output.
 */
import { Parser } from 'htmlparser2';

/** Twice what Chromium ever nests; well below where the pipeline's recursion fails (~2,500 on the main thread). */
export const MAX_NESTING_DEPTH = 1_024;

/** The deepest element nesting in `html`, counting up to `stopAt` (then it stops tokenizing). */
export function nestingDepth(html: string, stopAt = Number.POSITIVE_INFINITY): number {
  let depth = 0;
  let deepest = 0;
  const parser = new Parser(
    {
      onopentag() {
        depth++;
        if (depth > deepest) deepest = depth;
        if (deepest > stopAt) parser.pause();
      },
      onclosetag() {
        depth--;
      },
    },
    { lowerCaseTags: true, decodeEntities: false },
  );
  parser.end(html);
  return deepest;
}
