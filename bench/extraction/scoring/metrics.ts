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

export interface PageWordScore {
  precision: number;
  recall: number;
  f1: number;
  /** share of "with" snippets found (undefined when the page has none) */
  withRate?: number;
  /** share of "without" snippets leaked (undefined when the page has none) */
  withoutRate?: number;
}

function wordBag(text: string): Map<string, number> {
  const bag = new Map<string, number>();
  for (const t of tokenize(text.toLowerCase())) bag.set(t, (bag.get(t) ?? 0) + 1);
  return bag;
}

const lowerNorm = (s: string): string => norm(s).toLowerCase();

/**
 * One WCXB page (evaluate.py): bag-of-words overlap of the lower-cased `\w+` tokens; empty truth scores 1 only when
 * the prediction is empty too. Snippets: case-insensitive substring test (whitespace collapsed on both sides).
 */
export function wordScore(truth: string, predicted: string, withSnips: string[] = [], withoutSnips: string[] = []): PageWordScore {
  const t = wordBag(truth);
  const p = wordBag(predicted);
  let nt = 0;
  let np = 0;
  let overlap = 0;
  for (const c of t.values()) nt += c;
  for (const [k, c] of p) {
    np += c;
    overlap += Math.min(c, t.get(k) ?? 0);
  }
  let precision: number;
  let recall: number;
  let f1: number;
  if (nt === 0) precision = recall = f1 = np === 0 ? 1 : 0;
  else if (np === 0) precision = recall = f1 = 0;
  else {
    precision = overlap / np;
    recall = overlap / nt;
    f1 = precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0;
  }
  const text = lowerNorm(predicted);
  const rate = (snips: string[]): number | undefined => {
    const s = snips.map(lowerNorm).filter(Boolean);
    return s.length ? s.filter((x) => text.includes(x)).length / s.length : undefined;
  };
  return { precision, recall, f1, withRate: rate(withSnips), withoutRate: rate(withoutSnips) };
}

export interface WordCorpusScore {
  precision: number;
  recall: number;
  /** macro mean of per-page F1 */
  f1: number;
  withRate: number;
  withoutRate: number;
  pages: number;
}

/** Macro means over pages (the WCXB figures); snippet rates are means over the pages that have snippets. */
export function aggregateWords(pages: PageWordScore[]): WordCorpusScore {
  const mean = (xs: number[]): number => (xs.length ? xs.reduce((a, x) => a + x, 0) / xs.length : 0);
  return {
    precision: mean(pages.map((p) => p.precision)),
    recall: mean(pages.map((p) => p.recall)),
    f1: mean(pages.map((p) => p.f1)),
    withRate: mean(pages.flatMap((p) => (p.withRate === undefined ? [] : [p.withRate]))),
    withoutRate: mean(pages.flatMap((p) => (p.withoutRate === undefined ? [] : [p.withoutRate]))),
    pages: pages.length,
  };
}
