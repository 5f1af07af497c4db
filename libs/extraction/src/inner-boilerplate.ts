/**
 * Boilerplate inside the selected main content: the article container also holds its byline, date line, photo
 * credits, share bars, ratings, tag lists, "related" boxes, newsletter forms and comment sections. They are found
 * by the words of their class/id names (split on `-`, `_` and camelCase, because themes spell them `entry-meta`,
 * `postMetadata`, `share_bar`…) and by a few tags. A node holding a large share of the content's text is never
 * removed: the names are a guess, the amount of text is not.
 */
import { isTag, relink, textContent, type ChildNode, type Element } from './dom.js';

/** Whole words of class/id names that mark boilerplate inside article containers. */
const JUNK_WORDS = new Set([
  // comments
  'comment', 'comments', 'commentlist', 'disqus', 'respond', 'reply', 'replies',
  // sharing, likes, ratings
  'share', 'shares', 'sharing', 'sharedaddy', 'shariff', 'social', 'sociable', 'rating', 'ratings', 'likes', 'like',
  // related / recommended / navigation between posts
  'related', 'relatedposts', 'recommended', 'recommendations', 'recirc', 'breadcrumb', 'breadcrumbs', 'pagination', 'pager', 'nav', 'navigation',
  // bylines, dates, meta lines, author boxes
  'byline', 'bylines', 'author', 'authors', 'timestamp', 'date', 'datum', 'published', 'posted', 'meta', 'metadata', 'postmeta', 'postmetadata', 'entrymeta', 'infoline',
  // tags and categories
  'tags', 'tag', 'taglist', 'tagcloud', 'categories', 'cats',
  // media credits
  'credit', 'credits', 'copyright',
  // newsletters, subscriptions, promos, ads
  'newsletter', 'subscribe', 'subscription', 'signup', 'promo', 'advert', 'advertisement', 'ad', 'ads', 'sponsor', 'sponsored', 'affiliate', 'paywall',
  // page furniture
  'footer', 'sidebar', 'toolbar', 'button', 'buttons', 'btn', 'popup', 'modal', 'login', 'signin',
]);
/** Whole class/id tokens that are junk though none of their words is (`toc`, `jp-post-flair`, `most-popular`). */
const JUNK_TOKEN_RE =
  /^(?:toc|toc-container|toc-wrapper|ez-toc-container|table-of-contents|jp-post-flair|most-popular|more-stories|read-next|next-post|prev-post|post-nav|nav-links|post-navigation)$/;
/** Page-builder class prefixes whose names contain the words above (elementor-widget…) but wrap content. */
const BUILDER_RE = /^(?:elementor|et_pb|et-pb|wp-block|vc_|vc-|wpb_|wpb-|sqs-|tve|fl-|av_|avia|thrv|field--|paragraph--)/;
/** Class names that say "this is the article body": they win over junk words in the same token. */
const CONTENT_RE = /(?:articlebody|article-body|article__body|article-content|entry-content|post-content|post-body|story-body|main-content|body-text)/;

/** Never removed by name: the containers themselves and elements whose class says nothing about their role. */
const KEEP_TAGS = new Set(['html', 'body', 'main', 'article', 'a', 'img', 'picture', 'table', 'tbody', 'thead', 'tr', 'td', 'th', 'pre', 'code']);
/** Tags that are furniture inside an article. */
const INNER_DROP_TAGS = new Set(['form', 'fieldset', 'aside', 'footer', 'address']);

function words(token: string): string[] {
  return token
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

function tokens(el: Element): string[] {
  const out: string[] = [];
  const c = el.attribs.class;
  if (c) for (const t of c.split(/\s+/)) if (t) out.push(t);
  const id = el.attribs.id;
  // Long ids are usually slugs of a heading ("bigtable-sre-a-tale-of-over-alerting"), not component names.
  if (id && id.length <= 40) out.push(id);
  return out;
}

/** The class/id token (and the word in it) that marks `el` as inner boilerplate, or '' when none does. */
export function innerJunkReason(el: Element): string {
  if (el.attribs.itemprop === 'articleBody') return '';
  for (const t of tokens(el)) {
    const lower = t.toLowerCase();
    if (BUILDER_RE.test(lower) || CONTENT_RE.test(lower)) continue;
    if (JUNK_TOKEN_RE.test(lower.replace(/_/g, '-'))) return t;
    for (const w of words(t)) if (JUNK_WORDS.has(w)) return `${t}~${w}`;
  }
  return '';
}

/** Why `el` would be dropped as inner boilerplate (a class word or a tag name), or ''. */
export function explain(el: Element): string {
  return innerJunkReason(el) || (INNER_DROP_TAGS.has(el.name) ? el.name : '');
}

function textLength(el: Element): number {
  return textContent(el).replace(/\s+/g, ' ').trim().length;
}

interface Candidate {
  el: Element;
  key: string;
  text: number;
}

/**
 * Remove boilerplate descendants of the content nodes in place. A candidate holding more than a quarter of the
 * selection's text is kept, and so is every candidate of a kind (same class word) that together would take more
 * than three quarters of it: on a forum thread the "comments" are the content, and generated class names (`tagStyle_x1`)
 * can put a junk word on every paragraph.
 */
export function removeInnerBoilerplate(nodes: Element[]): void {
  const total = nodes.reduce((a, n) => a + textLength(n), 0);
  const found: Candidate[] = [];
  const visit = (node: Element): void => {
    for (const c of node.children) {
      if (!isTag(c)) continue;
      const reason = KEEP_TAGS.has(c.name) ? '' : explain(c);
      if (reason) found.push({ el: c, key: reason.slice(reason.indexOf('~') + 1), text: textLength(c) });
      else visit(c);
    }
  };
  for (const n of nodes) visit(n);
  if (found.length === 0) return;
  const perKey = new Map<string, number>();
  for (const f of found) perKey.set(f.key, (perKey.get(f.key) ?? 0) + f.text);
  const doomed = new Map<Element, Set<ChildNode>>();
  for (const f of found) {
    if (f.text > total * 0.25 || (perKey.get(f.key) ?? 0) > total * 0.75) continue;
    const parent = f.el.parent as Element;
    let set = doomed.get(parent);
    if (!set) doomed.set(parent, (set = new Set()));
    set.add(f.el);
  }
  for (const [parent, set] of doomed) relink(parent, parent.children.filter((c) => !set.has(c)));
}
