/**
 * Notices on a forum thread: what the site says to its reader between the posts — "you are browsing as a guest, sign
 * up", "this topic has been deleted", "not open for further replies", a sponsor's thanks, the board's announcement
 * above the thread. Forum engines and their themes name such a block for what it is (an alert, a notice, a banner,
 * an announcement, a callout, a call to action, a teaser for guests) or give it the alert role; no one wrote it into
 * the thread. The posts themselves carry post, message and comment names, and a notice is short beside them.
 */
import { namedBy, removeOutermost, squashedTextLength, type Element, type ParentNode } from '../dom.js';
import type { Pass } from './pass.js';

export const forumNotices: Pass = {
  name: 'forum-notices',
  stage: 'content',
  appliesTo: (p) => p.forum,
  run: ({ roots }) => removeForumNotices(roots),
};

/** Whole words of class/id names of notices (`alert-warning`, `p-notices`, `cGuestTeaser`, `membership__cta`). */
const NOTICE_WORDS = new Set(['alert', 'alerts', 'notice', 'notices', 'banner', 'announcement', 'announcements', 'callout', 'cta', 'guest']);

/** Characters of a notice at most, and the share of the thread's text it holds at most: longer, it is a post. */
const MAX_NOTICE = 600;
const MAX_SHARE = 0.3;

function isNotice(el: Element): boolean {
  return el.attribs.role === 'alert' || namedBy(el, NOTICE_WORDS);
}

/** Remove the notices inside `roots` (a thread's selected content), in place. */
export function removeForumNotices(roots: ParentNode[]): void {
  const limit = Math.min(MAX_NOTICE, MAX_SHARE * roots.reduce((a, r) => a + squashedTextLength(r), 0));
  removeOutermost(roots, (el) => isNotice(el) && squashedTextLength(el) <= limit);
}
