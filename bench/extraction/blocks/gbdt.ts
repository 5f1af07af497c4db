/**
 * A compact gradient-boosted tree classifier (logistic loss, Newton leaves, depth-limited trees grown level by level
 * on quantile-binned features). Deterministic: no sampling, ties broken by feature order. Trees are kept as flat
 * threshold tests on the raw feature values, so a model is plain JSON and predicting needs no bins.
 */
export interface TreeNode {
  /** Feature index; -1 for a leaf. */
  f: number;
  /** Go left when x[f] <= t. */
  t: number;
  l: number;
  r: number;
  /** Leaf value (log-odds increment). */
  v: number;
}

export interface Model {
  base: number;
  trees: TreeNode[][];
}

export interface TrainOptions {
  trees: number;
  depth: number;
  rate: number;
  /** L2 penalty on leaf values. */
  lambda: number;
  /** Smallest hessian sum a child may hold. */
  minChild: number;
  bins: number;
}

export const DEFAULTS: TrainOptions = { trees: 150, depth: 3, rate: 0.1, lambda: 1, minChild: 5, bins: 32 };

/** Bin edges per feature: up to `bins - 1` distinct quantile thresholds. */
export function binEdges(rows: number[][], bins: number): number[][] {
  const nf = rows[0]?.length ?? 0;
  const edges: number[][] = [];
  for (let f = 0; f < nf; f++) {
    const values = Float64Array.from(rows, (r) => r[f]).sort();
    const e: number[] = [];
    for (let b = 1; b < bins; b++) {
      const q = values[Math.floor((b * values.length) / bins)];
      if (e.length === 0 || q > e[e.length - 1]) e.push(q);
    }
    // thresholds: a value v goes to the first bin whose edge is >= v
    edges.push(e);
  }
  return edges;
}

function binOf(edges: number[], v: number): number {
  let lo = 0;
  let hi = edges.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (v <= edges[mid]) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

const sigmoid = (x: number): number => 1 / (1 + Math.exp(-x));

export function train(rows: number[][], labels: number[], weights: number[], edges: number[][], o: TrainOptions = DEFAULTS): Model {
  const n = rows.length;
  const nf = edges.length;
  const binned = edges.map((e, f) => Uint8Array.from(rows, (r) => binOf(e, r[f])));
  let wp = 0;
  let wt = 0;
  for (let i = 0; i < n; i++) {
    wp += weights[i] * labels[i];
    wt += weights[i];
  }
  const prior = Math.min(0.999, Math.max(0.001, wp / wt));
  const base = Math.log(prior / (1 - prior));
  const score = new Float64Array(n).fill(base);
  const g = new Float64Array(n);
  const h = new Float64Array(n);
  const trees: TreeNode[][] = [];
  const node = new Int32Array(n);
  for (let t = 0; t < o.trees; t++) {
    for (let i = 0; i < n; i++) {
      const p = sigmoid(score[i]);
      g[i] = weights[i] * (p - labels[i]);
      h[i] = weights[i] * Math.max(p * (1 - p), 1e-6);
    }
    const tree: TreeNode[] = [{ f: -1, t: 0, l: -1, r: -1, v: 0 }];
    node.fill(0);
    let frontier = [0];
    for (let d = 0; d < o.depth && frontier.length; d++) {
      const slot = new Int32Array(1 << (o.depth + 1)).fill(-1);
      for (const [k, id] of frontier.entries()) slot[id] = k;
      const nb = o.bins + 1;
      const G = new Float64Array(frontier.length * nf * nb);
      const H = new Float64Array(frontier.length * nf * nb);
      for (let i = 0; i < n; i++) {
        const k = slot[node[i]];
        if (k < 0) continue;
        const off = k * nf * nb;
        for (let f = 0; f < nf; f++) {
          const j = off + f * nb + binned[f][i];
          G[j] += g[i];
          H[j] += h[i];
        }
      }
      const next: number[] = [];
      for (const [k, id] of frontier.entries()) {
        let gs = 0;
        let hs = 0;
        for (let b = 0; b < nb; b++) {
          gs += G[k * nf * nb + b];
          hs += H[k * nf * nb + b];
        }
        const parentGain = (gs * gs) / (hs + o.lambda);
        let best = 1e-9;
        let bf = -1;
        let bb = -1;
        for (let f = 0; f < nf; f++) {
          let gl = 0;
          let hl = 0;
          const off = k * nf * nb + f * nb;
          for (let b = 0; b < edges[f].length; b++) {
            gl += G[off + b];
            hl += H[off + b];
            const gr = gs - gl;
            const hr = hs - hl;
            if (hl < o.minChild || hr < o.minChild) continue;
            const gain = (gl * gl) / (hl + o.lambda) + (gr * gr) / (hr + o.lambda) - parentGain;
            if (gain > best) {
              best = gain;
              bf = f;
              bb = b;
            }
          }
        }
        const leaf = tree[id];
        leaf.v = (-gs / (hs + o.lambda)) * o.rate;
        if (bf < 0) continue;
        leaf.f = bf;
        leaf.t = edges[bf][bb];
        leaf.l = tree.length;
        tree.push({ f: -1, t: 0, l: -1, r: -1, v: 0 });
        leaf.r = tree.length;
        tree.push({ f: -1, t: 0, l: -1, r: -1, v: 0 });
        next.push(leaf.l, leaf.r);
        // rows move by their bin: bin <= bb goes left (the edge is the bin's upper bound)
        for (let i = 0; i < n; i++) if (node[i] === id) node[i] = binned[bf][i] <= bb ? leaf.l : leaf.r;
      }
      frontier = next;
    }
    // leaves of the last level
    if (frontier.length) {
      const gs = new Map<number, number>();
      const hs = new Map<number, number>();
      for (let i = 0; i < n; i++) {
        gs.set(node[i], (gs.get(node[i]) ?? 0) + g[i]);
        hs.set(node[i], (hs.get(node[i]) ?? 0) + h[i]);
      }
      for (const id of frontier) tree[id].v = (-(gs.get(id) ?? 0) / ((hs.get(id) ?? 0) + o.lambda)) * o.rate;
    }
    for (let i = 0; i < n; i++) score[i] += tree[node[i]].v;
    trees.push(tree);
  }
  return { base, trees };
}

/** Probability that a block with features `x` is content. */
export function predict(model: Model, x: number[]): number {
  let s = model.base;
  for (const tree of model.trees) {
    let id = 0;
    while (tree[id].f >= 0) id = x[tree[id].f] <= tree[id].t ? tree[id].l : tree[id].r;
    s += tree[id].v;
  }
  return sigmoid(s);
}
