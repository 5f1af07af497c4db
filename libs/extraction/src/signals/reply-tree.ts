/**
 * Discussion pages that declare nothing a forum would: a link aggregator's story, a federated post, a news site's
 * "story + comments" page. Their replies nest under the reply they answer, every level printed from one template
 * (`ol.comments > li.comments_subtree > ol.comments …`), and the tree of replies is most of the page: the story itself
 * is a link and a few lines. An article with a comment section nests its comments too, but its own text is the larger
 * part of the page.
 */
import { isTag, isText, templateKey, type Element, type ParentNode } from '../dom.js';
import { REPLY_CLASS_RE } from './vocabulary.js';

/** Share of the body's text a reply tree holds from which the page is the discussion. */
export const MIN_TREE_SHARE = 0.4;
/** Nested levels of one reply template from which blocks are a tree of replies (a reply to a reply at least). */
const MIN_DEPTH = 3;

const SKIP = new Set(['script', 'style', 'noscript', 'template', 'svg', 'head']);

/** The largest tree of nested replies under `root`, and the share of the text it holds. */
export interface ReplyTree {
  tree?: Element;
  share: number;
}

/**
 * The outermost block of a reply template nested at least MIN_DEPTH deep under `root` that holds the most text, or
 * the list of such outermost blocks when together they hold more (a story's comments: many top-level comments, one of
 * them answered deep enough to show the template nests, none of them much of the page alone). One walk.
 */
export function largestReplyTree(root: ParentNode): ReplyTree {
  /** Blocks of each reply template open on the current path, and the deepest nesting inside the outermost one. */
  const open = new Map<string, number>();
  const deepest = new Map<string, number>();
  let best: Element | undefined;
  let bestText = 0;
  const walk = (n: ParentNode): number => {
    let text = 0;
    // Outermost reply blocks among n's children, per template: their text, and whether one of them nests deep enough.
    let siblings: Map<string, { text: number; count: number; deep: boolean }> | undefined;
    for (const c of n.children) {
      if (isText(c)) text += c.data.trim().length;
      if (!isTag(c) || SKIP.has(c.name)) continue;
      const key = REPLY_CLASS_RE.test(c.attribs.class ?? '') ? templateKey(c) : undefined;
      const depth = key ? (open.get(key) ?? 0) + 1 : 0;
      if (key) {
        open.set(key, depth);
        deepest.set(key, depth === 1 ? 1 : Math.max(deepest.get(key) ?? 0, depth));
      }
      const t = walk(c);
      if (key) {
        open.set(key, depth - 1);
        const deep = (deepest.get(key) ?? 0) >= MIN_DEPTH;
        if (depth === 1 && deep && t > bestText) {
          best = c;
          bestText = t;
        }
        if (depth === 1) {
          siblings ??= new Map();
          const g = siblings.get(key) ?? { text: 0, count: 0, deep: false };
          siblings.set(key, { text: g.text + t, count: g.count + 1, deep: g.deep || deep });
        }
      }
      text += t;
    }
    // A list of top-level replies, each with its subtree: the list is the tree.
    if (siblings && isTag(n as Element)) {
      for (const g of siblings.values()) {
        if (g.deep && g.count >= 2 && g.text > bestText) {
          best = n as Element;
          bestText = g.text;
        }
      }
    }
    return text;
  };
  const total = walk(root);
  return { tree: best, share: total > 0 ? bestText / total : 0 };
}

/** Whether the page under `root` is a story under a tree of nested replies (see the module comment). */
export function isReplyTreePage(root: ParentNode): boolean {
  return largestReplyTree(root).share >= MIN_TREE_SHARE;
}
