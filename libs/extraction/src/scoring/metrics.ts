/**
 * The extraction metrics of shared/corpus/SCORING.md, re-implemented exactly:
 * - Zyte article-extraction-benchmark: 4-gram shingle P/R/F1 with per-page normalisation, corpus F1 from the means;
 * - trafilatura eval: segment TP/FP/FN/TN micro-summed over the corpus.
 * Used by bench/extraction/score.ts and by the corpus regression test.
 */

// Python 3 `\w` on str = letters, numbers and underscore (not combining marks): reproduces the README exactly.
const TOKEN_RE = /[\p{L}\p{N}_]+/gu;

export function tokenize(text: string): string[] {
  return text.match(TOKEN_RE) ?? [];
}

function shingles(text: string): Map<string, number> {
  const tokens = tokenize(text);
  const out = new Map<string, number>();
  if (tokens.length === 0) return out;
  const count = Math.max(1, tokens.length - 3);
  for (let i = 0; i < count; i++) {
    const key = tokens.slice(i, i + 4).join('\u0001');
    out.set(key, (out.get(key) ?? 0) + 1);
  }
  return out;
}

export interface PageShingleScore {
  tp: number;
  fp: number;
  fn: number;
  precision: number;
  recall: number;
  exact: boolean;
}

/** One page: normalised tp/fp/fn and per-page P/R (Zyte evaluate.py). */
export function shingleScore(truth: string, predicted: string): PageShingleScore {
  const t = shingles(truth);
  const p = shingles(predicted);
  let tp = 0;
  let fp = 0;
  let fn = 0;
  for (const [k, cT] of t) {
    const cP = p.get(k) ?? 0;
    tp += Math.min(cT, cP);
    fn += Math.max(0, cT - cP);
  }
  for (const [k, cP] of p) fp += Math.max(0, cP - (t.get(k) ?? 0));
  const s = tp + fp + fn;
  if (s > 0) {
    tp /= s;
    fp /= s;
    fn /= s;
  }
  const precision = fp === 0 && fn === 0 ? 1 : tp === 0 && fp === 0 ? 0 : tp / (tp + fp);
  const recall = fp === 0 && fn === 0 ? 1 : tp === 0 && fn === 0 ? 0 : tp / (tp + fn);
  const tt = tokenize(truth);
  const pt = tokenize(predicted);
  const exact = tt.length === pt.length && tt.every((x, i) => x === pt[i]);
  return { tp, fp, fn, precision, recall, exact };
}

export interface CorpusScore {
  precision: number;
  recall: number;
  f1: number;
  accuracy?: number;
  pages: number;
}

/** Corpus figures from per-page shingle scores: P, R as means over eligible pages, F1 from the means. */
export function aggregateShingles(pages: PageShingleScore[]): CorpusScore {
  const pp = pages.filter((p) => p.tp + p.fp > 0);
  const rp = pages.filter((p) => p.tp + p.fn > 0);
  const precision = pp.length ? pp.reduce((a, p) => a + p.precision, 0) / pp.length : 0;
  const recall = rp.length ? rp.reduce((a, p) => a + p.recall, 0) / rp.length : 0;
  const f1 = precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0;
  const accuracy = pages.length ? pages.filter((p) => p.exact).length / pages.length : 0;
  return { precision, recall, f1, accuracy, pages: pages.length };
}

export interface SegmentCounts {
  tp: number;
  fp: number;
  fn: number;
  tn: number;
}

const norm = (s: string): string => s.replace(/\s+/g, ' ').trim();

/** One page of the trafilatura eval: which "with" segments are found and which "without" ones leak. */
export function segmentCounts(output: string | undefined, withSegs: string[], withoutSegs: string[]): SegmentCounts {
  const c: SegmentCounts = { tp: 0, fp: 0, fn: 0, tn: 0 };
  if (output === undefined) {
    c.fn = withSegs.length;
    c.tn = withoutSegs.length;
    return c;
  }
  const text = norm(output);
  for (const s of withSegs) if (text.includes(norm(s))) c.tp++; else c.fn++;
  for (const s of withoutSegs) if (text.includes(norm(s))) c.fp++; else c.tn++;
  return c;
}

export function aggregateSegments(pages: SegmentCounts[]): CorpusScore {
  const s = pages.reduce((a, p) => ({ tp: a.tp + p.tp, fp: a.fp + p.fp, fn: a.fn + p.fn, tn: a.tn + p.tn }), { tp: 0, fp: 0, fn: 0, tn: 0 });
  const precision = s.tp + s.fp ? s.tp / (s.tp + s.fp) : 0;
  const recall = s.tp + s.fn ? s.tp / (s.tp + s.fn) : 0;
  const f1 = 2 * s.tp + s.fp + s.fn ? (2 * s.tp) / (2 * s.tp + s.fp + s.fn) : 0;
  const accuracy = (s.tp + s.tn) / Math.max(1, s.tp + s.tn + s.fp + s.fn);
  return { precision, recall, f1, accuracy, pages: pages.length };
}
