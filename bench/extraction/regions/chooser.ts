/**
 * Choosers between the pipeline's output and a candidate region (the cleaned `<main>` region or body), trained on
 * some pages and applied to others: a weighted logistic regression, gradient-boosted trees (../blocks/gbdt.ts) and a
 * search for the single best threshold rule. Each is trained per candidate on whether switching to it raised the
 * page's F1, each page weighted by how much it gained or lost, so that a switch is predicted where the expected gain
 * is positive.
 */
import type { PageType } from '#extraction';
import { binEdges, predict, train as trainTrees, type TrainOptions } from '../blocks/gbdt.js';
import type { Around, RegionFeatures } from './features.js';

export type Alternative = 'main' | 'body';
export const ALTERNATIVES: Alternative[] = ['main', 'body'];
export const TYPES: PageType[] = ['article', 'documentation', 'service', 'forum', 'product', 'listing', 'collection'];

/** One WCXB page: what the pipeline did, the features of each candidate, and each candidate's F1. */
export interface RegionRow {
  id: string;
  index: number;
  site: string;
  /** The page's type in the truth (for reporting only: a chooser reads `selectAs`). */
  type: string;
  selectAs: PageType;
  feed: boolean;
  forum: boolean;
  proseLike: boolean;
  landing: boolean;
  /** What the pipeline output: its pick, or a single `<main>` / `<body>` element (widened, or a pick that is one). */
  kind: 'pick' | 'main' | 'body';
  pick: RegionFeatures;
  main?: RegionFeatures;
  body: RegionFeatures;
  around: { main?: Around; body?: Around };
  f1: { out: number; main?: number; body: number };
}

const log1p = (x: number): number => Math.log1p(Math.max(0, x));
const clip01 = (x: number): number => Math.min(1, Math.max(0, x));

export const FEATURE_NAMES = [
  'logRatio',
  'pickShareOfCandidate',
  'candidateShareOfPage',
  'pickShareOfPage',
  'addedLinkDensity',
  'addedHeadingsPerK',
  'addedProseShare',
  'addedListShare',
  'addedCards',
  'candidateLongestRun',
  'pickLongestRun',
  'pickLinkDensity',
  'candidateLinkDensity',
  'pickProse',
  'logPickText',
  'addedControlsPerK',
  'pickPreShare',
  'candidatePreShare',
  'selectAs',
  'kind',
  'feed',
  'forum',
  'proseLike',
  'landing',
  'pickFound',
  'beforeShare',
  'afterShare',
  'beforeShortShare',
  'afterShortShare',
];

/** The features of switching `row`'s output to `alt`, or undefined when the page has no such region. */
export function featureVector(row: RegionRow, alt: Alternative): number[] | undefined {
  const p = row.pick;
  const c = row[alt];
  if (!c) return undefined;
  const added = Math.max(0, c.text - p.text);
  const perK = (n: number): number => n / (added / 1000 + 1);
  const a = row.around[alt];
  const aroundText = a ? Math.max(1, a.before.chars + a.after.chars + p.text) : 1;
  return [
    Math.log((c.text + 1) / (p.text + 1)),
    p.text / Math.max(1, c.text),
    c.text / Math.max(1, c.pageText),
    Math.min(1.5, p.text / Math.max(1, p.pageText)),
    clip01((c.linkText - p.linkText) / Math.max(1, added)),
    perK(c.headings - p.headings),
    clip01((c.proseText - p.proseText) / Math.max(1, added)),
    clip01((c.listText - p.listText) / Math.max(1, added)),
    log1p(c.cards - p.cards),
    log1p(c.longestRun),
    log1p(p.longestRun),
    p.linkText / Math.max(1, p.text),
    c.linkText / Math.max(1, c.text),
    log1p(p.prose),
    log1p(p.text),
    perK(c.controls - p.controls),
    p.preText / Math.max(1, p.text),
    c.preText / Math.max(1, c.text),
    TYPES.indexOf(row.selectAs),
    ['pick', 'main', 'body'].indexOf(row.kind),
    row.feed ? 1 : 0,
    row.forum ? 1 : 0,
    row.proseLike ? 1 : 0,
    row.landing ? 1 : 0,
    a?.found ? 1 : 0,
    a?.found ? a.before.chars / aroundText : 0,
    a?.found ? a.after.chars / aroundText : 0,
    a?.found ? a.before.shortChars / Math.max(1, a.before.chars) : 0,
    a?.found ? a.after.shortChars / Math.max(1, a.after.chars) : 0,
  ];
}

/** The type feature is categorical: one-hot for the linear model. */
function linearVector(x: number[]): number[] {
  const typeAt = FEATURE_NAMES.indexOf('selectAs');
  const kindAt = FEATURE_NAMES.indexOf('kind');
  const rest = x.filter((_, i) => i !== typeAt && i !== kindAt);
  return [...rest, ...TYPES.map((_, i) => (x[typeAt] === i ? 1 : 0)), ...[0, 1, 2].map((k) => (x[kindAt] === k ? 1 : 0))];
}

/** What switching to `alt` did to the page's F1 (0 when the page has no such region). */
export const gainOf = (row: RegionRow, alt: Alternative): number => (row[alt] && row.f1[alt] !== undefined ? row.f1[alt] - row.f1.out : 0);

/** Probability that switching to a candidate gains, from its feature vector. */
export type Scorer = (x: number[]) => number;
export type Chooser = Partial<Record<Alternative, Scorer>>;

/** Pages whose F1 a switch changes by less than this teach nothing. */
const MIN_GAIN = 0.001;

