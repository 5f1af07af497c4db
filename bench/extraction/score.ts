/**
 * Extraction quality and speed on the shared corpus (metrics: shared/corpus/SCORING.md).
 *   npm run build && node dist/bench/extraction/score.js [--only=zyte,trafilatura,readability,wcxb] [--no-speed]
 *     [--dump DIR]  (writes per-page outputs and scores for inspection)
 * Prints per-dataset P/R/F1 for page_text, markdown→text (both converters), the whole-page baselines, and
 * ms/page for each pipeline step (median over the Zyte corpus); for WCXB dev, macro word P/R/F1 and the with/without
 * snippet rates per page type, with the page_text F1 of the even- and odd-indexed pages apart (a split to check a rule
 * tuned on one half against the other).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  cleanDocument,
  extractMetadataFromDocument,
  formatPage,
  markdownConverter,
  markdownToText,
  parseHtml,
  profileOf,
  renderText,
  selectMainContent,
  serialize,
  type OutputFormats,
  type PageMetadata,
} from '#extraction';
import { bodyOf } from '#extraction/dom.js';
import {
  aggregateSegments,
  aggregateShingles,
  aggregateWords,
  segmentCounts,
  shingleScore,
  wordScore,
  type CorpusScore,
  type PageWordScore,
  type WordCorpusScore,
} from './scoring/metrics.js';
import { corpusRoot, loadReadability, loadTrafilatura, loadWcxb, loadZyte } from './scoring/corpus.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const args = process.argv.slice(2);
const only = (args.find((a) => a.startsWith('--only='))?.slice(7) ?? 'zyte,trafilatura,readability,wcxb').split(',');
const speed = !args.includes('--no-speed');
const dumpDir = args.includes('--dump') ? args[args.indexOf('--dump') + 1] : undefined;
const withTurndown = !args.includes('--no-turndown');

const ALL: OutputFormats = { raw_html: false, enhanced_html: false, markdown: true, page_text: true };

interface Outputs {
  text: string;
  metadata?: PageMetadata;
  mdText: string;
  mdTurndownText?: string;
  wholeAggressive: string;
  wholeConservative: string;
}

/** The text outputs (everything but the metadata). */
type TextKey = Exclude<keyof Outputs, 'metadata'>;

function wholePage(html: string, url: string, aggressive: boolean): string {
  const doc = parseHtml(html);
  cleanDocument(doc, { url, aggressive });
  return renderText(bodyOf(doc));
}

function run(html: string, url: string): Outputs {
  const page = formatPage(html, { url, formats: ALL });
  const out: Outputs = {
    text: page.page_text ?? '',
    metadata: page.metadata,
    mdText: markdownToText(page.markdown ?? ''),
    wholeAggressive: wholePage(html, url, true),
    wholeConservative: wholePage(html, url, false),
  };
  if (withTurndown) {
    const td = formatPage(html, { url, formats: { ...ALL, page_text: false }, markdownConverter: 'turndown' });
    out.mdTurndownText = markdownToText(td.markdown ?? '');
  }
  return out;
}

const fmt = (s: CorpusScore): string =>
  `P ${s.precision.toFixed(3)}  R ${s.recall.toFixed(3)}  F1 ${s.f1.toFixed(3)}` + (s.accuracy !== undefined ? `  acc ${s.accuracy.toFixed(3)}` : '');

function report(title: string, rows: Record<string, CorpusScore>): void {
  console.log(`\n## ${title}`);
  for (const [name, s] of Object.entries(rows)) console.log(`  ${name.padEnd(28)} ${fmt(s)}`);
}

function dump(name: string, rows: unknown): void {
  if (!dumpDir) return;
  mkdirSync(dumpDir, { recursive: true });
  writeFileSync(path.join(dumpDir, `${name}.json`), JSON.stringify(rows, null, 1));
}

const root = corpusRoot(repoRoot);
const results: Record<string, Record<string, CorpusScore>> = {};

