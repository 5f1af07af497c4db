/**
 * Soft failures engines serve instead of an error (UPSTREAMS.md A "Soft", F "Honest failures"): a page 2 that is page 1
 * again (Bing's rate limiting, SearXNG PR #4546) and a cached, unrelated result page served to a distrusted client
 * (DDDMUC/dsh-free-search #38). Pure functions; the gateway treats a hit as a failed page (retry elsewhere, 0 credits).
 */
import type { SearchPage, SearchPagination } from '../types.js';
import { normalizeUrl } from '../util/urls.js';

/** Share of a page's links that, when already on the previous page, makes it a repeat. */
export const REPEAT_LINK_SHARE = 0.8;

export type RepeatReason = 'offset' | 'same_links';

/**
 * Why `page` (fetched for `requestedOffset`, 0-based) is a repeat of `prevPage`, or null when it is not:
 * - `offset`: the page says it starts at least half a page (5 results) before the requested offset, e.g. Bing's
 *   "1-10 of …" on a `first=11` request. A page that does not report its offset is judged by its links alone.
 * - `same_links`: ≥ 80 % of its result links were on the previous page.
 */
export function repeatedPageReason(
  prevPage: Pick<SearchPage, 'search_results'> | null | undefined,
  page: { page?: Pick<SearchPage, 'search_results'>; pagination?: Pick<SearchPagination, 'offset'> },
  requestedOffset: number,
): RepeatReason | null {
  const shown = page.pagination?.offset;
  if (requestedOffset > 0 && typeof shown === 'number' && requestedOffset - shown >= 5) return 'offset';
  const links = page.page?.search_results.map((r) => normalizeUrl(r.link)) ?? [];
  if (!prevPage || !links.length) return null;
  const before = new Set(prevPage.search_results.map((r) => normalizeUrl(r.link)));
  const shared = links.filter((l) => before.has(l)).length;
  return shared / links.length >= REPEAT_LINK_SHARE ? 'same_links' : null;
}

export function isRepeatedPage(
  prevPage: Pick<SearchPage, 'search_results'> | null | undefined,
  page: { page?: Pick<SearchPage, 'search_results'>; pagination?: Pick<SearchPagination, 'offset'> },
  requestedOffset: number,
): boolean {
  return repeatedPageReason(prevPage, page, requestedOffset) !== null;
}

/**
 * Function words of the languages most queries come in. Only words that carry no topic: a query made of them alone
 * ("the who", "to be or not to be") keeps them, see `queryTerms`.
 */
const STOP_WORDS = new Set((
  'a an and are as at be by for from how i in is it of on or that the this to was what when where which who why will with you your '
  + 'der die das und ist ein eine einer zu den dem des im mit von für auf wie was wer wo nicht '
  + 'le la les un une des du de et est en au aux pour par sur que qui quoi où comment '
  + 'el los las unos unas y es en del al por para con que como qué dónde '
  + 'il lo gli di da per che come dove e '
  + 'o os as um uma do da dos das em no na com por para que como onde '
  + 'het een en van is op te dat wat hoe waar'
).split(' '));

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}]/u;
const CJK_RUN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}]+/gu;

/**
 * Lower-cased, accent-folded word tokens of any script. Scripts written without spaces (CJK, Thai) become character
 * bigrams (single characters when the run is one character long), so "東京 天気" and "東京の天気" share terms.
 */
export function searchTokens(text: string): string[] {
  const folded = text.normalize('NFKD').replace(/\p{M}+/gu, '').toLowerCase();
  const out: string[] = [];
  for (const word of folded.split(/[^\p{L}\p{N}]+/u)) {
    if (!word) continue;
    if (!CJK.test(word)) {
      out.push(word);
      continue;
    }
    const rest = word.replace(CJK_RUN, ' ').trim();
    if (rest) out.push(...rest.split(' ').filter(Boolean));
    for (const run of word.match(CJK_RUN) ?? []) {
      const chars = [...run];
      if (chars.length === 1) out.push(run);
      for (let i = 0; i + 1 < chars.length; i++) out.push(chars[i] + chars[i + 1]);
    }
  }
  return out;
}

/** The query's content terms: tokens without stop words and one-letter Latin tokens, or all tokens if that is nothing. */
export function queryTerms(query: string): string[] {
  const all = searchTokens(query.replace(/\b(?:site|inurl|intitle|filetype):/gi, ' '));
  const content = all.filter((t) => !STOP_WORDS.has(t) && (t.length > 1 || CJK.test(t) || /\d/.test(t)));
  return [...new Set(content.length ? content : all)];
}

/**
 * Two tokens name the same thing: equal; one a prefix of the other of ≥ 4 characters (coffee / coffees /
 * coffeeshop); or an inflection — a shared stem of ≥ 4 characters missing at most two of the shorter's (москва /
 * москве). Loose on purpose: a false match only lets a page through, a false miss would fail a good page.
 */
function sameTerm(a: string, b: string): boolean {
  if (a === b) return true;
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  if (short.length < 4) return false;
  let common = 0;
  while (common < short.length && short[common] === long[common]) common++;
  return common === short.length || common >= 4 && common >= short.length - 2;
}

export const UNRELATED_TOP_RESULTS = 10;

const SCRIPTS: Array<[string, RegExp]> = [
  ['latin', /\p{Script=Latin}/u], ['cyrillic', /\p{Script=Cyrillic}/u], ['greek', /\p{Script=Greek}/u], ['arabic', /\p{Script=Arabic}/u],
  ['hebrew', /\p{Script=Hebrew}/u], ['cjk', CJK], ['devanagari', /\p{Script=Devanagari}/u],
];

/** The writing systems of a token list (digits and unlisted scripts count as none). */
function scriptsOf(tokens: string[]): Set<string> {
  const out = new Set<string>();
  for (const t of tokens) for (const [name, re] of SCRIPTS) if (re.test(t)) out.add(name);
  return out;
}

/**
 * True when none of the page's top results (title, snippet, link, source) shares a single term with the query: the
 * cached unrelated page Bing serves distrusted clients. Conservative by design — one shared term anywhere in the top
 * results clears the page; a query with no usable terms, a page without results, and a query written in a script
 * none of the results use (東京 answered in English: a translation, not a mismatch) are never called unrelated.
 */
export function looksUnrelated(query: string, page: Pick<SearchPage, 'search_results'>, top = UNRELATED_TOP_RESULTS): boolean {
  const terms = queryTerms(query);
  const results = page.search_results.slice(0, top);
  if (!terms.length || !results.length) return false;
  const resultTokens = results.map((r) => searchTokens(`${r.title} ${r.snippet} ${r.link} ${r.source}`));
  for (const tokens of resultTokens) if (terms.some((t) => tokens.some((k) => sameTerm(t, k)))) return false;
  const queryScripts = scriptsOf(terms);
  const pageScripts = scriptsOf(resultTokens.flat());
  return [...queryScripts].some((sc) => pageScripts.has(sc)) || !queryScripts.size;
}
