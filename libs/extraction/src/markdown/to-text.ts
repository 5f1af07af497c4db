/**
 * Markdown → plain text, as SCORING.md prescribes for scoring Markdown output: drop heading/list/quote markers,
 * keep link text without URLs, drop images, unwrap emphasis and code fences, turn table pipes into spaces.
 */
export function markdownToText(md: string): string {
  return md
    .replace(/^```[^\n]*$/gm, '')
    .replace(/!\[[^\]]*\]\([^)]*\)/g, '')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/^\s{0,3}#{1,6}\s+/gm, '')
    .replace(/^\s*>\s?/gm, '')
    .replace(/^\s*(?:[-*+]|\d+[.)])\s+(?:\[[ xX]\]\s+)?/gm, '')
    .replace(/^\s*\|?\s*:?-{3,}:?\s*(?:\|\s*:?-{3,}:?\s*)*\|?\s*$/gm, '')
    .replace(/\s*\|\s*/g, ' ')
    .replace(/(\*\*|__)(.*?)\1/g, '$2')
    .replace(/(?<![\w*])[*_](\S(?:.*?\S)?)[*_](?![\w*])/g, '$1')
    .replace(/`([^`]*)`/g, '$1')
    .replace(/^\s*(?:---|\*\*\*|___)\s*$/gm, '')
    .replace(/\\([\\`*_{}[\]()#+\-.!|>~])/g, '$1')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