if (only.includes('zyte')) {
  const pages = loadZyte(root);
  if (!pages) console.log('zyte: corpus absent, skipped');
  else {
    const scores: Record<TextKey, ReturnType<typeof shingleScore>[]> = { text: [], mdText: [], mdTurndownText: [], wholeAggressive: [], wholeConservative: [] };
    const perPage: unknown[] = [];
    for (const p of pages) {
      const o = run(p.html, p.url);
      for (const k of Object.keys(scores) as TextKey[]) if (o[k] !== undefined) scores[k].push(shingleScore(p.truth, o[k] as string));
      const s = shingleScore(p.truth, o.text);
      perPage.push({ id: p.id, url: p.url, p: s.precision, r: s.recall, text: o.text });
    }
    results.zyte = {
      'page_text': aggregateShingles(scores.text),
      'markdown→text (mdream)': aggregateShingles(scores.mdText),
      ...(withTurndown ? { 'markdown→text (turndown)': aggregateShingles(scores.mdTurndownText) } : {}),
      'baseline: whole cleaned page': aggregateShingles(scores.wholeAggressive),
      'baseline: whole page (junk only)': aggregateShingles(scores.wholeConservative),
    };
    // Metric self-check: the published outputs of other extractors must reproduce the README figures.
    for (const other of ['trafilatura', 'readability_js']) {
      const file = path.join(root, 'zyte-article-extraction-benchmark', 'output', `${other}.json`);
      if (!existsSync(file)) continue;
      const raw = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
      const preds = (raw.output ?? raw) as Record<string, { articleBody?: string }>;
      results.zyte[`reference: ${other} output`] = aggregateShingles(pages.map((p) => shingleScore(p.truth, preds[p.id]?.articleBody ?? '')));
    }
    report('Zyte article-extraction-benchmark (181 pages, shingle F1; trafilatura 0.958, readability.js 0.947)', results.zyte);
    dump('zyte', perPage);
  }
}

if (only.includes('trafilatura')) {
  const pages = loadTrafilatura(root);
  if (!pages) console.log('trafilatura: corpus absent, skipped');
  else {
    const counts: Record<TextKey, ReturnType<typeof segmentCounts>[]> = { text: [], mdText: [], mdTurndownText: [], wholeAggressive: [], wholeConservative: [] };
    const perPage: unknown[] = [];
    for (const p of pages) {
      const o = run(p.html, p.url);
      for (const k of Object.keys(counts) as TextKey[]) if (o[k] !== undefined) counts[k].push(segmentCounts(o[k], p.with, p.without));
      const c = segmentCounts(o.text, p.with, p.without);
      if (c.fn || c.fp) perPage.push({ file: p.file, url: p.url, ...c, missing: p.with.filter((s) => !o.text.replace(/\s+/g, ' ').includes(s.replace(/\s+/g, ' ').trim())), leaked: p.without.filter((s) => o.text.replace(/\s+/g, ' ').includes(s.replace(/\s+/g, ' ').trim())), text: o.text.slice(0, 3000) });
    }
    results.trafilatura = {
      'page_text': aggregateSegments(counts.text),
      'markdown→text (mdream)': aggregateSegments(counts.mdText),
      ...(withTurndown ? { 'markdown→text (turndown)': aggregateSegments(counts.mdTurndownText) } : {}),
      'baseline: whole cleaned page': aggregateSegments(counts.wholeAggressive),
      'baseline: whole page (junk only)': aggregateSegments(counts.wholeConservative),
    };
    report('trafilatura eval (990 pages, segment F1; trafilatura 0.924)', results.trafilatura);
    dump('trafilatura', perPage);
  }
}

