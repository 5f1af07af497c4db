/**
 * A result's title found by structure, for layouts that set it in no heading tag (a styled div or span instead of
 * h2/h3 or `role=heading`). What every engine's result link has in common is its shape: either a link made of a
 * few parts — the title, the URL line (a `cite`, a breadcrumb, the host) and sometimes the site's name — or a
 * link of one line that opens a block showing that link's URL. The title is the link's first part that is not a
 * URL line.
 */
import type { AnyNode } from 'domhandler';
import { findFirst, isElement, textOf, type Element } from './serp-dom.js';

/** A line that starts like a URL or a breadcrumb ("www.site.com › path", "site.com/path", "site.com: title"). */
export const URL_LINE = /^(?:https?:\/\/)?(?:www\.)?[\w-]+(?:\.[\w-]+)+(?:[/:›>]|\s›|$)/i;

/** A host (its last label letters: not "8.7/10") at the start of a line, then a path, a port or nothing. */
const HOST_FIRST = /^(?:www\.)?(?:[\w-]+\.)+[a-z]{2,}(?:[/:?#]|$)/i;

/**
 * A line that is nothing but a URL, a breadcrumb or a host: stricter than URL_LINE, so that a title such as
 * "Amazon.com: Online Shopping" is not taken for one.
 */
export function isUrlLine(text: string): boolean {
  const t = text.trim();
  return t.includes('›') || /^https?:\/\/\S+$/i.test(t) || (!/\s/.test(t) && HOST_FIRST.test(t));
}

/** Formatting that does not start a line of its own. */
const INLINE = new Set(['b', 'em', 'i', 'strong', 'wbr', 'u', 'small', 'mark', 'sup', 'sub', 'font']);

function hasText(n: AnyNode): boolean {
  if (n.type === 'text') return !!n.data.trim();
  if (!isElement(n) || n.type !== 'tag') return false;
  for (const c of n.children) if (hasText(c)) return true;
  return false;
}

/** True when `el` is or holds a `cite`, or an element with text of its own whose text is a URL line. */
function holdsUrlLine(el: Element): boolean {
  if (el.name === 'cite') return true;
  if (el.children.some((c) => c.type === 'text' && c.data.trim()) && isUrlLine(textOf(el))) return true;
  return el.children.some((c) => isElement(c) && c.type === 'tag' && holdsUrlLine(c));
}

export interface LinkShape {
  /** The parts of the link that may title it, in order: its text parts that hold no URL line (the link itself when it is one line). */
  parts: Element[];
  /** The link is made of several parts (title, URL line, site name…), not one line of text. */
  card: boolean;
  /** One of the link's parts is a URL line (a `cite`, a breadcrumb, a host). */
  showsUrl: boolean;
}

/**
 * The shape of link `a`, or null when it has no text but URL lines. Wrappers that hold the link's only text are
 * descended through; where the text splits into parts, a part made of inline formatting only is one line with
 * them.
 */
export function linkShape(a: Element): LinkShape | null {
  let node = a;
  for (;;) {
    const kids = node.children.filter(hasText);
    if (!kids.length) return null;
    const onlyInline = kids.every((k) => k.type === 'text' || (isElement(k) && INLINE.has(k.name)));
    if (onlyInline) {
      const text = textOf(node);
      return !text || isUrlLine(text) ? null : { parts: [node], card: false, showsUrl: false };
    }
    if (kids.length === 1 && isElement(kids[0])) {
      node = kids[0];
      continue;
    }
    const parts: Element[] = [];
    let showsUrl = false;
    for (const k of kids) {
      if (!isElement(k)) {
        // Loose text beside the parts (a separator, a date) is neither a title nor a URL line.
        if (isUrlLine((k as { data: string }).data)) showsUrl = true;
      } else if (holdsUrlLine(k)) showsUrl = true;
      else if (textOf(k).length >= 2) parts.push(k);
    }
    return parts.length ? { parts, card: true, showsUrl } : null;
  }
}

/**
 * The part that titles a link. Left out first: labels (`isLabel`: text the page repeats in link after link, such as
 * a hidden "Web results" heading) and parts that hold an image (a favicon beside the site's name, a thumbnail
 * beside a video's length), unless nothing else is left. Of the rest, the first part of three words or more —
 * shorter ones are a site's name or a badge, and a snippet never comes before its title — else the longest.
 */
export function titlePart(shape: LinkShape, isLabel: (text: string) => boolean = () => false): Element | null {
  let parts = shape.parts.map((p) => ({ p, t: textOf(p) }));
  for (const drop of [(x: { t: string }) => isLabel(x.t), (x: { p: Element }) => !!findFirst(x.p, (e) => e.name === 'img')]) {
    const kept = parts.filter((x) => !drop(x as { p: Element; t: string }));
    if (kept.length) parts = kept;
  }
  if (!parts.length) return null;
  const long = parts.find((x) => x.t.split(/\s+/).length >= 3);
  return (long ?? parts.reduce((a, b) => (b.t.length > a.t.length ? b : a))).p;
}
