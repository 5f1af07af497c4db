/**
 * A link or image destination with its optional title: `(<url with spaces or parens>)`, or `(url)` whose URL may hold
 * balanced parentheses (`…/ABC_(language)`), then `"title"`, `'title'` or `(title)`.
 */
const DESTINATION = String.raw`\((?:<[^<>\n]*>|(?:[^()\s]|\([^()\s]*\))*)(?:\s+(?:"[^"\n]*"|'[^'\n]*'|\([^()\n]*\)))?\s*\)`;

/** Bracketed text: anything but an unescaped `]` (an alt text may hold `\[X\]`). */
const LABEL = String.raw`((?:\\.|[^\]\\])*)`;
const IMAGE = new RegExp(String.raw`!\[${LABEL}\]${DESTINATION}`, 'g');
const LINK = new RegExp(String.raw`\[${LABEL}\]${DESTINATION}`, 'g');

/** HTML elements whose tags the converter may leave in Markdown (raw HTML); other `<words>` are text (`<repo-url>`). */
const HTML_TAG =
  /<\/?(?:a|abbr|b|bdi|bdo|big|blockquote|br|caption|center|cite|code|col|colgroup|dd|del|dfn|div|dl|dt|em|figcaption|figure|font|h[1-6]|hr|i|img|ins|kbd|li|mark|ol|p|pre|q|s|samp|small|span|strike|strong|sub|summary|details|sup|table|tbody|td|tfoot|th|thead|time|tr|tt|u|ul|var|wbr)\b[^<>]*>/gi;
/** Fenced code blocks (kept verbatim, fences dropped) split from the prose around them. */
const FENCED = /(^```[^\n]*\n[\s\S]*?^```[ \t]*$)/m;
/** A code span's text is kept verbatim: tags, brackets and escapes in it are its content. */
const CODE_SPAN = /`([^`\n]+)`/g;
const HELD = /\u0000(\d+)\u0000/g;

/**
 * Markdown → plain text, as SCORING.md prescribes for scoring Markdown output: drop heading/list/quote markers,
 * keep link text without URLs, drop images, unwrap emphasis and code fences, turn table pipes into spaces, drop the
 * tags of raw HTML the converter kept. Code (fenced blocks and spans) is text as it stands.
 */
export function markdownToText(md: string): string {
  return md
    .split(FENCED)
    .map((part, i) => (i % 2 === 1 ? part.replace(/^```[^\n]*$/gm, '') : proseToText(part)))
    .join('')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

function proseToText(md: string): string {
  const spans: string[] = [];
  return md
    .replace(CODE_SPAN, (_all, code: string) => `\u0000${spans.push(code) - 1}\u0000`)
    // Raw HTML the converter kept (nested tables and lists it cannot express): its tags are markup, its text is text.
    .replace(HTML_TAG, ' ')
    .replace(IMAGE, '')
    .replace(LINK, '$1')
    // A link inside another's text (an image link in a card link) leaves the outer one for a second pass.
    .replace(LINK, '$1')
    .replace(/^\s{0,3}#{1,6}\s+/gm, '')
    .replace(/^\s*>\s?/gm, '')
    .replace(/^\s*(?:[-*+]|\d+[.)])\s+(?:\[[ xX]\]\s+)?/gm, '')
    .replace(/^\s*\|?\s*:?-{3,}:?\s*(?:\|\s*:?-{3,}:?\s*)*\|?\s*$/gm, '')
    .replace(/\s*\|\s*/g, ' ')
    .replace(/(\*\*|__)(.*?)\1/g, '$2')
    .replace(/(?<![\w*])[*_](\S(?:.*?\S)?)[*_](?![\w*])/g, '$1')
    .replace(/^\s*(?:---|\*\*\*|___)\s*$/gm, '')
    .replace(/\\([\\`*_{}[\]()#+\-.!|>~])/g, '$1')
    .replace(HELD, (_all, n: string) => spans[Number(n)] ?? '');
}
