/**
 * Markdown for a forum thread: one section per post, headed by its author and date when the post shows them. Posts are
 * found by structure — sibling elements sharing a tag and class that names a post, message, reply, comment or answer
 * (or declares a schema.org post type) — and must hold most of the thread's text, else the thread is converted as one
 * document. The author and date move into the section heading, so no word is duplicated or lost.
 */
import { POST_AUTHOR_RE, POST_BLOCK_RE } from '../signals/vocabulary.js';
import { isTag, parseHtml, removeNode, serialize, squashedTextLength, templateKey, textContent, type Element, type ParentNode } from '../dom.js';

const POST_ITEMTYPE_RE = /schema\.org\/(?:Comment|Answer|Question|DiscussionForumPosting|SocialMediaPosting)$/;
/** Share of the thread's text its posts must hold. */
const MIN_POST_SHARE = 0.7;
const MIN_POST_TEXT = 20;
const MAX_AUTHOR = 60;

const squashedLength = (n: ParentNode): number => squashedTextLength(n);

function isPost(el: Element): boolean {
  const cls = `${el.attribs.class ?? ''} ${el.attribs.id ?? ''}`;
  return POST_BLOCK_RE.test(cls) || POST_ITEMTYPE_RE.test(el.attribs.itemtype ?? '') || el.name === 'article';
}


/** The largest group of sibling posts under `roots`, outermost first. */
function findPosts(roots: ParentNode[]): Element[] {
  let best: Element[] = [];
  let bestText = 0;
  const visit = (n: ParentNode): void => {
    const groups = new Map<string, Element[]>();
    for (const c of n.children) {
      if (!isTag(c)) continue;
      if (isPost(c) && squashedLength(c) >= MIN_POST_TEXT) {
        const k = templateKey(c);
        const g = groups.get(k) ?? [];
        g.push(c);
        groups.set(k, g);
      } else visit(c);
    }
    for (const g of groups.values()) {
      const text = g.reduce((a, e) => a + squashedLength(e), 0);
      if (g.length >= 2 && text > bestText) {
        best = g;
        bestText = text;
      }
    }
    // Posts may sit one per wrapper: look inside single posts too (a thread of one post is not a thread).
    for (const g of groups.values()) if (g.length === 1) visit(g[0]);
  };
  for (const r of roots) visit(r);
  return best;
}

function findFirstEl(root: Element, pred: (e: Element) => boolean): Element | undefined {
  for (const c of root.children) {
    if (!isTag(c)) continue;
    if (pred(c)) return c;
    const f = findFirstEl(c, pred);
    if (f) return f;
  }
  return undefined;
}

const oneLine = (s: string): string => s.replace(/\s+/g, ' ').trim();

/** The post's author and date, taken out of the post so they are not repeated in its body. */
function byline(post: Element): { author?: string; date?: string } {
  const out: { author?: string; date?: string } = {};
  const authorEl = findFirstEl(post, (e) => {
    const cls = `${e.attribs.class ?? ''} ${e.attribs.itemprop ?? ''} ${e.attribs.rel ?? ''}`;
    if (!POST_AUTHOR_RE.test(cls)) return false;
    const t = oneLine(textContent(e));
    return t.length > 0 && t.length <= MAX_AUTHOR;
  });
  if (authorEl) {
    out.author = oneLine(textContent(authorEl));
    removeNode(authorEl);
  }
  const timeEl = findFirstEl(post, (e) => e.name === 'time' || e.attribs.itemprop === 'datePublished' || e.attribs.itemprop === 'dateCreated');
  if (timeEl) {
    const t = oneLine(textContent(timeEl));
    if (t.length > 0 && t.length <= MAX_AUTHOR) {
      out.date = t;
      removeNode(timeEl);
    }
  }
  return out;
}

const escapeHeading = (s: string): string => s.replace(/([\\`*_[\]#])/g, '\\$1');

/**
 * Markdown for `selected` as a thread of posts, or undefined when they are not one. `convert` turns HTML into
 * Markdown (the configured converter). Works on a copy: the selected nodes are left as they are.
 */
export function forumMarkdown(selected: ParentNode[], convert: (html: string) => string): string | undefined {
  if (findPosts(selected).length < 2) return undefined;
  const nodes = [parseHtml(serialize(selected as Element[]))];
  const posts = findPosts(nodes);
  if (posts.length < 2) return undefined;
  const total = nodes.reduce((a, n) => a + squashedLength(n), 0);
  const postText = posts.reduce((a, p) => a + squashedLength(p), 0);
  if (total === 0 || postText < total * MIN_POST_SHARE) return undefined;
  // What is not in a post (the thread's title, a pager) is kept in front of the posts, so nothing is lost.
  for (const p of posts) removeNode(p);
  const rest = convert(serialize(nodes)).trim();
  const sections = posts.map((p, i) => {
    const { author, date } = byline(p);
    const label = [author ? escapeHeading(author) : `Post ${i + 1}`, date ? escapeHeading(date) : ''].filter(Boolean).join(' · ');
    return `## ${label}\n\n${convert(serialize(p)).trim()}`;
  });
  return [rest, ...sections].filter(Boolean).join('\n\n---\n\n');
}