if (only.includes('readability')) {
  const pages = loadReadability(root);
  if (!pages) console.log('readability: corpus absent, skipped');
  else {
    const scores: Record<TextKey, ReturnType<typeof shingleScore>[]> = { text: [], mdText: [], mdTurndownText: [], wholeAggressive: [], wholeConservative: [] };
    const fields: [string, keyof PageMetadata][] = [['title', 'title'], ['byline', 'author'], ['excerpt', 'description'], ['siteName', 'siteName'], ['publishedTime', 'publishedDate'], ['lang', 'language']];
    const agree: Record<string, { same: number; total: number }> = Object.fromEntries(fields.map(([f]) => [f, { same: 0, total: 0 }]));
    const perPage: unknown[] = [];
    for (const p of pages) {
      const url = 'http://fakehost/test/page.html'; // the URL Readability's own test uses
      const o = run(p.html, url);
      const truth = renderText(parseHtml(p.expectedHtml));
      for (const k of Object.keys(scores) as TextKey[]) if (o[k] !== undefined) scores[k].push(shingleScore(truth, o[k] as string));
      // What a user gets: head metadata, with the description falling back to the article's first paragraph.
      const meta = o.metadata ?? {};
      const mismatches: Record<string, unknown> = {};
      for (const [f, ours] of fields) {
        const expected = p.expectedMetadata[f];
        if (expected === null || expected === undefined || expected === '') continue;
        agree[f].total++;
        if (String(expected).trim() === String(meta[ours] ?? '').trim()) agree[f].same++;
        else mismatches[f] = { expected, ours: meta[ours] };
      }
      const s = shingleScore(truth, o.text);
      perPage.push({ name: p.name, p: s.precision, r: s.recall, mismatches });
    }
    results.readability = {
      'page_text': aggregateShingles(scores.text),
      'markdown→text (mdream)': aggregateShingles(scores.mdText),
      ...(withTurndown ? { 'markdown→text (turndown)': aggregateShingles(scores.mdTurndownText) } : {}),
      'baseline: whole cleaned page': aggregateShingles(scores.wholeAggressive),
      'baseline: whole page (junk only)': aggregateShingles(scores.wholeConservative),
    };
    report(`Mozilla Readability test pages (${pages.length} pages, shingle F1 vs expected.html text)`, results.readability);
    console.log('  metadata agreement (exact, trimmed; pages where Readability has a value):');
    for (const [f, a] of Object.entries(agree)) console.log(`    ${f.padEnd(14)} ${a.same}/${a.total} (${((100 * a.same) / Math.max(1, a.total)).toFixed(0)}%)`);
    dump('readability', perPage);
  }
}

if (only.includes('wcxb')) {
  const pages = loadWcxb(root);
  if (!pages) console.log('wcxb: corpus absent, skipped');
  else {
    // Whole-page baselines and turndown are left out here: 1,497 pages, and the other datasets already report them.
    const byType = new Map<string, { text: PageWordScore[]; md: PageWordScore[]; halves: [number[], number[]] }>();
    const all = { text: [] as PageWordScore[], md: [] as PageWordScore[], halves: [[], []] as [number[], number[]] };
    const perPage: unknown[] = [];
    let typed = 0;
    for (const [index, p] of pages.entries()) {
      const page = formatPage(p.html, { url: p.url, formats: { ...ALL, markdown: true } });
      const text = page.page_text ?? '';
      const s = wordScore(p.truth, text, p.with, p.without);
      const m = wordScore(p.truth, markdownToText(page.markdown ?? ''), p.with, p.without);
      const bucket = byType.get(p.pageType) ?? { text: [], md: [], halves: [[], []] };
      byType.set(p.pageType, bucket);
      bucket.text.push(s);
      bucket.md.push(m);
      all.text.push(s);
      all.md.push(m);
      // Even- and odd-indexed pages (in id order): a rule tuned on one half should hold on the other.
      bucket.halves[index % 2].push(s.f1);
      all.halves[index % 2].push(s.f1);
      const detected = (page.metadata as { pageType?: string }).pageType;
      if (detected === p.pageType) typed++;
      perPage.push({ id: p.id, type: p.pageType, detected, url: p.url, p: s.precision, r: s.recall, f1: s.f1, text });
    }
    const fmtW = (s: WordCorpusScore): string =>
      `P ${s.precision.toFixed(3)}  R ${s.recall.toFixed(3)}  F1 ${s.f1.toFixed(3)}  with ${(100 * s.withRate).toFixed(1)}%  without ${(100 * s.withoutRate).toFixed(1)}%  (${s.pages})`;
    const published: Record<string, number> = { article: 0.932, documentation: 0.932, service: 0.844, forum: 0.808, collection: 0.716, listing: 0.707, product: 0.641 };
    console.log('\n## WCXB dev (1,497 pages, macro word F1; rs-trafilatura 0.859, trafilatura 0.791)');
    const mean = (xs: number[]): string => (xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length)).toFixed(3);
    const halves = (h: [number[], number[]]): string => `  [even ${mean(h[0])} / odd ${mean(h[1])}]`;
    console.log(`  ${'page_text, all'.padEnd(28)} ${fmtW(aggregateWords(all.text))}${halves(all.halves)}`);
    console.log(`  ${'markdown→text (mdream), all'.padEnd(28)} ${fmtW(aggregateWords(all.md))}`);
    for (const [type, b] of [...byType].sort((a, z) => z[1].text.length - a[1].text.length)) {
      console.log(`  ${`page_text, ${type}`.padEnd(28)} ${fmtW(aggregateWords(b.text))}${halves(b.halves)}  [rs-trafilatura ${published[type]?.toFixed(3) ?? '?'}]`);
    }
    for (const [type, b] of [...byType].sort((a, z) => z[1].text.length - a[1].text.length)) {
      console.log(`  ${`markdown→text, ${type}`.padEnd(28)} ${fmtW(aggregateWords(b.md))}`);
    }
    console.log(`  page type recognised (metadata.pageType): ${typed}/${pages.length} (${((100 * typed) / pages.length).toFixed(1)}%)`);
    dump('wcxb', perPage);
  }
}