function examples(rows: RegionRow[], alt: Alternative): { x: number[]; y: number; w: number }[] {
  const out: { x: number[]; y: number; w: number }[] = [];
  for (const row of rows) {
    const x = featureVector(row, alt);
    const g = gainOf(row, alt);
    if (x && Math.abs(g) >= MIN_GAIN) out.push({ x, y: g > 0 ? 1 : 0, w: Math.abs(g) });
  }
  return out;
}

/** Weighted logistic regression on standardised features (full-batch gradient descent, L2 penalty). */
function logistic(data: { x: number[]; y: number; w: number }[], l2 = 0.01, iterations = 400, rate = 0.5): Scorer {
  const xs = data.map((d) => linearVector(d.x));
  const n = xs[0]?.length ?? 0;
  const mu = new Array<number>(n).fill(0);
  const sd = new Array<number>(n).fill(0);
  for (const x of xs) x.forEach((v, i) => (mu[i] += v / xs.length));
  for (const x of xs) x.forEach((v, i) => (sd[i] += (v - mu[i]) ** 2 / xs.length));
  for (let i = 0; i < n; i++) sd[i] = Math.sqrt(sd[i]) || 1;
  const z = xs.map((x) => x.map((v, i) => (v - mu[i]) / sd[i]));
  const w = new Array<number>(n + 1).fill(0);
  const total = data.reduce((a, d) => a + d.w, 0) || 1;
  for (let it = 0; it < iterations; it++) {
    const g = new Array<number>(n + 1).fill(0);
    z.forEach((x, k) => {
      const p = 1 / (1 + Math.exp(-x.reduce((a, v, i) => a + w[i] * v, w[n])));
      const e = ((p - data[k].y) * data[k].w) / total;
      x.forEach((v, i) => (g[i] += e * v));
      g[n] += e;
    });
    for (let i = 0; i < n; i++) g[i] += l2 * w[i];
    for (let i = 0; i <= n; i++) w[i] -= rate * g[i];
  }
  return (raw) => {
    const x = linearVector(raw);
    return 1 / (1 + Math.exp(-x.reduce((a, v, i) => a + (w[i] * (v - mu[i])) / sd[i], w[n])));
  };
}

export function trainLogistic(rows: RegionRow[]): Chooser {
  return Object.fromEntries(ALTERNATIVES.map((alt) => [alt, logistic(examples(rows, alt))]));
}

export function trainTreesChooser(rows: RegionRow[], options: TrainOptions): Chooser {
  const chooser: Chooser = {};
  for (const alt of ALTERNATIVES) {
    const data = examples(rows, alt);
    const xs = data.map((d) => d.x);
    // Gains are fractions of one page's F1: scaled so the trees' minimum child weight means a few pages.
    const model = trainTrees(
      xs,
      data.map((d) => d.y),
      data.map((d) => 10 * d.w),
      binEdges(xs, options.bins),
      options,
    );
    chooser[alt] = (x) => predict(model, x);
  }
  return chooser;
}

/** The candidate a chooser takes for `row` at threshold `t`: the likeliest gain above `t`, else the output. */
export function choose(chooser: Chooser, row: RegionRow, t: number): Alternative | 'out' {
  let best: Alternative | 'out' = 'out';
  let bestP = t;
  for (const alt of ALTERNATIVES) {
    const x = featureVector(row, alt);
    const scorer = chooser[alt];
    if (!x || !scorer) continue;
    const p = scorer(x);
    if (p > bestP) {
      bestP = p;
      best = alt;
    }
  }
  return best;
}

export const f1Of = (row: RegionRow, c: Alternative | 'out'): number => (c === 'out' ? row.f1.out : (row.f1[c] ?? row.f1.out));

/** A threshold rule: switch to `alt` on pages selected as `type` (or any) where every condition holds. */
export interface Rule {
  alt: Alternative;
  type: PageType | 'any';
  conditions: { feature: number; above: boolean; at: number }[];
}

export const describeRule = (r: Rule): string =>
  `${r.type} → ${r.alt} when ${r.conditions.length ? r.conditions.map((c) => `${FEATURE_NAMES[c.feature]} ${c.above ? '>' : '≤'} ${c.at.toFixed(3)}`).join(' and ') : 'never'}`;

export function applies(rule: Rule, row: RegionRow): boolean {
  if (rule.conditions.length === 0 || (rule.type !== 'any' && row.selectAs !== rule.type)) return false;
  const x = featureVector(row, rule.alt);
  return !!x && rule.conditions.every((c) => (c.above ? x[c.feature] > c.at : x[c.feature] <= c.at));
}

/** The one-condition rule with the largest summed gain on `rows` (on at least `minPages` pages), per candidate and type. */
export function bestStump(rows: RegionRow[], alt: Alternative, type: PageType | 'any', minPages = 5): { rule: Rule; gain: number } {
  const data = rows
    .filter((r) => type === 'any' || r.selectAs === type)
    .map((r) => ({ x: featureVector(r, alt), g: gainOf(r, alt) }))
    .filter((d): d is { x: number[]; g: number } => d.x !== undefined);
  let best = { rule: { alt, type, conditions: [] } as Rule, gain: 0 };
  for (let f = 0; f < FEATURE_NAMES.length; f++) {
    const values = [...new Set(data.map((d) => d.x[f]))].sort((a, b) => a - b);
    const cuts = values.length <= 40 ? values : Array.from({ length: 39 }, (_, i) => values[Math.floor(((i + 1) * values.length) / 40)]);
    for (const at of cuts) {
      for (const above of [true, false]) {
        let gain = 0;
        let n = 0;
        for (const d of data) {
          if (above ? d.x[f] > at : d.x[f] <= at) {
            gain += d.g;
            n++;
          }
        }
        if (n >= minPages && gain > best.gain) best = { rule: { alt, type, conditions: [{ feature: f, above, at }] }, gain };
      }
    }
  }
  return best;
}
