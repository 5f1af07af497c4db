/**
 * Okapi BM25 over one page's chunks, with the heading path as a second, weighted field (BM25F in its simple form:
 * per-field term frequencies and lengths are summed with the field weight before saturation). IDF is the
 * non-negative Lucene form, ln(1 + (N - df + 0.5) / (df + 0.5)), so a term found in every chunk still counts a little.
 *
 * Split in two so the text work and the arithmetic can run in different processes: `termCounts` reads the chunks
 * (the query's terms in each, and each chunk's weighted length), `scoreCounts` turns counts and the collection's
 * statistics into scores. A collection may span pages counted apart: its statistics are sums (see passages.ts).
 */
import { analyze } from './terms.js';

export interface RankingOptions {
  /** Term-frequency saturation (1.2 is the usual default). */
  k1?: number;
  /** Length normalisation, 0..1 (0.75 is the usual default). */
  b?: number;
  /** Weight of the heading path against the chunk's text; 0 ranks on the text alone (plain BM25). */
  headingWeight?: number;
  /** Porter stemming of Latin words (on by default). */
  stem?: boolean;
}

export const RANKING_DEFAULTS = { k1: 1.2, b: 0.75, headingWeight: 2, stem: true } as const;

export interface RankedDocument {
  text: string;
  headings?: string[];
}

/** One chunk as BM25 sees it: its weighted length in terms, and how often each query term occurs (heading-weighted). */
export interface TermCounts {
  length: number;
  /** In the order of the query's terms. */
  tf: number[];
}

/** The collection the scores are relative to: chunks, their summed length, and the chunks holding each query term. */
export interface CollectionStats {
  count: number;
  length: number;
  df: number[];
}

interface FieldCounts {
  length: number;
  tf: Map<string, number>;
}

function countQueryTerms(terms: string[], query: Set<string>): FieldCounts {
  const tf = new Map<string, number>();
  for (const term of terms) if (query.has(term)) tf.set(term, (tf.get(term) ?? 0) + 1);
  return { length: terms.length, tf };
}

/** The query's distinct indexable terms, in order of first appearance. */
export function queryTerms(query: string, options: RankingOptions = {}): string[] {
  return [...new Set(analyze(query, options.stem ?? RANKING_DEFAULTS.stem))];
}

/** Each document's weighted length and query-term frequencies. */
export function termCounts(docs: RankedDocument[], terms: string[], options: RankingOptions = {}): TermCounts[] {
  const { headingWeight, stem } = { ...RANKING_DEFAULTS, ...options };
  const wanted = new Set(terms);
  const headingCache = new Map<string, FieldCounts>();
  return docs.map((doc) => {
    const body = countQueryTerms(analyze(doc.text, stem), wanted);
    const key = (doc.headings ?? []).join('\u0000');
    let heading = headingCache.get(key);
    if (!heading) headingCache.set(key, (heading = countQueryTerms(analyze((doc.headings ?? []).join(' '), stem), wanted)));
    return {
      length: body.length + headingWeight * heading.length,
      tf: terms.map((term) => (body.tf.get(term) ?? 0) + headingWeight * (heading.tf.get(term) ?? 0)),
    };
  });
}

export function collectionOf(counts: TermCounts[], termCount: number): CollectionStats {
  const df = new Array<number>(termCount).fill(0);
  let length = 0;
  for (const c of counts) {
    length += c.length;
    c.tf.forEach((tf, t) => (df[t] += tf > 0 ? 1 : 0));
  }
  return { count: counts.length, length, df };
}

/** BM25 scores of `counts` within `collection` (which may be larger than `counts`: other pages' chunks). */
export function scoreCounts(counts: TermCounts[], collection: CollectionStats, options: RankingOptions = {}): number[] {
  const { k1, b } = { ...RANKING_DEFAULTS, ...options };
  const averageLength = collection.length / collection.count || 1;
  const idf = collection.df.map((df) => Math.log(1 + (collection.count - df + 0.5) / (df + 0.5)));
  return counts.map(({ length, tf }) => {
    const norm = k1 * (1 - b + (b * length) / averageLength);
    let score = 0;
    for (let t = 0; t < tf.length; t++) if (tf[t] > 0) score += (idf[t] * tf[t] * (k1 + 1)) / (tf[t] + norm);
    return score;
  });
}

/** Scores in document order; every score is 0 when the query has no indexable term. */
export function bm25Scores(docs: RankedDocument[], query: string, options: RankingOptions = {}): number[] {
  const terms = queryTerms(query, options);
  if (terms.length === 0 || docs.length === 0) return docs.map(() => 0);
  const counts = termCounts(docs, terms, options);
  return scoreCounts(counts, collectionOf(counts, terms.length), options);
}
