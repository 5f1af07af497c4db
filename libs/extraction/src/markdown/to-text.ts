/**
 * Markdown → plain text, as SCORING.md prescribes for scoring Markdown output: drop heading/list/quote markers,
 * keep link text without URLs, drop images, unwrap emphasis and code fences, turn table pipes into spaces, drop the
 * tags of raw HTML blocks.
 */
export function markdownToText(md: string): string {
  return md
    .replace(/^```[^\n]*$/gm, '')
    // Raw HTML the converter kept (nested tables and lists it cannot express): its tags are markup, its text is text.
    .replace(/<\/?(?:table|thead|tbody|tfoot|tr|td|th|ul|ol|li|dl|dt|dd|br|p|div|span|a|b|i|em|strong|code|pre|sup|sub|img)\b[^>]*>/gi, ' ')
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
