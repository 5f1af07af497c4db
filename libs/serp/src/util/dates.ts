/**
 * Result dates as engines print them in front of snippets ("Apr 20, 2023 — …", "2 days ago — …", "12 mars 2018 - …").
 * Kept as the engine's text: dates are locale-dependent and relative, and clients compare what they see on Google.
 */

const MONTH = '[A-Za-zÀ-ÿ]{3,10}\\.?';
const DATE_PATTERNS = [
  `${MONTH} \\d{1,2},? \\d{4}`, // Apr 20, 2023
  `\\d{1,2}\\.? ${MONTH},? \\d{4}`, // 20 Apr 2023, 12 mars 2018, 3. Mai 2021
  `\\d+ (?:sec|second|min|minute|hour|hr|day|week|month|year|mins|hrs)s? ago`, // 2 days ago
  `(?:il y a|hace|vor) \\d+ [A-Za-zÀ-ÿ]+`, // fr / es / de relative
  `\\d{1,2}[./]\\d{1,2}[./]\\d{2,4}`, // 20.04.2023, 4/20/2023
  `\\d{4}-\\d{2}-\\d{2}`, // 2023-04-20
];
const LEADING_DATE = new RegExp(`^(${DATE_PATTERNS.join('|')})\\s*(?:—|–|-|·)\\s+`, 'i');
const WHOLE_DATE = new RegExp(`^(?:${DATE_PATTERNS.join('|')})$`, 'i');

/** Splits "Apr 20, 2023 — Google said …" into its date and the rest; no date → the input unchanged. */
export function splitLeadingDate(snippet: string): { date?: string; rest: string } {
  const m = LEADING_DATE.exec(snippet);
  if (!m) return { rest: snippet };
  return { date: m[1], rest: snippet.slice(m[0].length) };
}

/** True when a short text is a date or relative time ("3 hours ago", "Mar 2, 2023"). */
export function looksLikeDate(text: string): boolean {
  return WHOLE_DATE.test(text.trim());
}
