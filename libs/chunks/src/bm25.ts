/**
 * Okapi BM25 over one page's chunks, with the heading path as a second, weighted field (BM25F in its simple form:
 * per-field term frequencies and lengths are summed with the field weight before saturation). IDF is the
 * non-negative Lucene form, ln(1 + (N - df + 0.5) / (df + 0.5)), so a term found in every chunk still counts a little.
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

interface FieldCounts {
  length: number;
  tf: Map<string, number>;
}

function countQueryTerms(terms: string[], query: Set<string>): FieldCounts {
  const tf = new Map<string, number>();
  for (const term of terms) if (query.has(term)) tf.set(term, (tf.get(term) ?? 0) + 1);
  return { length: terms.length, tf };
}

/** Scores in document order; every score is 0 when the query has no indexable term. */
export function bm25Scores(docs: RankedDocument[], query: string, options: RankingOptions = {}): number[] {
  const { k1, b, headingWeight, stem } = { ...RANKING_DEFAULTS, ...options };
  const queryTerms = new Set(analyze(query, stem));
  if (queryTerms.size === 0 || docs.length === 0) return docs.map(() => 0);

  const headingCache = new Map<string, FieldCounts>();
  const fields = docs.map((doc) => {
    const body = countQueryTerms(analyze(doc.text, stem), queryTerms);
    const key = (doc.headings ?? []).join('\u0000');
    let heading = headingCache.get(key);
    if (!heading) headingCache.set(key, (heading = countQueryTerms(analyze((doc.headings ?? []).join(' '), stem), queryTerms)));
    return { body, heading };
  });

  const lengths = fields.map(({ body, heading }) => body.length + headingWeight * heading.length);
  const averageLength = lengths.reduce((sum, l) => sum + l, 0) / docs.length || 1;
  const tfOf = (i: number, term: string) => (fields[i].body.tf.get(term) ?? 0) + headingWeight * (fields[i].heading.tf.get(term) ?? 0);

  const idf = new Map<string, number>();
  for (const term of queryTerms) {
    let df = 0;
    for (let i = 0; i < docs.length; i++) if (tfOf(i, term) > 0) df++;
    idf.set(term, Math.log(1 + (docs.length - df + 0.5) / (df + 0.5)));
  }

  return docs.map((_, i) => {
    const norm = k1 * (1 - b + (b * lengths[i]) / averageLength);
    let score = 0;
    for (const term of queryTerms) {
      const tf = tfOf(i, term);
      if (tf > 0) score += (idf.get(term)! * tf * (k1 + 1)) / (tf + norm);
    }
    return score;
  });
}
