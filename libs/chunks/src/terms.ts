/**
 * The analyzer shared by chunks and queries: Unicode word runs, lower-cased and stripped of accents, English stop
 * words dropped, Latin words Porter-stemmed (so "installing" meets "installation"), and CJK runs cut into character
 * bigrams (they have no spaces to split on).
 */
import { stemmer } from 'stemmer';

// Common English function words (the Lucene/Snowball core list, trimmed to words that never carry a query).
const STOP_WORDS = new Set(
  (
    'a about above after again against all am an and any are as at be because been before being below between both but by ' +
    'can could did do does doing down during each few for from further had has have having he her here hers herself him ' +
    'himself his how i if in into is it its itself just me more most my myself no nor not now of off on once only or other ' +
    'our ours ourselves out over own same she should so some such than that the their theirs them themselves then there ' +
    'these they this those through to too under until up very was we were what when where which while who whom why will ' +
    'with would you your yours yourself yourselves'
  ).split(' '),
);

const WORD = /[\p{L}\p{N}]+/gu;
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
const LATIN = /^[a-z]+$/;
/** Longer runs are not words (hashes, base64, minified code): they would only bloat the index. */
const MAX_TERM_CHARS = 40;

/** Terms of `text`; `stem: false` keeps whole words (for comparison in the benchmark). */
export function analyze(text: string, stem = true): string[] {
  const terms: string[] = [];
  const folded = text.normalize('NFKD').replace(/\p{M}+/gu, '').toLowerCase();
  for (const [word] of folded.matchAll(WORD)) {
    if (word.length > MAX_TERM_CHARS) continue;
    if (CJK.test(word)) {
      if (word.length === 1) terms.push(word);
      for (let i = 0; i + 1 < word.length; i++) terms.push(word.slice(i, i + 2));
      continue;
    }
    if (STOP_WORDS.has(word) || (word.length === 1 && !/\d/.test(word))) continue;
    terms.push(stem && LATIN.test(word) ? stemmer(word) : word);
  }
  return terms;
}