if (speed) {
  const pages = loadZyte(root);
  if (pages) speedReport(pages.map((p) => ({ html: p.html, url: p.url })));
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.floor(s.length / 2)] : 0;
}

function time(fn: () => void): number {
  const t = performance.now();
  fn();
  return performance.now() - t;
}

function speedReport(pages: { html: string; url: string }[]): void {
  // Warm up JIT and the wasm module.
  for (const p of pages.slice(0, 20)) formatPage(p.html, { url: p.url, formats: ALL });
  const steps: Record<string, number[]> = { parse: [], metadata: [], clean: [], 'main content': [], 'markdown (mdream)': [], 'markdown (turndown)': [], text: [], 'whole pipeline (formatPage md+text)': [], 'enhanced_html only': [] };
  for (const p of pages) {
    let doc = parseHtml(p.html);
    steps.parse.push(time(() => (doc = parseHtml(p.html))));
    steps.metadata.push(time(() => extractMetadataFromDocument(doc, p.url)));
    steps.clean.push(time(() => cleanDocument(doc, { url: p.url, aggressive: true })));
    let nodes: ReturnType<typeof selectMainContent>['nodes'] = [];
    steps['main content'].push(time(() => (nodes = selectMainContent(doc, p.html, profileOf('article', p.url)).nodes)));
    const mainHtml = serialize(nodes as never);
    steps['markdown (mdream)'].push(time(() => markdownConverter('mdream').convert(serialize(nodes as never))));
    if (withTurndown) steps['markdown (turndown)'].push(time(() => markdownConverter('turndown').convert(mainHtml)));
    steps.text.push(time(() => renderText(nodes)));
    steps['whole pipeline (formatPage md+text)'].push(time(() => formatPage(p.html, { url: p.url, formats: ALL })));
    steps['enhanced_html only'].push(time(() => formatPage(p.html, { url: p.url, formats: { raw_html: false, enhanced_html: true, markdown: false, page_text: false } })));
  }
  console.log(`\n## Speed (ms/page, median over ${pages.length} Zyte pages, single thread)`);
  for (const [k, v] of Object.entries(steps)) if (v.length) console.log(`  ${k.padEnd(38)} ${median(v).toFixed(2)}  (p90 ${[...v].sort((a, b) => a - b)[Math.floor(v.length * 0.9)].toFixed(2)})`);

  // Markdown conversion alone on the page closest to 200 KB (the raw page, as ENVIRONMENT.md measured).
  const big = pages.reduce((a, b) => (Math.abs(b.html.length - 200_000) < Math.abs(a.html.length - 200_000) ? b : a));
  const runs = (name: 'mdream' | 'turndown', n: number): number => {
    const c = markdownConverter(name);
    c.convert(big.html);
    const ts: number[] = [];
    for (let i = 0; i < n; i++) ts.push(time(() => c.convert(big.html)));
    return median(ts);
  };
  console.log(`\n## Markdown conversion alone, whole ${Math.round(big.html.length / 1024)} KB page (median of runs)`);
  console.log(`  mdream    ${runs('mdream', 20).toFixed(2)} ms`);
  if (withTurndown) console.log(`  turndown  ${runs('turndown', 5).toFixed(2)} ms`);
}
