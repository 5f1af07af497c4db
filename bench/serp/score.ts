/**
 * SERP parser scores on the real-page corpus (../shared/corpus/serp): per-source organic match rate against the
 * reference parses, serp-spider YAML fields, Google pages per folder (every result in order, wrongly blocked,
 * fallback used), DuckDuckGo pinned counts, block/no-results classification, and the parse-time median.
 * Run: `npm run build && node dist/bench/serp/score.js [--verbose]`.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createSearchProviders, detectVerdict, parseGoogleSerp } from '#serp';
import {
  allPages, bingReferenceCases, corpusRoot, DUCKDUCKGO_PINNED_COUNTS, googleReferenceCases, readPage, serpSpiderCases, VERDICT_CASES,
} from '#bench/serp/conformance/corpus.js';
import { scoreReferenceCase, totalsBySource } from '#bench/serp/conformance/reference-score.js';
import { scoreSpiderCase } from '#bench/serp/conformance/serp-spider-score.js';
import { bingReferenceFigures, duckDuckGoFigures } from '#bench/serp/conformance/search-figures.js';
import { fallbackAloneScore, googleGenerationReport } from '#bench/serp/conformance/google-generations.js';
import { robustnessReport, verdictRobustness } from '#bench/serp/conformance/robustness.js';
import { STRESS } from '#bench/serp/conformance/perturb.js';

const verbose = process.argv.includes('--verbose');
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const root = corpusRoot(repoRoot) ?? corpusRoot(process.cwd());
if (!root) {
  console.log('serp corpus not found at ../shared/corpus/serp — nothing to score');
  process.exit(0);
}

const pct = (a: number, b: number) => (b ? `${((a / b) * 100).toFixed(1)} %` : 'n/a');

// Reference parses (Google 2023 desktop/mobile/no-JS, Bing no-JS 2021)
const scores = [
  ...googleReferenceCases(root).map((c) => scoreReferenceCase(c, 'google')),
  ...bingReferenceCases(root).map((c) => scoreReferenceCase(c, 'bing')),
].filter((s) => s !== null);
console.log('== organic results vs reference parses (link + title equal, snippet F1 >= 0.9, order kept)');
for (const t of totalsBySource(scores)) {
  console.log(`${t.source.padEnd(22)} ${String(t.matched).padStart(4)}/${String(t.total).padEnd(4)} ${pct(t.matched, t.total).padStart(8)}`
    + `   (reference ads left out: ${t.refAds})   related searches ${t.relatedMatched}/${t.relatedTotal}`);
}
if (verbose) {
  for (const s of scores) for (const m of s.organic.misses) console.log(`   miss ${s.source}/${s.name}: ${m.ref.url} — ${m.why}`);
}

// serp-spider YAML
let asserted = 0;
let passed = 0;
for (const c of serpSpiderCases(root)) {
  const s = scoreSpiderCase(c);
  asserted += s.asserted;
  passed += s.passed;
  if (verbose) for (const f of s.failures) console.log(`   fail ${path.basename(c.yaml)}: ${f}`);
}
console.log(`\n== serp-spider YAML expectations: ${passed}/${asserted} asserted fields ${pct(passed, asserted)}`);

// Google generations: every ordinary page (not captcha / consent / no-results), per folder
console.log('\n== Google pages per folder: every organic result in order (vs hand-counted pins or reference parse)');
console.log(`${'folder'.padEnd(50)} pages  in full  blocked  fallback`);
const gen = googleGenerationReport(root);
for (const r of gen) {
  console.log(`${r.folder.padEnd(50)} ${String(r.pages).padStart(5)}  ${`${r.inFull}/${r.checked}`.padStart(7)}  ${String(r.blocked).padStart(7)}  ${String(r.fallback).padStart(8)}`);
  if (verbose) for (const m of r.misses) console.log(`   not in full: ${m}`);
}
const sum = (k: 'pages' | 'checked' | 'inFull' | 'blocked' | 'fallback') => gen.reduce((n, r) => n + r[k], 0);
console.log(`${'all Google folders'.padEnd(50)} ${String(sum('pages')).padStart(5)}  ${`${sum('inFull')}/${sum('checked')}`.padStart(7)}  `
  + `${String(sum('blocked')).padStart(7)}  ${String(sum('fallback')).padStart(8)}`);

for (const strip of ['classes', 'headings'] as const) {
  const f = fallbackAloneScore(root, strip);
  console.log(`fallback alone, ${strip === 'classes' ? 'classes and ids stripped ' : '+ headings stripped too   '}: `
    + `${f.found}/${f.results} results (${pct(f.found, f.results)}), ${f.complete}/${f.pages} pages complete in order, ${f.extra} extra entries`);
}

// DuckDuckGo pinned counts
const engines = createSearchProviders({ googleBaseUrl: 'http://127.0.0.1/', bingBaseUrl: 'http://127.0.0.1/', duckduckgoBaseUrl: 'http://127.0.0.1/' });
let ddgOk = 0;
const ddgPages = Object.entries(DUCKDUCKGO_PINNED_COUNTS);
for (const [rel, expected] of ddgPages) {
  const got = engines.duckduckgo.parseSearchPage?.(readPage(path.join(root, 'duckduckgo', rel)), { query: '', page: 1 }).page?.search_results.length ?? 0;
  if (got === expected) ddgOk++;
  else console.log(`   duckduckgo ${rel}: ${got} results, pinned ${expected}`);
}
console.log(`\n== DuckDuckGo pages with every organic result extracted: ${ddgOk}/${ddgPages.length}`);

// `/search` page objects (web/search-figures.ts; pinned in web/search-corpus.spec.ts)
const bingFig = bingReferenceFigures(root);
const ddgFig = duckDuckGoFigures(root);
console.log(`\n== /search page objects`);
console.log(`bing vs reference (${bingFig.pages} pages): title + link in order ${bingFig.titleLink}/${bingFig.total} ${pct(bingFig.titleLink, bingFig.total)}`
  + `, with snippet F1 >= 0.9 ${bingFig.withSnippet}/${bingFig.total} ${pct(bingFig.withSnippet, bingFig.total)}`);
console.log(`duckduckgo: ${ddgFig.complete}/${ddgFig.pages} pages complete, ${ddgFig.results}/${ddgFig.expected} organic results`
  + ` (instant answer on ${ddgFig.withAnswer}, sidebar on ${ddgFig.withSidebar})`);
if (verbose) for (const m of [...bingFig.misses, ...ddgFig.mismatches]) console.log(`   ${m}`);

// Verdicts
let verdictOk = 0;
for (const c of VERDICT_CASES) {
  const v = detectVerdict(c.engine, readPage(path.join(root, c.file)));
  if (v.kind === c.expect) verdictOk++;
  else console.log(`   verdict ${c.file}: ${JSON.stringify(v)}, expected ${c.expect}`);
}
console.log(`== no-results / block pages classified as such: ${verdictOk}/${VERDICT_CASES.length}`);

// Robustness: dev pages perturbed as other years and markets differ (conformance/perturb.ts)
console.log('\n== robustness: pages with every result of the intact page, in order, not blocked (perturbed dev pages)');
const robust = robustnessReport(root);
const perts = [...new Set(robust.map((r) => r.perturbation))];
console.log(`${'engine'.padEnd(11)} ${perts.map((p) => p.padStart(11)).join(' ')}`);
for (const engine of ['google', 'bing', 'duckduckgo'] as const) {
  const cells = perts.map((p) => {
    const r = robust.find((x) => x.engine === engine && x.perturbation === p);
    return (r ? `${r.complete}/${r.pages}` : '-').padStart(11);
  });
  console.log(`${engine.padEnd(11)} ${cells.join(' ')}`);
}
const pert = robust.filter((r) => r.perturbation !== 'intact');
for (const engine of ['google', 'bing', 'duckduckgo'] as const) {
  const rs = pert.filter((r) => r.engine === engine);
  const c = rs.reduce((n, r) => n + r.complete, 0);
  const t = rs.reduce((n, r) => n + r.pages, 0);
  const b = rs.reduce((n, r) => n + r.blocked, 0);
  console.log(`${engine} over all perturbations: ${c}/${t} pages complete in order (${pct(c, t)}), ${b} reported blocked`);
}
if (verbose) for (const r of pert) for (const m of r.misses) console.log(`   ${r.engine}/${r.perturbation} not complete: ${m}`);
const stress = robustnessReport(root, STRESS).filter((r) => r.perturbation !== 'intact');
console.log(`stress (not in the figures above), titles without heading tags: ${stress.map((r) => `${r.engine} ${r.complete}/${r.pages}`).join(', ')}`);
if (verbose) for (const r of stress) for (const m of r.misses) console.log(`   ${r.engine}/${r.perturbation} not complete: ${m}`);
const vr = verdictRobustness(root);
console.log(`no-results / block verdicts kept: ${vr.map((v) => `${v.perturbation} ${v.kept}/${v.cases}`).join(', ')}`);
if (verbose) for (const v of vr) for (const m of v.misses) console.log(`   ${v.perturbation}: ${m}`);

// Parse time: every page, after warm-up, median of 5 runs per page; then the median over pages.
const pages = allPages(root).map((p) => ({ ...p, html: readPage(p.file) }));
const parseOnce = (p: (typeof pages)[number]) => {
  if (p.engine === 'google') parseGoogleSerp(p.html, { type: 'search', page: 1, num: 10 });
  else engines[p.engine].parseSearchPage?.(p.html, { query: '', page: 1 });
};
for (let i = 0; i < 2; i++) pages.forEach(parseOnce);
// Per page: 7 timed runs after warm-up; the page's median run and its fastest run (the fastest is the parse cost
// with the least interference when other jobs share the cores). Then the median over pages of each.
const medianRun: number[] = [];
const fastestRun: number[] = [];
for (const p of pages) {
  const runs: number[] = [];
  for (let i = 0; i < 7; i++) {
    const t = performance.now();
    parseOnce(p);
    runs.push(performance.now() - t);
  }
  runs.sort((a, b) => a - b);
  medianRun.push(runs[3]);
  fastestRun.push(runs[0]);
}
const at = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * q))].toFixed(2);
console.log(`\n== parse time over ${pages.length} pages (htmlparser2 parse + extraction, after warm-up)`);
console.log(`per-page median run:  median ${at(medianRun, 0.5)} ms, p90 ${at(medianRun, 0.9)} ms, max ${at(medianRun, 1)} ms`);
console.log(`per-page fastest run: median ${at(fastestRun, 0.5)} ms, p90 ${at(fastestRun, 0.9)} ms, max ${at(fastestRun, 1)} ms`);
