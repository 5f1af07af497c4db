/**
 * Cookie notices left in the content: a consent banner that names itself in no class or id (a fixed box of utility
 * classes, `div.q[role=alert]`), or the placeholder an embed shows until its cookies are allowed ("This content isn't
 * visible due to your cookie preferences"). What they say is addressed to the visitor, never part of what the page is
 * about: that the site uses cookies and what clicking or browsing on agrees to. Found by that wording in a short block.
 * A page about cookies (a cookie policy) says it in many of its paragraphs: there the blocks are the content, and stay.
 */
import { BLOCK_TAGS, holdsBlock, isTag, removeNode, squashedTextLength, textContent, textLengthUpTo, type Element, type ParentNode } from '../dom.js';
import { everyPage, type Pass } from './pass.js';

export const cookieNotices: Pass = {
  name: 'cookie-notices',
  stage: 'content',
  appliesTo: everyPage,
  run: ({ roots }) => removeCookieNotices(roots),
};

/** Characters of a notice at most. */
const MAX_NOTICE = 400;
/** Share of the content's text the notices hold at most; more, and the page is about cookies. */
const MAX_SHARE = 0.1;
/** The site saying it uses cookies, or naming the visitor's cookie choices. */
const COOKIES_RE = /\b(?:we|this (?:site|website)|\p{Lu}[\p{L}.]* uses?) (?:uses? )?cookies\b|\bcookie (?:preferences|settings|policy)\b|\b(?:accept|allow) (?:all )?cookies\b/iu;
/** What every COOKIES_RE match holds: tested first, it spares most blocks the Unicode-aware pattern. */
const COOKIE_CUE_RE = /cookie/i;
/** What the visitor's action or choice agrees to. */
const CONSENT_RE = /\b(?:agree|accept|consent|allow|opt in|preferences|by (?:using|clicking|continuing))\b/i;

/** Remove the cookie notices inside `roots` (the selected content), in place. */
export function removeCookieNotices(roots: ParentNode[]): void {
  const notices: Element[] = [];
  const walk = (n: ParentNode): void => {
    for (const c of n.children) {
      if (!isTag(c)) continue;
      if (!BLOCK_TAGS.has(c.name) || holdsBlock(c)) walk(c);
      else if (textLengthUpTo(c, MAX_NOTICE + 1) <= MAX_NOTICE) {
        const text = textContent(c);
        if (COOKIE_CUE_RE.test(text) && COOKIES_RE.test(text) && CONSENT_RE.test(text)) notices.push(c);
      }
    }
  };
  for (const r of roots) walk(r);
  if (notices.length === 0) return;
  const total = roots.reduce((a, r) => a + squashedTextLength(r), 0);
  if (notices.reduce((a, n) => a + squashedTextLength(n), 0) > total * MAX_SHARE) return;
  for (const el of notices) removeNode(el);
}
