/**
 * A product page's description as its JSON-LD declares it. Shops render the description in a tab that is hidden
 * until clicked, or only with JavaScript, so the visible page (and what cleaning keeps of it) often lacks it; the
 * `Product` node in the page's structured data still carries it, as text or as the shop's HTML. Read from the
 * parsed document before cleaning (which drops scripts).
 */
import { Element, findAll, isText, parseHtml, relink, textContent, type Document, type ParentNode } from './dom.js';
import { cleanDocument } from './clean/clean.js';
import { unescapeHtmlEntities } from './metadata.js';

type JsonObject = Record<string, unknown>;

const PRODUCT_TYPE_RE = /^(?:https?:\/\/schema\.org\/)?(?:Product|ProductGroup|IndividualProduct|ProductModel|SomeProducts|Vehicle|Car|Book|SoftwareApplication|VideoGame)$/;

/** A description shorter than this is a tagline, not the product's text. */
const MIN_DESCRIPTION = 80;

function ldObjects(doc: Document): JsonObject[] {
  const out: JsonObject[] = [];
  const push = (d: unknown, depth: number): void => {
    if (depth > 4) return;
    if (Array.isArray(d)) for (const x of d) push(x, depth + 1);
    else if (d && typeof d === 'object') {
      out.push(d as JsonObject);
      const graph = (d as JsonObject)['@graph'];
      if (graph) push(graph, depth + 1);
    }
  };
  const scripts = findAll(doc, (e) => e.name === 'script' && (e.attribs.type ?? '').toLowerCase() === 'application/ld+json');
  for (const s of scripts) {
    const raw = s.children.map((c) => (isText(c) ? c.data : '')).join('');
    try {
      push(JSON.parse(raw.replace(/^\s*<!\[CDATA\[|\]\]>\s*$/g, '')), 0);
    } catch {
      continue; // broken JSON-LD is common; the page's other scripts may still parse
    }
  }
  return out;
}

/** The longest description of a JSON-LD product on the page, as markup or text; undefined when there is none. */
export function productDescription(doc: Document): string | undefined {
  let best: string | undefined;
  for (const o of ldObjects(doc)) {
    const types = ([] as unknown[]).concat(o['@type'] ?? []).map(String);
    if (!types.some((t) => PRODUCT_TYPE_RE.test(t))) continue;
    const d = typeof o.description === 'string' ? urlDecoded(o.description.trim()) : undefined;
    if (d !== undefined && d.length >= MIN_DESCRIPTION && (!best || d.length > best.length)) best = d;
  }
  return best;
}

/**
 * A description some shops' templates write URL-encoded (`An%20elegant%20sofa…`): one run of text with no space and
 * escapes in it is decoded; any other text is taken as it is.
 */
function urlDecoded(text: string): string {
  if (/\s/.test(text) || !/%20/i.test(text)) return text;
  try {
    return decodeURIComponent(text).trim();
  } catch {
    return text; // a stray % that starts no escape: not URL-encoded after all
  }
}

const words = (s: string): string[] => s.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

/** Share of the description's words that the selected content must hold to be taken as already showing it. */
const SHOWN_SHARE = 0.6;

/**
 * The description as a block to add to the selected content, or undefined when that content already shows most of its
 * words (the visible description was selected). The description may be HTML (Shopify writes the product's body
 * there, entity-escaped or not) or plain text with line breaks.
 */
export function missingDescription(description: string, selected: ParentNode[], url: string): Element | undefined {
  const markup = /<\/?(?:p|br|div|h[1-6]|ul|li|span|strong|b)\b/i.test(description) ? description : /&lt;\/?(?:p|br|div|h[1-6]|ul|li)\b/i.test(description) ? unescapeHtmlEntities(description) : undefined;
  const fragment = parseHtml(markup ?? `<p>${escapeText(description).replace(/\n\s*\n/g, '</p><p>').replace(/\n/g, '<br>')}</p>`);
  const descWords = words(textContent(fragment));
  if (descWords.length === 0) return undefined;
  const shown = new Set(selected.flatMap((n) => words(textContent(n))));
  const present = descWords.filter((w) => shown.has(w)).length;
  if (present >= descWords.length * SHOWN_SHARE) return undefined;
  // What a shop pasted into the description (scripts, styles, relative links) is cleaned like the page.
  cleanDocument(fragment, { url, aggressive: false });
  const block = new Element('div', {});
  relink(block, fragment.children);
  return block;
}

function escapeText(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Words from which a description is the product's whole text rather than a summary of it. */
const LONG_DESCRIPTION = 80;
/** Share of a long description's words the article pick must show to be taken for the description itself. */
const PICK_SHARE = 0.9;

/**
 * Whether `nodes` (the article pick) show nearly all of a long description: then the pick is the product's text, and
 * what lies around it (the buy box, reviews, rails, trust badges) is not. A short description is a summary that
 * the product's fuller content repeats, so it decides nothing.
 */
export function showsDescription(description: string, nodes: ParentNode[]): boolean {
  const descWords = words(description.replace(/<[^>]*>/g, ' '));
  if (descWords.length < LONG_DESCRIPTION) return false;
  const shown = new Set(nodes.flatMap((n) => words(textContent(n))));
  return descWords.filter((w) => shown.has(w)).length >= descWords.length * PICK_SHARE;
}
