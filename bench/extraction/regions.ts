/**
 * Choosing per page between candidate regions, measured on the WCXB dev split: the pipeline's output (its pick, or
 * the region it widened to), the cleaned `<main>` region and the cleaned body (each with the `region` and `content`
 * passes, as widening runs them). Reads every page as formatPage does, scores each candidate against the truth (word
 * F1, the WCXB metric), and reads features of each that need no truth (regions/features.ts: lengths, links, headings,
 * prose, list items, runs of cards, code, forms, and where the pick's text sits in the region). Then reports the
 * oracle (the best candidate per page) and choosers trained on some pages and scored on others (regions/chooser.ts):
 * trained on the even-indexed pages and applied to the odd ones and vice versa (the split bench:extraction prints),
 * and 5-fold by site.
 *   npm run build:server && npm run bench:extraction-regions -- [--out=FILE] [--from=FILE] [--trees=100] [--depth=3]
 * `--out` saves the pages read (features and F1s) as JSON; `--from` reads such a file instead of the corpus.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { cleanDocument, extractMetadataFromDocument, pageProfile, renderText, runPasses, selectMainContent, type PageProfile } from '#extraction';
import { titleHeading } from '#extraction/format-page.js';
import { bodyOf, cloneNode, findFirst, isTag, parseHtmlWithin, removeNode, type Document, type ParentNode } from '#extraction/dom.js';
import { shapeForMarkdown } from '#extraction/markdown/structure.js';
import { MAX_NESTING_DEPTH } from '#extraction/nesting-depth.js';
import { pageAddress } from '#extraction/page-address.js';
import { missingDescription } from '#extraction/product-description.js';
import { DEFAULTS } from './blocks/gbdt.js';
import {
  ALTERNATIVES,
  applies,
  bestStump,
  choose,
  describeRule,
  f1Of,
  gainOf,
  trainLogistic,
  trainTreesChooser,
  TYPES,
  type Alternative,
  type Chooser,
  type RegionRow,
} from './regions/chooser.js';
import { aroundPick, regionFeatures } from './regions/features.js';
import { corpusRoot, loadWcxb } from './scoring/corpus.js';
import { wordScore } from './scoring/metrics.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const args = process.argv.slice(2);
const arg = (name: string): string | undefined => args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const treeOptions = { ...DEFAULTS, trees: Number(arg('trees') ?? 100), depth: Number(arg('depth') ?? 3), minChild: 5 };
const THRESHOLDS = [0.5, 0.6, 0.7, 0.8, 0.9];

/** What formatPage does to `nodes` after selection, then their page_text. */
function finish(nodes: ParentNode[], profile: PageProfile, url: string, title: string | undefined): string {
  runPasses('content', { roots: nodes, profile });
  const added = profile.description ? missingDescription(profile.description, nodes, url) : undefined;
  if (added) nodes.push(added);
  shapeForMarkdown(nodes);
  if (profile.selectAs !== 'product') {
    const h = titleHeading(nodes, title);
    if (h) removeNode(h);
  }
  return renderText(nodes);
}

const regionOf = (doc: Document): ParentNode | undefined => findFirst(bodyOf(doc), (e) => e.name === 'main' || e.attribs.role === 'main');

