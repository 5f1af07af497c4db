/**
 * A question set generated from corpus pages (read from shared/corpus at bench time, never stored in the repo).
 * For each page: sentences of 10-40 words from the ground-truth main content; for up to `perPage` of them (picked
 * with a PRNG seeded by the page id), a keyword query: the sentence's words minus stop words and words under three
 * letters, about 40% of them (3 to 6) picked at random, shuffled, and half of those lightly inflected (a plural "s"
 * added or dropped) so that the query is never a substring of the page ("keywords"); two such words ("terse");
 * and the two words plus one word of the answer chunk's nearest heading that the sentence lacks ("topic", only for
 * answers under a heading: the question names the section's subject, as a person asking often does). The answer is the chunk of the page's
 * Markdown (our own extraction) whose text holds the whole sentence; a sentence found in no chunk (the extraction
 * missed it, or it straddles two chunks) is skipped and counted.
 */
import type { Chunk } from '#chunks';

export interface Question {
  pageId: string;
  sentence: string;
  /** 3 to 6 of the sentence's content words (about 40%). */
  keywords: string;
  /** 2 of them: short and ambiguous. */
  terse: string;
  /** Seeded per question, for the heading word `topicQuery` adds once the answer chunk is known. */
  random: () => number;
}

// Stop words for query building: function words a person would leave out of a keyword query.
const STOP = new Set(
  (
    'a about above after again against all also am an and any are as at be because been before being below between both ' +
    'but by can could did do does doing down during each few for from further had has have having he her here hers him his ' +
    'how i if in into is it its just may me might more most must my no nor not now of off on once one only or other our out ' +
    'over own same she should so some such than that the their them then there these they this those through to too under ' +
    'until up us very was we were what when where which while who whom why will with would you your'
  ).split(' '),
);

/** mulberry32: a small seeded PRNG, so the set is the same on every run. */
export function prng(seed: string): () => number {
  let a = 0;
  for (let i = 0; i < seed.length; i++) a = (Math.imul(a ^ seed.charCodeAt(i), 2654435761) + i) | 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const sentenceSegmenter = new Intl.Segmenter('en', { granularity: 'sentence' });

/** Lower-cased words of a text, Markdown link targets and image addresses left out. */
export function words(text: string): string[] {
  const plain = text
    .replace(/!\[[^\]]*\]\([^)]*\)/g, ' ')
    .replace(/\]\([^)]*\)/g, '] ')
    .replace(/<https?:[^>]*>/g, ' ');
  return plain.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

function contentWords(text: string): string[] {
  return [...new Set(words(text).filter((w) => w.length >= 3 && !STOP.has(w) && !/^\d+$/.test(w)))];
}

function inflect(word: string): string {
  if (/ss$/.test(word) || /[^a-z]/.test(word)) return word;
  return word.endsWith('s') ? word.slice(0, -1) : `${word}s`;
}

function pick(pool: string[], count: number, random: () => number): string[] {
  const rest = [...pool];
  const picked: string[] = [];
  while (picked.length < count && rest.length > 0) picked.push(rest.splice(Math.floor(random() * rest.length), 1)[0]);
  return picked;
}

const phrase = (picked: string[], random: () => number) => picked.map((w) => (random() < 0.5 ? inflect(w) : w)).join(' ');

/** The terse query plus one content word of the answer's nearest heading that the sentence does not hold. */
export function topicQuery(q: Question, headings: string[]): string | undefined {
  const own = new Set(words(q.sentence));
  const topic = contentWords(headings.at(-1) ?? '').filter((w) => !own.has(w));
  if (topic.length === 0) return undefined;
  return `${q.terse} ${pick(topic, 1, q.random)[0]}`;
}

export function questionsFor(pageId: string, truth: string, perPage: number): Question[] {
  const random = prng(pageId);
  const candidates = [...sentenceSegmenter.segment(truth.replace(/\s+/g, ' '))]
    .map((s) => s.segment.trim())
    .filter((s) => {
      const n = words(s).length;
      return n >= 10 && n <= 40;
    });
  const out: Question[] = [];
  while (out.length < perPage && candidates.length > 0) {
    const sentence = candidates.splice(Math.floor(random() * candidates.length), 1)[0];
    const content = contentWords(sentence);
    if (content.length < 4) continue;
    const keywords = pick(content, Math.max(3, Math.min(6, Math.round(content.length * 0.4))), random);
    out.push({ pageId, sentence, keywords: phrase(keywords, random), terse: phrase(pick(content, 2, random), random), random: prng(`${pageId}:${sentence}`) });
  }
  return out;
}

/** The first chunk whose words contain the sentence's words in order, or -1. */
export function answerChunk(chunks: Chunk[], sentence: string): number {
  const needle = ` ${words(sentence).join(' ')} `;
  return chunks.findIndex((c) => ` ${words(c.text).join(' ')} `.includes(needle));
}
