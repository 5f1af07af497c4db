/**
 * Helpers for "cards" (news items, products, places): the short text lines a card is made of, and the numbers
 * engines print in them (ratings, counts such as "(1.2K)", prices).
 */
import { isElement, textOf, type Element } from '../dom/serp-dom.js';

const INLINE = new Set(['b', 'em', 'i', 'strong', 'wbr', 'br', 'u', 'small', 'mark', 'sup', 'sub']);

/**
 * The card's text lines in document order: the text of every element whose children are only text and inline
 * formatting. `skip` drops subtrees (e.g. the title).
 */
export function textLines(root: Element, skip?: (e: Element) => boolean): string[] {
  const out: string[] = [];
  const visit = (el: Element) => {
    if (skip && skip(el)) return;
    const leafish = el.children.every((c) => c.type === 'text' || (isElement(c) && INLINE.has(c.name)));
    if (leafish) {
      const t = textOf(el);
      if (t) out.push(t);
      return;
    }
    for (const c of el.children) {
      if (isElement(c)) visit(c);
      else if (c.type === 'text') {
        const t = c.data.replace(/\s+/g, ' ').trim();
        if (t && t !== '·' && t !== '-') out.push(t);
      }
    }
  };
  visit(root);
  return out;
}

/** "1,234" → 1234, "1.2K" → 1200, "(71)" → 71. */
export function parseCount(text: string): number | undefined {
  const m = /([\d][\d,.\u00a0\u202f]*)\s*([KkMm])?/.exec(text.replace(/[()]/g, ''));
  if (!m) return undefined;
  const suffix = m[2]?.toLowerCase();
  let raw = m[1].replace(/[\s\u00a0\u202f]/g, '');
  if (suffix) raw = raw.replace(',', '.');
  else raw = raw.replace(/[.,](?=\d{3}\b)/g, '').replace(',', '.');
  const n = Number(raw);
  if (!Number.isFinite(n)) return undefined;
  return Math.round(n * (suffix === 'k' ? 1000 : suffix === 'm' ? 1_000_000 : 1));
}

/** A rating out of 5 from text like "4.4", "Rated 4.4 out of 5", "4,5/5". */
export function parseRating(text: string): number | undefined {
  const m = /(\d(?:[.,]\d)?)\s*(?:out of 5|\/\s*5|sur 5|von 5|de 5)?/.exec(text);
  if (!m) return undefined;
  const n = Number(m[1].replace(',', '.'));
  return n >= 0 && n <= 5 ? n : undefined;
}

export const PRICE = /(?:[$€£¥₹₩₽]|\b(?:USD|EUR|GBP|CHF|CAD|AUD|R\$|kr|zł))\s?\d[\d.,\s]*|\d[\d.,\s]*\s?(?:[€£₽]|\b(?:USD|EUR|GBP|CHF|kr|zł|Kč)\b)/;