function readCorpus(): RegionRow[] {
  const corpus = loadWcxb(corpusRoot(repoRoot));
  if (!corpus) throw new Error('WCXB dev corpus absent');
  const meta = (JSON.parse(readFileSync(path.join(corpusRoot(repoRoot), 'wcxb-dev', 'metadata.json'), 'utf8')) as { files: Record<string, { domain?: string }> }).files;
  const rows: RegionRow[] = [];
  const started = Date.now();
  for (const [index, p] of corpus.entries()) {
    const { doc, tooDeep } = parseHtmlWithin(p.html, MAX_NESTING_DEPTH);
    if (tooDeep) continue;
    let metadata = extractMetadataFromDocument(doc, p.url);
    const url = pageAddress(p.url, metadata, doc);
    if (url !== p.url) metadata = extractMetadataFromDocument(doc, url);
    const profile = pageProfile(doc, url, { description: true });
    cleanDocument(doc, { url, aggressive: true, keepComments: profile.forum, landing: profile.landing });
    // The cleaned page before selection (which prunes in place): the candidates and their features are read on it.
    const cleaned = cloneNode(doc, true);
    const cleanedMain = regionOf(cleaned);
    const cleanedBody = bodyOf(cleaned);
    const { nodes } = selectMainContent(doc, p.html, profile);
    const only = nodes.length === 1 && isTag(nodes[0]) ? nodes[0] : undefined;
    const kind: RegionRow['kind'] = only && (only.name === 'main' || only.attribs.role === 'main') ? 'main' : only?.name === 'body' ? 'body' : 'pick';
    const pickText = renderText(nodes);
    const pick = regionFeatures(nodes, cleanedBody);
    const main = cleanedMain ? regionFeatures([cleanedMain], cleanedBody) : undefined;
    const body = regionFeatures([cleanedBody], cleanedBody);
    const around = { main: cleanedMain ? aroundPick(renderText(cleanedMain), pickText) : undefined, body: aroundPick(renderText(cleanedBody), pickText) };
    const outText = finish(nodes, profile, url, metadata.title);
    const candidate = (alt: Alternative): string | undefined => {
      const copy = cloneNode(cleaned, true);
      const root = alt === 'main' ? regionOf(copy) : bodyOf(copy);
      if (!root) return undefined;
      runPasses('region', { roots: [root], profile });
      return finish([root], profile, url, metadata.title);
    };
    const mainText = candidate('main');
    const f1 = (text: string): number => wordScore(p.truth, text).f1;
    rows.push({
      id: p.id,
      index,
      site: meta[p.id]?.domain ?? (URL.canParse(p.url) ? new URL(p.url).hostname : p.id),
      type: p.pageType,
      selectAs: profile.selectAs,
      feed: profile.feed,
      forum: profile.forum,
      proseLike: profile.proseLike,
      landing: profile.landing,
      kind,
      pick,
      main,
      body,
      around,
      f1: { out: f1(outText), main: mainText === undefined ? undefined : f1(mainText), body: f1(candidate('body') ?? '') },
    });
  }
  console.log(`read ${rows.length} pages in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  return rows;
}

const from = arg('from');
const rows = from ? (JSON.parse(readFileSync(from, 'utf8')) as RegionRow[]) : readCorpus();
const out = arg('out');
if (out) writeFileSync(out, JSON.stringify(rows));

const mean = (xs: number[]): number => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
const even = rows.filter((r) => r.index % 2 === 0);
const odd = rows.filter((r) => r.index % 2 === 1);

/** One line: overall, even / odd, and per type (the truth's), each page scored by `f`. */
function line(label: string, f: (r: RegionRow) => number, extra = ''): void {
  const cells = [
    label.padEnd(44),
    mean(rows.map(f)).toFixed(4),
    `${mean(even.map(f)).toFixed(4)} / ${mean(odd.map(f)).toFixed(4)}`,
    ...TYPES.map((t) => `${t.slice(0, 4)} ${mean(rows.filter((r) => r.type === t).map(f)).toFixed(4)}`),
  ];
  console.log(cells.join('  ') + extra);
}

console.log('\n## Candidates (word F1, macro per page: overall, even / odd, per type)');
line('pipeline', (r) => r.f1.out);
line('<main> region (pipeline where none)', (r) => r.f1.main ?? r.f1.out);
line('body', (r) => r.f1.body);
line('oracle: best of pipeline and <main>', (r) => Math.max(r.f1.out, r.f1.main ?? 0));
line('oracle: best of pipeline and body', (r) => Math.max(r.f1.out, r.f1.body));
line('oracle: best of the three', (r) => Math.max(r.f1.out, r.f1.main ?? 0, r.f1.body));
{
  const gains = rows.map((r) => Math.max(0, ...ALTERNATIVES.map((a) => gainOf(r, a)))).sort((a, b) => b - a);
  const total = gains.reduce((a, b) => a + b, 0);
  const top = (n: number): string => `${((100 * gains.slice(0, n).reduce((a, b) => a + b, 0)) / total).toFixed(0)}%`;
  console.log(`  oracle gain held by the 20 / 50 / 100 pages that gain most: ${top(20)} / ${top(50)} / ${top(100)}; pages gaining > 0.01: ${gains.filter((g) => g > 0.01).length}`);
}

/** Held-out choices: `train` on one set of pages, applied to another, for every threshold. */
function heldOut(label: string, train: (rs: RegionRow[]) => Chooser, splits: [RegionRow[], RegionRow[]][]): void {
  const choosers = splits.map(([trainOn, applyTo]) => ({ chooser: train(trainOn), applyTo }));
  const inSample = train(rows);
  for (const t of THRESHOLDS) {
    const chosen = new Map<RegionRow, Alternative | 'out'>();
    for (const { chooser, applyTo } of choosers) for (const r of applyTo) chosen.set(r, choose(chooser, r, t));
    const switched = [...chosen.values()].filter((c) => c !== 'out').length;
    const fit = mean(rows.map((r) => f1Of(r, choose(inSample, r, t))));
    line(`${label}, p > ${t}`, (r) => f1Of(r, chosen.get(r) ?? 'out'), `  switched ${switched}, in-sample ${fit.toFixed(4)}`);
  }
}

const halves: [RegionRow[], RegionRow[]][] = [
  [even, odd],
  [odd, even],
];
const foldOf = (site: string): number => {
  let h = 2166136261;
  for (const ch of site) h = Math.imul(h ^ ch.charCodeAt(0), 16777619);
  return (h >>> 0) % 5;
};
const folds: [RegionRow[], RegionRow[]][] = [0, 1, 2, 3, 4].map((k) => [rows.filter((r) => foldOf(r.site) !== k), rows.filter((r) => foldOf(r.site) === k)]);

console.log('\n## Choosers trained on one half, applied to the other (each half scored by a model that never saw it)');
heldOut('logistic regression', trainLogistic, halves);
heldOut(`trees (${treeOptions.trees}, depth ${treeOptions.depth})`, (rs) => trainTreesChooser(rs, treeOptions), halves);
console.log('\n## The same, 5-fold by site (every page scored by a model that saw neither it nor its site)');
heldOut('logistic regression', trainLogistic, folds);
heldOut(`trees (${treeOptions.trees}, depth ${treeOptions.depth})`, (rs) => trainTreesChooser(rs, treeOptions), folds);

console.log('\n## Best single-threshold rule per candidate and selected type, found on one half and checked on the other');
const perPage = (rs: RegionRow[], rule: Parameters<typeof applies>[0]): number => rs.reduce((a, r) => a + (applies(rule, r) ? gainOf(r, rule.alt) : 0), 0) / rs.length;
for (const alt of ALTERNATIVES) {
  for (const type of [...TYPES, 'any' as const]) {
    const cells = halves.map(([trainOn, applyTo], h) => {
      const { rule } = bestStump(trainOn, alt, type);
      return `found on ${h === 0 ? 'even' : 'odd'}: ${describeRule(rule)}: ${perPage(trainOn, rule).toFixed(4)} there, ${perPage(applyTo, rule).toFixed(4)} on the other`;
    });
    console.log(`  ${cells.join(' | ')}`);
  }
}
